import { compassPoint, type CompassPoint } from '../../core/compass.ts';
import { isRuleProblem, resolveDirection } from '../../core/direction.ts';
import { PARAMETERS, rangeHint, readField, type ParameterName } from '../../core/parameters.ts';
import { fieldMessage, ruleMessage } from './form-words.ts';
import type { ProblemCode } from '../../core/problems.ts';
import { windComponents, type WindEffect } from '../../core/wind.ts';

/** The calculator's fields as typed, by API parameter name. */
export type Fields = Partial<Record<ParameterName, string>>;

export const FIELD_NAMES = Object.keys(PARAMETERS) as ParameterName[];

const REQUIRED: readonly ParameterName[] = ['wind_speed_kmh', 'wind_direction_deg'];

export interface Result {
  readonly kind: 'result';
  readonly query: string;
  readonly signedKmh: number;
  readonly crosswindKmh: number;
  readonly effect: WindEffect;
  readonly bearingDeg: number;
  readonly bearingSource: 'bearing' | 'coordinates';
  readonly compass: CompassPoint;
  readonly speedKmh: number;
  readonly directionDeg: number;
}

export interface Problem {
  readonly kind: 'problem';
  readonly query: string;
  /** The problem the API would answer: the first in the parameter table's order. */
  readonly code: ProblemCode;
  readonly parameter: ParameterName;
  /** The API's hint, word for word (parameter names and query syntax): for callers of the API. */
  readonly hint: string;
  /** The same problem in the form's words, for the rider (`form-words.ts`). */
  readonly message: string;
  /** Every field whose own value is wrong, with its message in the form's words, to mark them all at once. */
  readonly invalid: ReadonlyMap<ParameterName, string>;
}

/** The query string the API would get for these fields (blank fields left out). */
export function toQuery(fields: Fields): string {
  const query = new URLSearchParams();
  for (const name of FIELD_NAMES) {
    const text = fields[name]?.trim() ?? '';
    if (text !== '') query.set(name, text);
  }
  return query.toString();
}

/**
 * What `/v1/tailwind` would answer for these fields, computed in the browser
 * with the API's own core: the same numbers, or the same first problem with
 * the same hint. Leading and trailing spaces are trimmed, as a form should.
 */
export function calculate(fields: Fields): Result | Problem {
  const query = toQuery(fields);
  const values: Partial<Record<ParameterName, number>> = {};
  const invalid = new Map<ParameterName, string>();
  let first: { code: ProblemCode; parameter: ParameterName; hint: string; message: string } | undefined;
  for (const name of FIELD_NAMES) {
    const reading = readField(name, fields[name]?.trim() ?? '');
    if (reading && 'value' in reading) values[name] = reading.value;
    else if (reading) invalid.set(name, fieldMessage(name));
    if (first) continue;
    if (reading && 'problem' in reading)
      first = { code: reading.problem, parameter: name, hint: reading.hint, message: fieldMessage(name) };
    else if (!reading && REQUIRED.includes(name)) {
      first = {
        code: 'missing_parameter',
        parameter: name,
        hint: rangeHint(name),
        message: fieldMessage(name),
      };
    }
  }
  if (first) return { kind: 'problem', query, invalid, ...first };
  const direction = resolveDirection(values);
  if (isRuleProblem(direction)) {
    const parameter = direction.parameter as ParameterName;
    const message = ruleMessage(direction.code, parameter);
    if (direction.code === 'invalid_parameter') invalid.set(parameter, message);
    return {
      kind: 'problem',
      query,
      invalid,
      code: direction.code,
      parameter,
      hint: direction.hint,
      message,
    };
  }
  // Both are present: a missing one was reported as the first problem above.
  const speedKmh = values.wind_speed_kmh ?? 0;
  const directionDeg = values.wind_direction_deg ?? 0;
  const wind = windComponents({ speedKmh, directionDeg, bearingDeg: direction.bearingDeg });
  return {
    kind: 'result',
    query,
    ...wind,
    bearingDeg: direction.bearingDeg,
    bearingSource: direction.source,
    compass: compassPoint(direction.bearingDeg),
    speedKmh,
    directionDeg,
  };
}
