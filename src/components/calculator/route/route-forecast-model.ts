import { forecastCell, type Cell } from '../../../core/forecast-cell.ts';
import { DEFAULT_POWER_PARAMS } from '../../../core/power-model.ts';
import { judgeRoute, type RouteJudgement } from '../../../core/route/route-judge.ts';
import {
  perKmFigures,
  startFigures,
  type KmFigures,
  type StartFigures,
} from '../../../core/route/route-figures.ts';
import type { PreparedRoute } from '../../../core/route/route-prepare.ts';
import {
  DEFAULT_ROUTE_SPEED_KMH,
  powerForFlatSpeed,
  routeSamples,
  type RouteSamples,
} from '../../../core/route/route-ride.ts';
import { HOUR_S } from '../../../core/tailwind-window.ts';
import type { WindHour } from '../../../core/wind-hour.ts';
import { hourStart } from '../../../core/time.ts';
import { FORECAST_HOURS, MIN_USABLE_HOURS } from '../../../data/forecast/types.ts';
import type { WindAnswer } from './wind-answer.ts';

/**
 * The forecast half of the route calculator without the page: which cells
 * to ask for, and the route judged in their answers by the core's
 * `judgeRoute`, the function behind `get_route_wind`, with the tool's
 * defaults (a steady 25 km/h rider, daylight starts from now to the end of
 * the 72-hour forecast). Pure, so a unit test can hold the page's figures
 * against the tool's for the same forecast.
 */

/** The calculator's rider: get_route_wind's default, so the page and the tool agree. */
export const CALCULATOR_POWER_W = powerForFlatSpeed(DEFAULT_ROUTE_SPEED_KMH, DEFAULT_POWER_PARAMS);

/** What the page asks for: the distinct cells of the route's samples, and which cell each sample is in. */
export interface RouteCells {
  readonly samples: RouteSamples;
  /** Distinct cells in route order; only their centres leave the browser. */
  readonly cells: readonly Cell[];
  readonly cellOfSample: readonly number[];
}

/** The route's forecast samples (every 5 km and the end) snapped to the forecast's grid, each cell once. */
export function routeCells(route: PreparedRoute): RouteCells {
  const samples = routeSamples(route.points, route.simplified.legs);
  const index = new Map<string, number>();
  const cells: Cell[] = [];
  const cellOfSample = samples.points.map((point) => {
    const cell = forecastCell(point);
    let at = index.get(cell.key);
    if (at === undefined) {
      at = cells.push(cell) - 1;
      index.set(cell.key, at);
    }
    return at;
  });
  return { samples, cells, cellOfSample };
}

/**
 * The hours judged, as the tool keeps them: from the current UTC hour to
 * 72 hours ahead; a cell with fewer than 24 such hours has no usable
 * forecast (null), as a broken series must not read as calm.
 */
export function usableHours(hours: readonly WindHour[], nowMs: number): readonly WindHour[] | null {
  const from = hourStart(nowMs);
  const until = from + FORECAST_HOURS * HOUR_S;
  const ahead = hours.filter((hour) => hour.time >= from && hour.time < until);
  return ahead.length >= MIN_USABLE_HOURS ? ahead : null;
}

export interface ForecastRoute {
  readonly judgement: RouteJudgement;
  readonly starts: readonly StartFigures[];
  readonly perKm: readonly KmFigures[];
  /** The zone of the route's start (from its first cell's answer). */
  readonly timeZone: string;
  /** The forecast as its answers describe it: the oldest issue time, stale or demo if any is. */
  readonly forecast: WindAnswer['forecast'];
  readonly fromS: number;
  readonly untilS: number;
}

/** The route judged in the cells' answers (`answers[i]` for `cells.cells[i]`, null = not answered). */
export function judgeInForecast(
  route: PreparedRoute,
  cells: RouteCells,
  answers: readonly (WindAnswer | null)[],
  nowMs: number,
): ForecastRoute | null {
  const present = answers.filter((a): a is WindAnswer => a !== null);
  const first = answers[cells.cellOfSample[0] ?? 0] ?? present[0];
  if (first === undefined) return null;
  const forecast = cells.cellOfSample.map((cell) => {
    const answer = answers[cell];
    return answer ? usableHours(answer.hours, nowMs) : null;
  });
  if (forecast.every((hours) => hours === null)) return null;
  const fromS = Math.floor(nowMs / 1000);
  const untilS = hourStart(nowMs) + FORECAST_HOURS * HOUR_S;
  const timeZone = first.timeZone;
  const judgement = judgeRoute({
    route,
    samples: cells.samples,
    forecast,
    powerW: CALCULATOR_POWER_W,
    params: DEFAULT_POWER_PARAMS,
    fromS,
    untilS,
    includeDarkness: false,
    timeZone,
  });
  return {
    judgement,
    starts: judgement.chosen.map((start) => startFigures(start, timeZone)),
    perKm: perKmFigures(judgement.chosen[0]),
    timeZone,
    forecast: {
      ...first.forecast,
      demo: present.some((a) => a.forecast.demo),
      stale: present.some((a) => a.forecast.stale),
      issuedAt: Math.min(...present.map((a) => a.forecast.issuedAt)),
    },
    fromS,
    untilS,
  };
}
