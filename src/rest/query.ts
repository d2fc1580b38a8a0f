import type * as z from 'zod';
import { closestName } from '../core/closest-name.ts';
import { PARAMETERS, parseDecimal, rangeHint, type ParameterName } from '../core/parameters.ts';
import { ApiError } from '../core/problems.ts';
import type { QueryParams } from './request-target.ts';
import type { RuleIssueParams } from './query-rules.ts';

type QueryValue = number | string | string[] | undefined;

/**
 * Reads a query parameter for the schema: an absent or empty value is "not
 * sent" (so HTML forms that submit blank fields behave), a strict decimal is a
 * number, anything else stays text or a list, which the number schema rejects.
 */
function readValue(params: Pick<URLSearchParams, 'getAll'>, name: string, text: boolean): QueryValue {
  const values = params.getAll(name).filter((value) => value !== '');
  if (values.length > 1) return values;
  const [only] = values;
  return only === undefined || text ? only : (parseDecimal(only) ?? only);
}

/** The fields of a schema that hold text (a place name), read as sent rather than as a number. */
const TEXT_FIELDS = new WeakMap<z.ZodObject, ReadonlySet<string>>();

function textFields(schema: z.ZodObject): ReadonlySet<string> {
  let fields = TEXT_FIELDS.get(schema);
  if (fields === undefined) {
    const names = Object.entries(schema.shape as Record<string, z.ZodType>).filter(([, field]) => {
      const inner =
        'unwrap' in field && typeof field.unwrap === 'function' ? (field.unwrap() as z.ZodType) : field;
      return inner.def.type === 'string';
    });
    fields = new Set(names.map(([name]) => name));
    TEXT_FIELDS.set(schema, fields);
  }
  return fields;
}

function isParameterName(name: string): name is ParameterName {
  return Object.hasOwn(PARAMETERS, name);
}

/** The wording of a field that `PARAMETERS` does not hold: its schema's description. */
function fieldHint(schema: z.ZodObject, name: string): string {
  const field = (schema.shape as Record<string, z.ZodType | undefined>)[name];
  const description = field?.meta()?.description;
  return typeof description === 'string' ? `${name}: ${description}` : `Send ${name}.`;
}

/** A problem of a field `PARAMETERS` does not hold, from its schema's own message. */
function fieldError(schema: z.ZodObject, issue: z.core.$ZodIssue, name: string, value: QueryValue): ApiError {
  const hint = fieldHint(schema, name);
  if (value === undefined) {
    return new ApiError('missing_parameter', {
      detail: `The query parameter ${name} is required.`,
      hint,
      parameter: name,
    });
  }
  const detail = Array.isArray(value)
    ? `${name} was sent ${value.length} times; send it once.`
    : typeof value === 'string' && issue.code === 'invalid_type'
      ? `${name} must be a plain decimal number, but got ${quote(value)}.`
      : `${issue.message}, but got ${typeof value === 'string' ? quote(value) : value}.`;
  return new ApiError('invalid_parameter', { detail, hint, parameter: name });
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
  schema: z.ZodObject,
): ApiError {
  const field = String(issue.path[0]);
  if (issue.code === 'custom') {
    const { code, hint } = issue.params as RuleIssueParams;
    return new ApiError(code, { detail: issue.message, hint, parameter: field });
  }
  if (!isParameterName(field)) return fieldError(schema, issue, field, raw[field]);
  const name = field;
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
  const text = textFields(schema);
  for (const name of Object.keys(schema.shape)) raw[name] = readValue(params, name, text.has(name));
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  const [issue] = result.error.issues;
  if (!issue) throw new Error('zod reported a failure without an issue');
  throw toApiError(issue, raw, params.keys(), schema);
}
