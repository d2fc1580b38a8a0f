import { localIso } from '../local-time.ts';
import type { RideFlag } from '../rideable.ts';
import { roundHalfAway } from '../round.ts';
import { isoTime } from '../time.ts';
import { SPEED_DECIMALS } from '../wind.ts';
import type { ChosenStart } from './route-judge.ts';

/**
 * A judged start as figures a rider reads, rounded once here the way every
 * answer shows them: `get_route_wind`'s `best_starts` entries (its schema
 * names the fields) and the browser calculator's table are both this, so a
 * page and an assistant never round the same ride differently.
 */

const kmh = (value: number): number => roundHalfAway(value, SPEED_DECIMALS);
const km = (value: number): number => roundHalfAway(value, 1);

export interface StartFigures {
  readonly start: string;
  readonly start_local: string;
  readonly direction: 'as_given' | 'reversed';
  readonly other_direction: { readonly ride_minutes: number; readonly time_gained_s: number } | null;
  readonly finish: string;
  readonly finish_local: string;
  readonly tailwind_kmh: number;
  readonly crosswind_kmh: number;
  readonly headwind_share_pct: number;
  readonly strongest_headwind: {
    readonly from_km: number;
    readonly to_km: number;
    readonly headwind_kmh: number;
  } | null;
  readonly ride_minutes: number;
  readonly still_air_minutes: number;
  readonly time_gained_s: number;
  readonly flags: RideFlag[];
  readonly max_gusts_kmh: number | null;
  readonly max_precipitation_mm: number | null;
  readonly max_precipitation_probability_pct: number | null;
  readonly min_temperature_c: number | null;
  readonly max_temperature_c: number | null;
}

/** One chosen start's figures; times in UTC and in `timeZone` (the route start's). */
export function startFigures(report: ChosenStart, timeZone: string): StartFigures {
  const headwind = report.wind.strongestHeadwind;
  const finishS = report.startS + Math.round(report.windyS);
  return {
    start: isoTime(report.startS),
    start_local: localIso(report.startS, timeZone),
    direction: report.reversed ? 'reversed' : 'as_given',
    other_direction:
      report.other === null
        ? null
        : {
            ride_minutes: Math.round((report.other.stillAirS - report.other.timeGainedS) / 60),
            time_gained_s: Math.round(report.other.timeGainedS),
          },
    finish: isoTime(finishS),
    finish_local: localIso(finishS, timeZone),
    tailwind_kmh: kmh(report.wind.tailwindKmh),
    crosswind_kmh: kmh(report.wind.crosswindKmh),
    headwind_share_pct: Math.round(report.wind.headwindShare * 100),
    strongest_headwind: headwind && {
      from_km: km(headwind.fromKm),
      to_km: km(headwind.toKm),
      headwind_kmh: kmh(headwind.headwindKmh),
    },
    ride_minutes: Math.round(report.windyS / 60),
    still_air_minutes: Math.round(report.stillAirS / 60),
    time_gained_s: Math.round(report.timeGainedS),
    flags: [...report.flags],
    max_gusts_kmh: report.maxGustsKmh === null ? null : kmh(report.maxGustsKmh),
    max_precipitation_mm: report.maxPrecipitationMm,
    max_precipitation_probability_pct: report.maxPrecipitationProbabilityPct,
    min_temperature_c: report.minTemperatureC,
    max_temperature_c: report.maxTemperatureC,
  };
}

export interface KmFigures {
  readonly from_km: number;
  readonly to_km: number;
  readonly tailwind_kmh: number;
  readonly crosswind_kmh: number;
}

/** The wind per kilometre of a start's ride (the best start's, in answers), rounded as shown. */
export function perKmFigures(report: ChosenStart | undefined): KmFigures[] {
  return (report?.wind.perKm ?? []).map((bin) => ({
    from_km: km(bin.fromKm),
    to_km: km(bin.toKm),
    tailwind_kmh: kmh(bin.tailwindKmh),
    crosswind_kmh: kmh(bin.crosswindKmh),
  }));
}
