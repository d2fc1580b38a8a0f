import type { LatLon } from '../bearing.ts';
import { greatCircleM } from '../distance.ts';
import { powerForSpeed, speedForPower, type PowerModelParams } from '../power-model.ts';
import type { RouteLeg } from './route-geometry.ts';
import type { RoutePoint } from './route-input.ts';

/**
 * Forecast samples are taken every 5 km along a route, plus its end: the
 * weather models behind the forecast resolve 2–11 km cells, so a closer
 * spacing would mostly ask the same cell twice.
 */
export const ROUTE_SAMPLE_SPACING_KM = 5;

/**
 * At most 60 samples per route: past 300 km the spacing widens (length / 60)
 * so one batched forecast request stays small for the upstream service.
 */
export const MAX_ROUTE_SAMPLES = 60;

/**
 * Ground speed is capped at 60 km/h on descents: the power model would let a
 * rider freewheel a 10 % slope at 80 km/h, which nobody plans a ride on.
 */
export const MAX_RIDE_SPEED_KMH = 60;

export interface RouteSamples {
  /** Where the forecast is read, in order from the start; the first is the start, the last the end. */
  readonly points: readonly LatLon[];
  /** Distance of each sample from the start, km. */
  readonly atKm: readonly number[];
  /** Spacing used, km. */
  readonly spacingKm: number;
  /** For each leg, the index of the sample nearest its midpoint (the forecast it is ridden in). */
  readonly legSample: readonly number[];
}

/** The sample spacing for a route of `distanceKm`: {@link ROUTE_SAMPLE_SPACING_KM}, wider past 60 samples. */
export function sampleSpacingKm(distanceKm: number): number {
  return Math.max(ROUTE_SAMPLE_SPACING_KM, distanceKm / (MAX_ROUTE_SAMPLES - 1));
}

/**
 * Points every {@link sampleSpacingKm} along the route (interpolated on the
 * leg, the short way round across the antimeridian) and the end, and which
 * sample each leg takes its forecast from.
 */
export function routeSamples(points: readonly RoutePoint[], legs: readonly RouteLeg[]): RouteSamples {
  const last = legs.at(-1);
  const distanceKm = last === undefined ? 0 : last.fromKm + last.lengthM / 1000;
  const spacingKm = sampleSpacingKm(distanceKm);
  const count = Math.max(1, Math.ceil(distanceKm / spacingKm - 1e-9));
  const atKm = Array.from({ length: count + 1 }, (_, i) => Math.min(i * spacingKm, distanceKm));
  const out: LatLon[] = [];
  let along = 0;
  let next = 0;
  for (let i = 1; i < points.length && next < atKm.length; i++) {
    const a = points[i - 1];
    const b = points[i];
    if (a === undefined || b === undefined) continue;
    const lengthKm = greatCircleM(a, b) / 1000;
    while (next < atKm.length && (atKm[next] ?? 0) <= along + lengthKm + 1e-9) {
      const t = lengthKm > 0 ? Math.min(1, Math.max(0, ((atKm[next] ?? 0) - along) / lengthKm)) : 0;
      const step = ((((b.lon - a.lon) % 360) + 540) % 360) - 180;
      const lon = a.lon + step * t;
      out.push({ lat: a.lat + (b.lat - a.lat) * t, lon: ((((lon + 180) % 360) + 360) % 360) - 180 });
      next++;
    }
    along += lengthKm;
  }
  const end = points.at(-1);
  while (out.length < atKm.length && end !== undefined) out.push({ lat: end.lat, lon: end.lon });
  const legSample = legs.map((leg) =>
    Math.min(count, Math.round((leg.fromKm + leg.lengthM / 2000) / spacingKm)),
  );
  return { points: out, atKm, spacingKm, legSample };
}

/**
 * The rider's flat still-air speed when neither speed nor power is given: a
 * steady club pace (get_route_wind's default, and the browser calculator's rider).
 */
export const DEFAULT_ROUTE_SPEED_KMH = 25;

/** The pedal power (W) that holds `speedKmh` on the flat in still air: how a speed becomes a rider. */
export function powerForFlatSpeed(speedKmh: number, params?: Partial<PowerModelParams>): number {
  return powerForSpeed({
    groundSpeedMs: speedKmh / 3.6,
    headwindMs: 0,
    gradeFraction: 0,
    ...(params && { params }),
  });
}

/**
 * Ground speed (m/s) on one leg at a constant pedal power, with the leg's
 * grade (flat where unknown) and an along-track 10 m tailwind (km/h), capped
 * at {@link MAX_RIDE_SPEED_KMH}. The wind is scaled to rider height by the
 * model's own factor, as every estimate of the project does.
 */
export function legSpeedMs(
  leg: RouteLeg,
  powerW: number,
  tailwindKmh: number,
  params: PowerModelParams,
): number {
  const headwindMs = (-tailwindKmh / 3.6) * params.windHeightFactor;
  const speed = speedForPower(powerW, headwindMs, (leg.gradePct ?? 0) / 100, params);
  return Math.min(speed, MAX_RIDE_SPEED_KMH / 3.6);
}

/**
 * Seconds from the start to the middle of each leg in still air, and the
 * total: where the rider is at each hour. Placing the rider with the
 * still-air pace (not the windy one) keeps the hour lookup independent of
 * the wind it looks up; the two differ by minutes on a ride of hours.
 */
export function stillAirSchedule(
  legs: readonly RouteLeg[],
  powerW: number,
  params: PowerModelParams,
): { readonly midS: readonly number[]; readonly totalS: number } {
  let elapsed = 0;
  const midS = legs.map((leg) => {
    const seconds = leg.lengthM / legSpeedMs(leg, powerW, 0, params);
    const mid = elapsed + seconds / 2;
    elapsed += seconds;
    return mid;
  });
  return { midS, totalS: elapsed };
}

/** Ride time (s) at constant power with a 10 m along-track tailwind per leg (km/h). */
export function rideTimeS(
  legs: readonly RouteLeg[],
  powerW: number,
  tailwindKmh: readonly number[],
  params: PowerModelParams,
): number {
  return legs.reduce(
    (sum, leg, i) => sum + leg.lengthM / legSpeedMs(leg, powerW, tailwindKmh[i] ?? 0, params),
    0,
  );
}
