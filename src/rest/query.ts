import type * as z from 'zod';
import { closestName } from '../core/closest-name.ts';
import { PARAMETERS, parseDecimal, rangeHint, type ParameterName } from '../core/parameters.ts';
import { ApiError } from '../core/problems.ts';
import type { QueryParams } from './request-target.ts';
import type { RuleIssueParams } from './schemas/query-schemas.ts';

type QueryValue = number | string | string[] | undefined;

/**
 * Reads a query parameter for the schema: an absent or empty value is "not
 * sent" (so HTML forms that submit blank fields behave), a strict decimal is a
 * number, anything else stays text or a list, which the number schema rejects.
 */
function readValue(params: Pick<URLSearchParams, 'getAll'>, name: string): QueryValue {
  const values = params.getAll(name).filter((value) => value !== '');
  if (values.length > 1) return values;
  const [only] = values;
  return only === undefined ? undefined : (parseDecimal(only) ?? only);
}

function quote(text: string): string {
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
}

function describeInvalid(name: ParameterName, value: QueryValue): string {
  if (Array.isArray(value)) return `${name} was sent ${value.length} times; send it once.`;
  if (typeof value === 'string') return `${name} must be a plain decimal number, but got ${quote(value)}.`;
  const { min, max } = PARAMETERS[name];
  return `${name} must be from ${min} to ${max}, but got ${value}.`;
}

/**
 * A sent name the schema does not know that is close to the missing one
 * (`wind_speed` for `wind_speed_kmh`): what the caller probably meant.
 */
function misnamed(missing: string, sent: Iterable<string>, known: readonly string[]): string | undefined {
  for (const name of sent) if (!known.includes(name) && closestName(name, [missing]) === missing) return name;
  return undefined;
}

function toApiError(
  issue: z.core.$ZodIssue,
  raw: Record<string, QueryValue>,
  sent: Iterable<string>,
): ApiError {
  const name = String(issue.path[0]) as ParameterName;
  if (issue.code === 'custom') {
    const { code, hint } = issue.params as RuleIssueParams;
    return new ApiError(code, { detail: issue.message, hint, parameter: name });
  }
  const value = raw[name];
  if (value === undefined) {
    const meant = misnamed(name, sent, Object.keys(raw));
    return new ApiError('missing_parameter', {
      detail: `The query parameter ${name} is required.`,
      hint: (meant === undefined ? '' : `You sent ${meant}: did you mean ${name}? `) + rangeHint(name),
      parameter: name,
    });
  }
  return new ApiError('invalid_parameter', {
    detail: describeInvalid(name, value),
    hint: rangeHint(name),
    parameter: name,
  });
}

/**
 * Validates the query against a zod object schema whose keys are parameter
 * names, and throws the first problem in the schema's field order. Unknown
 * parameters are ignored, except that a required one's problem names an
 * unknown one close to it in its hint (codes and statuses stay the spec's).
 */
export function parseQuery<S extends z.ZodObject>(schema: S, params: QueryParams): z.output<S> {
  const raw: Record<string, QueryValue> = {};
  for (const name of Object.keys(schema.shape)) raw[name] = readValue(params, name);
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  const [issue] = result.error.issues;
  if (!issue) throw new Error('zod reported a failure without an issue');
  throw toApiError(issue, raw, params.keys());
}
