/**
 * The wind along a route: the use case behind `get_route_wind` (and the
 * rider address's version of it). The route prepared as the browser
 * calculator prepares it (`src/core/route`), the start range and the
 * rider's power checked, the forecast read at the route's samples
 * (`segment-forecast.ts`), and the starts judged by the core judge the
 * calculator runs too. The answer's shape, the ensemble's chance and the
 * words stay with the surface.
 */
import { DEFAULT_POWER_PARAMS, type PowerModelParams } from '../core/power-model.ts';
import type { ParsedRoute } from '../core/route/route-input.ts';
import { judgeRoute, type RouteJudgement } from '../core/route/route-judge.ts';
import { prepareRoute, type PreparedRoute } from '../core/route/route-prepare.ts';
import {
  DEFAULT_ROUTE_SPEED_KMH,
  powerForFlatSpeed,
  routeSamples,
  type RouteSamples,
} from '../core/route/route-ride.ts';
import { HOUR_S } from '../core/tailwind-window.ts';
import { hourStart, isoTime } from '../core/time.ts';
import { FORECAST_HOURS } from '../data/forecast/types.ts';
import { timeZoneAt } from '../data/time-zone/zone-at.ts';
import { forecastOrThrow, type ForecastParts, type JudgedForecast } from './segment-forecast.ts';
import { ServiceError } from './service-error.ts';

/** What a route is asked with: the route read, when a start may be, and how the rider rides. */
export interface RouteWindAsked {
  readonly route: ParsedRoute;
  /** ISO times bounding the start (now and the forecast's end when absent). */
  readonly startAfter?: string | undefined;
  readonly startBefore?: string | undefined;
  /** One of the two, or neither (the default speed). */
  readonly speedKmh?: number | undefined;
  readonly powerW?: number | undefined;
  readonly massKg: number;
  readonly includeDarkness: boolean;
}

/** A route question checked and ready to judge: no weather read yet. */
export interface RouteQuestion {
  readonly route: PreparedRoute;
  readonly samples: RouteSamples;
  readonly fromS: number;
  readonly untilS: number;
  readonly powerW: number;
  readonly params: PowerModelParams;
  readonly includeDarkness: boolean;
}

/** The route judged: its question, the forecast read at its samples, its zone and the starts. */
export interface RouteWind extends RouteQuestion {
  readonly forecast: JudgedForecast;
  readonly timeZone: string;
  readonly judgement: RouteJudgement;
}

function invalid(message: string): ServiceError {
  return new ServiceError('invalid_parameter', message);
}

/** The start range in unix seconds, or `invalid_parameter` saying what is wrong with it. */
function startRange(asked: RouteWindAsked, nowMs: number): { fromS: number; untilS: number } {
  const nowS = Math.floor(nowMs / 1000);
  const horizonS = hourStart(nowMs) + FORECAST_HOURS * HOUR_S;
  const after = asked.startAfter === undefined ? nowS : Date.parse(asked.startAfter) / 1000;
  const before = asked.startBefore === undefined ? horizonS : Date.parse(asked.startBefore) / 1000;
  if (before < nowS)
    throw invalid(
      `start_before (${asked.startBefore ?? ''}) is in the past; give a time in the next 72 hours.`,
    );
  if (after >= horizonS)
    throw invalid(
      `start_after (${asked.startAfter ?? ''}) is beyond the forecast, which ends at ${isoTime(horizonS)}.`,
    );
  if (before < after)
    throw invalid('start_before is earlier than start_after; swap them or widen the range.');
  // Earlier than now means now, later than the forecast means its end: both are what the rider can ride.
  return { fromS: Math.max(after, nowS), untilS: Math.min(before, horizonS) };
}

/**
 * The question checked before any weather is asked for (so a rider's save
 * is refused, or the route's fault said, without a forecast request).
 * Throws `invalid_parameter`.
 */
export function routeQuestion(asked: RouteWindAsked, nowMs: number): RouteQuestion {
  const route = prepareRoute(asked.route);
  const { fromS, untilS } = startRange(asked, nowMs);
  if (asked.speedKmh !== undefined && asked.powerW !== undefined)
    throw invalid('Give speed_kmh or power_w, not both: the ride is modelled at one constant power.');
  const params: PowerModelParams = { ...DEFAULT_POWER_PARAMS, massKg: asked.massKg };
  const powerW = asked.powerW ?? powerForFlatSpeed(asked.speedKmh ?? DEFAULT_ROUTE_SPEED_KMH, params);
  const samples = routeSamples(route.points, route.simplified.legs);
  return { route, samples, fromS, untilS, powerW, params, includeDarkness: asked.includeDarkness };
}

/**
 * The route judged on the forecast at its samples. Throws the forecast's
 * `forecast_*` errors, and `forecast_unavailable` when no sample has a
 * forecast at all (open sea, the poles, or swapped coordinates).
 */
export async function routeWind(question: RouteQuestion, parts: ForecastParts): Promise<RouteWind> {
  const forecast = await forecastOrThrow(parts, question.samples.points);
  if (forecast.sets.every((set) => set === null))
    throw new ServiceError(
      'forecast_unavailable',
      'The weather service has no forecast anywhere along this route (over open sea or at the poles?). ' +
        'Check the coordinates are latitude/longitude in that order, or try again later.',
    );
  const first = question.route.parsed.points[0];
  const timeZone = timeZoneAt(first ?? { lat: 0, lon: 0 });
  // The core judge (shared with the browser calculator) puts starts on whole local hours of this zone.
  const judgement = judgeRoute({
    route: question.route,
    samples: question.samples,
    forecast: forecast.sets.map((set) => set?.hours ?? null),
    powerW: question.powerW,
    params: question.params,
    fromS: question.fromS,
    untilS: question.untilS,
    includeDarkness: question.includeDarkness,
    timeZone,
  });
  return { ...question, forecast, timeZone, judgement };
}
