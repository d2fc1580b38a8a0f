/**
 * get_route_wind's answer (`get-route-wind.ts` defines the tool): loaded
 * with the tool's first call, so a function whose first call is another
 * tool compiles none of the route code (decision 0045, follow-up).
 */
import { speedForPower } from '../../core/power-model.ts';
import type { ChosenStart } from '../../core/route/route-judge.ts';
import { perKmFigures, startFigures } from '../../core/route/route-figures.ts';
import { roundHalfAway } from '../../core/round.ts';
import { minutesWords, windGainWords } from '../../core/duration-words.ts';
import { NO_START_WEATHER_WORDS } from '../../core/route/route-starts.ts';
import { localDateTime, zoneAbbreviation } from '../../core/local-time.ts';
import { SPEED_DECIMALS } from '../../core/wind.ts';
import { attributionFor, forecastInfo } from '../report/forecast.ts';
import { flagLegend, flagsText } from '../report/weather-words.ts';
import { ensembleForPoints, ensembleLine } from '../report/ensemble.ts';
import { startGainChance } from '../../core/route/route-chance.ts';
import { routeEnsembleSamples } from '../../core/route/route-ensemble-samples.ts';
import { stillAirSchedule } from '../../core/route/route-ride.ts';
import type { EnsembleSample } from '../../core/ensemble-chance.ts';
import { callerAccess } from '../report/pro-details.ts';
import { readRouteArguments } from '../report/route-report.ts';
import { routeQuestion, routeWind } from '../../service/route-wind.ts';
import {
  FORECAST_CELL_DEG,
  type GetRouteWindInputSchema,
  type GetRouteWindOutput,
} from '../schemas/route.ts';
import type { z } from 'zod';
import type { ToolContext } from '../context.ts';
import type { ToolAnswer } from '../tool.ts';

const kmh = (value: number): number => roundHalfAway(value, SPEED_DECIMALS);
const km = (value: number): number => roundHalfAway(value, 1);

const STATUS_WORDS: Record<GetRouteWindOutput['start_status'], string> = {
  found: '',
  dark: 'every start in the range would ride in darkness (include_darkness: true for a rider with lights)',
  ...NO_START_WEATHER_WORDS,
  beyond_forecast: 'no start in the range lets the ride end inside the 72-hour forecast',
};

type StartOut = GetRouteWindOutput['best_starts'][number];

const SHAPE_WORDS = { loop: 'a loop', out_and_back: 'an out-and-back' } as const;

/** One offered start: when (local), the direction on a closed route, time gained or lost, flags. */
function startLine(s: StartOut, closed: boolean, timeZone: string): string {
  const direction = closed ? (s.direction === 'reversed' ? ' ridden reversed' : ' ridden as given') : '';
  const other =
    s.other_direction === null
      ? ''
      : `; the other way ${minutesWords(s.other_direction.ride_minutes)}, wind ${windGainWords(s.other_direction.time_gained_s)}`;
  return (
    `${localDateTime(Date.parse(s.start) / 1000, timeZone)}${direction}: ${minutesWords(s.ride_minutes)} riding, wind ${windGainWords(s.time_gained_s)} ` +
    `against still air${other}` +
    (s.gain_chance_pct == null ? '' : ` (gains time in ${s.gain_chance_pct}% of ensemble members)`) +
    flagsText(s.flags)
  );
}

/**
 * The text for `content`: the route, then every offered start best first
 * (by time gained, what the rider feels), so the first line is the ride to
 * take; on a loop or out-and-back, which way round is faster with both times.
 */
export function summarizeRoute(data: GetRouteWindOutput): string {
  const r = data.route;
  const closed = r.shape !== 'point_to_point';
  const head =
    `${r.name === null ? 'Route' : `Route "${r.name}"`}: ${r.distance_km} km` +
    (r.climbing_m === null ? '' : `, ${r.climbing_m} m climbing`) +
    (closed ? `, ${SHAPE_WORDS[r.shape as keyof typeof SHAPE_WORDS]}` : '') +
    `, ridden at ${data.rider.power_w} W (${data.rider.flat_speed_kmh} km/h on the flat).`;
  const best = data.best_starts[0];
  if (best === undefined)
    return `${head} No start to suggest: ${STATUS_WORDS[data.start_status]}.${demoLine(data)}${ensembleLine(data.ensemble)}`;
  const other = best.other_direction;
  const lead =
    closed && other !== null
      ? ` Faster ${best.direction === 'reversed' ? 'reversed' : 'as given'}: from the best start ` +
        `${minutesWords(best.ride_minutes)} that way (wind ${windGainWords(best.time_gained_s)}), ` +
        `${minutesWords(other.ride_minutes)} the other way (wind ${windGainWords(other.time_gained_s)}).`
      : '';
  const headwind = best.strongest_headwind;
  const detail =
    ` Best ride: headwind on ${best.headwind_share_pct}% of it` +
    (headwind
      ? ` (worst km ${headwind.from_km}–${headwind.to_km}, ${headwind.headwind_kmh} km/h at 10 m)`
      : '') +
    `, mean along-track wind ${best.tailwind_kmh} km/h at 10 m.`;
  const lines = data.best_starts.map((s, i) => `${i + 1}. ${startLine(s, closed, data.time_zone)}`);
  const legend = flagLegend(data.best_starts.flatMap((s) => s.flags));
  return `${head}${lead}${detail}\nStarts, fastest first:\n${lines.join('\n')}${legend}${interpolationLine(data, best)}${demoLine(data)}${ensembleLine(data.ensemble)}`;
}

