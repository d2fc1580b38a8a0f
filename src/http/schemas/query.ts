import * as z from 'zod';
import { isSamePoint } from '../../core/bearing.ts';
import { COORDINATE_PARAMETERS, PARAMETERS, rangeHint, type ParameterName } from '../../core/parameters.ts';
import type { ProblemCode } from '../../core/problems.ts';

/** Extra data a cross-field rule attaches to its zod issue. */
export interface RuleIssueParams {
  readonly problem: ProblemCode;
  readonly hint: string;
}

function numberParameter(name: ParameterName) {
  const { min, max, description, example } = PARAMETERS[name];
  return z.number().min(min).max(max).meta({ description, example });
}

const coordinates = {
  start_lat: numberParameter('start_lat'),
  start_lon: numberParameter('start_lon'),
  end_lat: numberParameter('end_lat'),
  end_lon: numberParameter('end_lon'),
};

interface Coordinates {
  start_lat: number;
  start_lon: number;
  end_lat: number;
  end_lon: number;
}

export const SAME_POINT_HINT =
  'Start and end must be different points: a bearing needs a direction. ' +
  'Check that end_lat and end_lon are not a copy of start_lat and start_lon.';

function rejectSamePoint(query: Coordinates, ctx: z.RefinementCtx): void {
  const start = { lat: query.start_lat, lon: query.start_lon };
  const end = { lat: query.end_lat, lon: query.end_lon };
  if (!isSamePoint(start, end)) return;
  ctx.addIssue({
    code: 'custom',
    path: ['end_lat'],
    message: 'Start and end are the same point, so there is no direction between them.',
    params: { problem: 'invalid_parameter', hint: SAME_POINT_HINT } satisfies RuleIssueParams,
  });
}

/** Query of `GET /v1/bearing`: all four coordinates, two distinct points. */
export const BearingQuerySchema = z.object(coordinates).superRefine(rejectSamePoint);

export const DIRECTION_HINT =
  'Give the direction of travel either as segment_bearing_deg (a number from 0 to 360, ' +
  'for example segment_bearing_deg=80) or as all four of start_lat, start_lon, end_lat and end_lon.';

/**
 * Query of `GET /v1/tailwind`. The direction of travel comes from the four
 * coordinates when all are sent (the spec's "computed from coordinates when
 * coordinates were given"); a bearing sent alongside must still be valid.
 * With no bearing, a partial set of coordinates is reported by its first
 * missing member, and no direction at all is reported as `segment_bearing_deg`.
 */
export const TailwindQuerySchema = z
  .object({
    wind_speed_kmh: numberParameter('wind_speed_kmh'),
    wind_direction_deg: numberParameter('wind_direction_deg'),
    segment_bearing_deg: numberParameter('segment_bearing_deg').optional(),
    start_lat: coordinates.start_lat.optional(),
    start_lon: coordinates.start_lon.optional(),
    end_lat: coordinates.end_lat.optional(),
    end_lon: coordinates.end_lon.optional(),
  })
  .superRefine((query, ctx) => {
    const absent = COORDINATE_PARAMETERS.filter((name) => query[name] === undefined);
    if (absent.length === 0) return rejectSamePoint(query as Coordinates, ctx);
    if (query.segment_bearing_deg !== undefined) return;
    const first = absent.length < COORDINATE_PARAMETERS.length ? absent[0] : undefined;
    ctx.addIssue({
      code: 'custom',
      path: [first ?? 'segment_bearing_deg'],
      message: first
        ? `${first} is required when the direction of travel is given by coordinates.`
        : 'The direction of travel is missing: send segment_bearing_deg or four coordinates.',
      params: {
        problem: 'missing_parameter',
        hint: first ? `${rangeHint(first)} ${DIRECTION_HINT}` : DIRECTION_HINT,
      } satisfies RuleIssueParams,
    });
  });

export type TailwindQuery = z.output<typeof TailwindQuerySchema>;
export type BearingQuery = z.output<typeof BearingQuerySchema>;
