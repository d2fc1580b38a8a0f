import { readDecimal } from './decimal-reader.ts';
import type { PlanField, QueryPlan } from './query-rules.ts';

/**
 * Reads a plainly spelled query string (see `PLAIN_QUERY` in request-target.ts: no escapes, no
 * `+`) into the schema's output when it is valid, or answers `undefined` for anything else.
 */
export type CompiledQuery = (query: string) => Record<string, number | undefined> | undefined;

/**
 * A per-request reader compiled from a query schema's plan (`queryPlan`; for the REST function, the
 * plan generated at build time, `sync-queries.ts`): the schema's field names, bounds and cross-field
 * rule, read once, so a valid query costs one pass over its text instead of collecting every
 * parameter, building an object for zod and running zod over it.
 *
 * It only ever accepts: a query that is valid gets the values zod would give it; one with any
 * problem at all (a missing, repeated, non-decimal or out-of-range value, a broken rule) gets
 * `undefined`, and the caller validates it with the schema, so every problem, its `parameter` and
 * `hint` still come from the schema path alone. Values are read as `parseQuery` reads them: an
 * empty value is not sent, a name without `=` has an empty value, unknown names are ignored.
 * `tests/unit/compiled-query.test.ts` holds it equal to the schema path on generated queries.
 *
 * Hand-written rather than a schema compiler's output (Ajv, as Fastify uses): the schema is zod,
 * the grammar of a number is the API's own (`parseDecimal`, read in place by `readDecimal`), and the
 * reader is a dozen lines.
 */
export function compilePlan({ fields, rule }: QueryPlan): CompiledQuery {
  // Every field present, unset: each reading starts from a copy, so all of them share one shape.
  const empty: Record<string, number | undefined> = {};
  for (const field of fields) empty[field.name] = undefined;
  return (query) => {
    const output = { ...empty };
    let start = 0;
    while (start < query.length) {
      let end = query.indexOf('&', start);
      if (end < 0) end = query.length;
      const equals = query.indexOf('=', start);
      // A pair without `=`, or with an empty value, is not sent.
      if (equals >= 0 && equals + 1 < end) {
        const field = fieldOf(fields, query, start, equals);
        if (field !== undefined) {
          if (output[field.name] !== undefined) return undefined;
          const value = readDecimal(query, equals + 1, end);
          if (value === undefined || value < field.min || value > field.max) return undefined;
          output[field.name] = value;
        }
      }
      start = end + 1;
    }
    for (const field of fields) if (field.required && output[field.name] === undefined) return undefined;
    return rule(output) === undefined ? output : undefined;
  };
}

/**
 * The field named by `query` from `start` to `equals`, if any: compared in place, because cutting
 * the name out and looking it up in a map cost a string and its hash per pair, a quarter of the
 * reader's time, for the handful of names a query schema has.
 */
function fieldOf(
  fields: readonly PlanField[],
  query: string,
  start: number,
  equals: number,
): PlanField | undefined {
  const length = equals - start;
  for (const field of fields) {
    if (field.name.length === length && query.startsWith(field.name, start)) return field;
  }
  return undefined;
}