/**
 * Said where starts fall between the forecast's UTC hours (a zone such as
 * UTC+5:30 or UTC+5:45): the figures of such a start come from the two hours
 * around it, interpolated, not from a forecast hour of its own.
 */
function interpolationLine(data: GetRouteWindOutput, best: StartOut): string {
  if (!data.sampling.interpolated_to_local_hours) return '';
  const zone = zoneAbbreviation(Date.parse(best.start) / 1000, data.time_zone);
  return `\nStarts are on whole local hours (${zone}), between the forecast's UTC hours: its wind, gusts and temperature are interpolated, rain taken from the wetter hour.`;
}

function demoLine(data: GetRouteWindOutput): string {
  return data.forecast.source === 'demo' ? '\nThe forecast is a synthetic DEMO, not real weather.' : '';
}

/** The answer to one get_route_wind call: the use case's judgement of the route, in the tool's words. */
export async function routeWindAnswer(
  input: z.output<typeof GetRouteWindInputSchema>,
  context: ToolContext,
): Promise<ToolAnswer<GetRouteWindOutput>> {
  const question = routeQuestion(
    {
      route: readRouteArguments(input),
      startAfter: input.start_after,
      startBefore: input.start_before,
      speedKmh: input.speed_kmh,
      powerW: input.power_w,
      massKg: input.mass_kg,
      includeDarkness: input.include_darkness,
    },
    context.now(),
  );
  // The use case reads the forecast and judges the starts (its errors are worded in `tool.ts`).
  const [wind, access] = await Promise.all([routeWind(question, context), callerAccess(context)]);
  const { pro } = access;
  const { route, samples, powerW, params, judgement, timeZone } = wind;
  const forecast = forecastInfo(context, wind.forecast);
  const first = route.parsed.points[0];
  const { hourPhaseS, status } = judgement;
  const reports = judgement.chosen;
  // Pro only: each offered start's chance of gaining time, every member riding its own wind.
  // The ensemble is read at most at 12 of the samples (see routeEnsembleSamples): its grid is coarse and
  // every point costs about 10 calls of request weight; each forecast sample rides the nearest one's members.
  const thinned = routeEnsembleSamples(samples);
  const ensemble = pro && reports.length > 0 ? await ensembleForPoints(context, thinned.points, null) : null;
  const pickedByTime = ensemble?.hours.map(
    (hours) => hours && new Map<number, EnsembleSample>(hours.map((h) => [h.time, h])),
  );
  const byTime = pickedByTime && thinned.nearest.map((pick) => pickedByTime[pick] ?? null);
  const chanceOf = (report: ChosenStart): number | null => {
    if (!byTime) return null;
    const startLegs = judgement.legsOf(report.reversed);
    const chance = startGainChance(
      {
        legs: startLegs,
        legSample: judgement.legSampleOf(report.reversed),
        midS: stillAirSchedule(startLegs, powerW, params).midS,
        ensemble: byTime,
        powerW,
        params,
        stillAirS: report.stillAirS,
      },
      report.startS,
    );
    return chance && Math.round(chance.chance * 100);
  };
  const last = route.parsed.points.at(-1);
  const hasElevation = route.parsed.points.some((p) => p.ele !== undefined);
  const data: GetRouteWindOutput = {
    route: {
      name: route.parsed.name ?? null,
      distance_km: km(route.full.distanceM / 1000),
      climbing_m: hasElevation ? Math.round(route.full.climbingM) : null,
      elevation_coverage_pct: Math.round(route.parsed.elevationCoverage * 100),
      points_read: route.parsed.points.length,
      duplicates_dropped: route.parsed.duplicatesDropped,
      points_used: route.points.length,
      start: { latitude: first?.lat ?? 0, longitude: first?.lon ?? 0 },
      end: { latitude: last?.lat ?? 0, longitude: last?.lon ?? 0 },
      shape: judgement.shape,
      ends_apart_m: Math.round(judgement.endsApartM),
    },
    rider: {
      power_w: Math.round(powerW),
      flat_speed_kmh: kmh(speedForPower(powerW, 0, 0, params) * 3.6),
      mass_kg: input.mass_kg,
    },
    sampling: {
      spacing_km: km(samples.spacingKm),
      samples: samples.points.length,
      forecast_cell_deg: FORECAST_CELL_DEG,
      interpolated_to_local_hours: hourPhaseS !== 0,
    },
    start_status: status,
    time_zone: timeZone,
    best_starts: reports.map((report) => ({
      ...startFigures(report, timeZone),
      ...(ensemble ? { gain_chance_pct: chanceOf(report) } : {}),
    })),
    per_km: perKmFigures(reports[0]),
    ...(ensemble ? { ensemble: ensemble.info } : {}),
    forecast: forecast.info,
    attribution: attributionFor(forecast.info.source, [], null),
    ...(pro ? {} : { locked: [access.lock('tailwind_chance')] }),
  };
  return { data, summary: summarizeRoute(data) };
}
