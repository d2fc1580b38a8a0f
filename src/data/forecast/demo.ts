import { normalizeDegrees, toRadians } from '../../core/angles.ts';
import type { LatLon } from '../../core/bearing.ts';
import { roundHalfAway } from '../../core/round.ts';
import type { WindHour } from '../../core/wind-hour.ts';
import { type Clock, FORECAST_HOURS, type ForecastSource, hourStart } from './types.ts';

/** The demo never blows harder than this (mean wind); gusts may exceed it. */
export const DEMO_MAX_SPEED_KMH = 45;

const TAU = 2 * Math.PI;

/**
 * The synthetic wind at `time` (Unix seconds) and `point`: a few moving
 * "weather systems", each a sinusoid in latitude, longitude and time, so
 * nearby points and consecutive hours differ only a little. The direction
 * veers about 18°/h (a turn every 20 h, with wobbles: faster than real
 * weather) so that over three days every route bearing meets a strong
 * tailwind at some hour; the speed swings between calm (about 1 hour in 20)
 * and 45 km/h on 31 h and 13 h cycles. A pure function of its inputs.
 */
export function demoWindAt(point: LatLon, time: number): WindHour {
  const h = time / 3600;
  const lat = point.lat;
  // Longitude folded to [-180, 180) and used in whole multiples of radians,
  // so the field is continuous across the antimeridian and 180 ≡ -180.
  const lon = normalizeDegrees(point.lon + 180) - 180;
  const x = toRadians(lon);
  const level =
    0.5 +
    0.3 * Math.sin((TAU * h) / 31 + 0.09 * lat + 4 * x) +
    0.2 * Math.sin((TAU * h) / 13 - 7 * x + 0.05 * lat + 1.3) +
    0.08 * Math.sin((TAU * h) / 7 + 0.21 * lat - 10 * x);
  const speedKmh = roundHalfAway(DEMO_MAX_SPEED_KMH * Math.min(1, Math.max(0, level)), 1);
  const veer = 18 * h + 40 * Math.sin((TAU * h) / 29 + 6 * x) + 25 * lat + 18 * lon;
  const directionDeg = Math.round(normalizeDegrees(veer)) % 360;
  const gustFactor = 1.25 + 0.15 * Math.sin((TAU * h) / 5 + 0.5 * lat - 30 * x);
  const gustsKmh = Math.max(speedKmh, roundHalfAway(speedKmh * gustFactor + (speedKmh > 0 ? 2 : 0), 1));
  return { time, speedKmh, directionDeg, gustsKmh, ...demoWeatherAt(lat, x, time) };
}

/** Day of the year, 0-based, in UTC: enough for a seasonal cycle. */
const dayOfYear = (time: number): number => {
  const date = new Date(time * 1000);
  return (date.getTime() - Date.UTC(date.getUTCFullYear(), 0, 1)) / 86_400_000;
};

/**
 * Synthetic temperature and rain, shaped like real climate so the rider
 * rules meet every case: colder towards the poles and in the local winter
 * (the seasons flip across the equator), warmest mid-afternoon local solar
 * time; rain comes in passing "systems" (two sinusoids in time and place),
 * on about one hour in six, up to about 2.5 mm, with a probability that
 * rises before and falls after it. Pure, like the wind.
 */
function demoWeatherAt(
  lat: number,
  lonRadians: number,
  time: number,
): Pick<WindHour, 'temperatureC' | 'precipitationMm' | 'precipitationProbabilityPct'> {
  const h = time / 3600;
  const solarHour = (((h + (12 * lonRadians) / Math.PI) % 24) + 24) % 24;
  const season = Math.cos((TAU * (dayOfYear(time) - 200)) / 365.25) * Math.sign(lat);
  const temperature =
    30 -
    0.4 * Math.abs(lat) +
    20 * (Math.abs(lat) / 90) * season +
    5 * Math.cos((TAU * (solarHour - 15)) / 24);
  const rain =
    Math.sin((TAU * h) / 37 + 0.13 * lat + 5 * lonRadians) +
    0.6 * Math.sin((TAU * h) / 17 - 3 * lonRadians + 0.07 * lat + 0.4);
  const probability = Math.round(Math.min(100, Math.max(0, (100 * (rain - 0.2)) / 1.2)));
  return {
    temperatureC: roundHalfAway(temperature, 1),
    precipitationMm: rain > 1 ? roundHalfAway((rain - 1) * 4, 1) : 0,
    precipitationProbabilityPct: probability,
  };
}

/**
 * A deterministic, offline forecast for demos and tests: 72 hours from the
 * current hour for any point, the same every time for the same point and hour.
 * It is SYNTHETIC weather, never a real forecast: every answer built on it
 * must carry `source: "demo"` so nobody plans a ride on it.
 * `issuedAt` is the start of the current hour (the "run" it stands for).
 */
export function createDemoForecast(options: { readonly clock?: Clock } = {}): ForecastSource {
  const clock = options.clock ?? Date.now;
  return {
    id: 'demo',
    hourly: async (points) => {
      const issuedAt = hourStart(clock());
      return points.map((point) => ({
        point,
        issuedAt,
        stale: false,
        hours: Array.from({ length: FORECAST_HOURS }, (_, i) => demoWindAt(point, issuedAt + i * 3600)),
        unusableHours: 0,
      }));
    },
  };
}
