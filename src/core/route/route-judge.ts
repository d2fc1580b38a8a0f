import { localParts } from '../local-time.ts';
import type { PowerModelParams } from '../power-model.ts';
import type { WindHour } from '../wind-hour.ts';
import { routeLegs, type RouteLeg } from './route-geometry.ts';
import {
  pairDirections,
  reverseRoute,
  reversedLegSamples,
  routeShape,
  type DirectedStart,
} from './route-loop.ts';
import type { PreparedRoute } from './route-prepare.ts';
import type { RouteSamples } from './route-ride.ts';
import type { RouteShape } from './route-shape.ts';
import {
  bestStarts,
  judgeStarts,
  localHourPhaseS,
  reportStart,
  type StartJudgement,
  type StartReport,
  type StartStatus,
} from './route-starts.ts';

/**
 * A whole route judged against the forecast: the one function behind the
 * MCP tool `get_route_wind` and the browser's route calculator, so both
 * offer the same starts, directions and figures for the same forecast. The
 * callers differ only in how the forecast arrives (the tool from the
 * forecast source, the page from `GET /v1/wind` per cell) and in words.
 */

/** What judging needs besides the route: the forecast per sample, the rider, the start range. */
export interface RouteJudgeInput {
  readonly route: PreparedRoute;
  /** The samples of `route` ({@link routeSamples} on its simplified points and legs). */
  readonly samples: RouteSamples;
  /** Per sample, the forecast hours from now (null = no usable forecast there). */
  readonly forecast: readonly (readonly WindHour[] | null)[];
  readonly powerW: number;
  readonly params: PowerModelParams;
  /** First and last start considered, unix seconds. */
  readonly fromS: number;
  readonly untilS: number;
  readonly includeDarkness: boolean;
  /** The zone of the route's start (IANA): starts fall on its whole hours. */
  readonly timeZone: string;
}

/** A chosen start with its report, the direction it is ridden in and the other direction's judgement. */
export type ChosenStart = StartReport & DirectedStart;

export interface RouteJudgement {
  readonly shape: RouteShape;
  readonly endsApartM: number;
  /** Seconds past each UTC hour at which local hours begin (0 in most zones). */
  readonly hourPhaseS: number;
  /** Every start that fits the forecast, as given, in time order (for a chart of the day). */
  readonly asGiven: readonly StartJudgement[];
  /** The same starts reversed (closed routes only; empty otherwise). */
  readonly reversed: readonly StartJudgement[];
  /** The offered starts, fastest first (at most 3, 2 h apart), with full figures. */
  readonly chosen: readonly ChosenStart[];
  readonly status: StartStatus;
  /** The legs and leg samples of each direction, for anything judged per start afterwards. */
  readonly legsOf: (reversed: boolean) => readonly RouteLeg[];
  readonly legSampleOf: (reversed: boolean) => readonly number[];
}

/**
 * Seconds past the UTC hour at which the zone's local hours begin at
 * `fromS`: India (+5:30) starts them at :30 UTC, so its starts fall between
 * the forecast's hours and the forecast is interpolated to them.
 */
export function routeHourPhaseS(fromS: number, timeZone: string): number {
  return localHourPhaseS(localParts(fromS, timeZone).offsetMinutes);
}

/**
 * Judges every start on a whole local hour in the range (`judgeStarts`),
 * a loop or out-and-back both ways round in the same forecast samples
 * (`pairDirections`: per start, the faster rideable way), then picks the
 * best starts (`bestStarts`) and reports each in full (`reportStart`).
 */
export function judgeRoute(input: RouteJudgeInput): RouteJudgement {
  const { route, samples, powerW, params } = input;
  const legs = route.simplified.legs;
  const hourPhaseS = routeHourPhaseS(input.fromS, input.timeZone);
  const search = {
    hourPhaseS,
    legs,
    legSample: samples.legSample,
    samplePoints: samples.points,
    forecast: input.forecast,
    powerW,
    params,
    fromS: input.fromS,
    untilS: input.untilS,
    includeDarkness: input.includeDarkness,
  };
  const shape = routeShape(route.points);
  const asGiven = judgeStarts(search).judged;
  let judged: DirectedStart[] = asGiven.map((j) => ({ ...j, reversed: false, other: null }));
  let reversed: StartJudgement[] = [];
  let reversedLegs = legs;
  let reversedSample = samples.legSample;
  if (shape.shape !== 'point_to_point') {
    // A loop or out-and-back is judged the other way round too, in the same forecast samples.
    reversedLegs = routeLegs(reverseRoute(route.points)).legs;
    reversedSample = reversedLegSamples(
      reversedLegs,
      route.simplified.distanceM / 1000,
      samples.spacingKm,
      samples.points.length - 1,
    );
    reversed = judgeStarts({ ...search, legs: reversedLegs, legSample: reversedSample }).judged;
    judged = pairDirections(asGiven, reversed);
  }
  const { chosen, status } = bestStarts(judged);
  return {
    shape: shape.shape,
    endsApartM: shape.endsApartM,
    hourPhaseS,
    asGiven,
    reversed,
    chosen: chosen.map((start) => ({
      ...reportStart(start, start.reversed ? reversedLegs : legs, powerW, params),
      reversed: start.reversed,
      other: start.other,
    })),
    status,
    legsOf: (back) => (back ? reversedLegs : legs),
    legSampleOf: (back) => (back ? reversedSample : samples.legSample),
  };
}
