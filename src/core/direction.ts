import { initialBearing, isSamePoint, type LatLon } from './bearing.ts';
import { COORDINATE_PARAMETERS, rangeHint } from './parameters.ts';
import type { ProblemCode } from './problems.ts';

/** The direction-of-travel fields of a tailwind query, already read as numbers. */
export interface DirectionFields {
  readonly segment_bearing_deg?: number | undefined;
  readonly start_lat?: number | undefined;
  readonly start_lon?: number | undefined;
  readonly end_lat?: number | undefined;
  readonly end_lon?: number | undefined;
}

/** A broken rule, phrased as the API's problem members. */
export interface RuleProblem {
  readonly code: ProblemCode;
  readonly parameter: string;
  readonly detail: string;
  readonly hint: string;
}

export interface ResolvedDirection {
  readonly bearingDeg: number;
  readonly source: 'bearing' | 'coordinates';
}

export const SAME_POINT_HINT =
  'Start and end must be different points: a bearing needs a direction. ' +
  'Check that end_lat and end_lon are not a copy of start_lat and start_lon.';

export const DIRECTION_HINT =
  'Give the direction of travel either as segment_bearing_deg (a number from 0 to 360, ' +
  'for example segment_bearing_deg=80) or as all four of start_lat, start_lon, end_lat and end_lon.';

/** The problem for two coordinates that name one place, or undefined when they differ. */
export function samePointProblem(start: LatLon, end: LatLon): RuleProblem | undefined {
  if (!isSamePoint(start, end)) return undefined;
  return {
    code: 'invalid_parameter',
    parameter: 'end_lat',
    detail: 'Start and end are the same point, so there is no direction between them.',
    hint: SAME_POINT_HINT,
  };
}

/**
 * The spec's direction rule, in one place for the API and the calculator:
 * four coordinates win and give the bearing; otherwise the bearing is used;
 * with neither, a partial set is reported by its first missing coordinate
 * and nothing at all as a missing `segment_bearing_deg`.
 */
export function resolveDirection(fields: DirectionFields): ResolvedDirection | RuleProblem {
  const { start_lat, start_lon, end_lat, end_lon, segment_bearing_deg } = fields;
  if (start_lat !== undefined && start_lon !== undefined && end_lat !== undefined && end_lon !== undefined) {
    const start = { lat: start_lat, lon: start_lon };
    const end = { lat: end_lat, lon: end_lon };
    return samePointProblem(start, end) ?? { bearingDeg: initialBearing(start, end), source: 'coordinates' };
  }
  if (segment_bearing_deg !== undefined) return { bearingDeg: segment_bearing_deg, source: 'bearing' };
  const absent = COORDINATE_PARAMETERS.filter((name) => fields[name] === undefined);
  const first = absent.length < COORDINATE_PARAMETERS.length ? absent[0] : undefined;
  if (first) {
    return {
      code: 'missing_parameter',
      parameter: first,
      detail: `${first} is required when the direction of travel is given by coordinates.`,
      hint: `${rangeHint(first)} ${DIRECTION_HINT}`,
    };
  }
  return {
    code: 'missing_parameter',
    parameter: 'segment_bearing_deg',
    detail: 'The direction of travel is missing: send segment_bearing_deg or four coordinates.',
    hint: DIRECTION_HINT,
  };
}

/** Names in prose: `a`, `a and b`, `a, b and c`. */
function listed(names: readonly string[]): string {
  return names.length < 2 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1) ?? ''}`;
}

/**
 * Which direction fields of a valid query were sent but not used, and why, as the `hint` of its
 * answer; undefined when every one sent was used. The spec leaves open which of the bearing and
 * the coordinates wins, so the answer says which did: four coordinates win over a bearing, and
 * fewer than four beside a bearing are not used.
 */
export function ignoredDirectionHint(fields: DirectionFields): string | undefined {
  if (fields.segment_bearing_deg === undefined) return undefined;
  const sent = COORDINATE_PARAMETERS.filter((name) => fields[name] !== undefined);
  if (sent.length === COORDINATE_PARAMETERS.length) {
    return (
      'segment_bearing_deg was ignored: all four of start_lat, start_lon, end_lat and end_lon were sent, ' +
      'and four coordinates give the direction of travel. Send either the bearing or the four coordinates.'
    );
  }
  if (sent.length === 0) return undefined;
  const verb = sent.length === 1 ? 'was' : 'were';
  return (
    `${listed(sent)} ${verb} ignored: coordinates give the direction of travel only when all four of ` +
    'start_lat, start_lon, end_lat and end_lon are sent, so segment_bearing_deg was used.'
  );
}

/** Narrows a rule outcome to its problem. */
export function isRuleProblem(value: object): value is RuleProblem {
  return 'code' in value;
}
