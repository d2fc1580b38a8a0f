import type * as z from 'zod';
import { parseDecimal } from '../core/parameters.ts';
import { queryPlan } from './schemas/query-schemas.ts';

/**
 * Reads a plainly spelled query string (see `PLAIN_QUERY` in request-target.ts: no escapes, no
 * `+`) into the schema's output when it is valid, or answers `undefined` for anything else.
 */
export type CompiledQuery = (query: string) => Record<string, number | undefined> | undefined;

/**
 * A per-request reader compiled from a query schema's plan (`queryPlan`): the schema's field
 * names, bounds and cross-field rule, read once, so a valid query costs one pass over its text
 * instead of collecting every parameter, building an object for zod and running zod over it.
 *
 * It only ever accepts: a query that is valid gets the values zod would give it; one with any
 * problem at all (a missing, repeated, non-decimal or out-of-range value, a broken rule) gets
 * `undefined`, and the caller validates it with the schema, so every problem, its `parameter` and
 * `hint` still come from the schema path alone. Values are read as `parseQuery` reads them: an
 * empty value is not sent, a name without `=` has an empty value, unknown names are ignored.
 * `tests/unit/compiled-query.test.ts` holds it equal to the schema path on generated queries.
 *
 * Hand-written rather than a schema compiler's output (Ajv, as Fastify uses): the schema is zod,
 * the grammar of a number is the API's own (`parseDecimal`), and the reader is a dozen lines.
 */
export function compileQuery(schema: z.ZodObject): CompiledQuery | undefined {
  const plan = queryPlan(schema);
  if (plan === undefined) return undefined;
  const { fields, rule } = plan;
  const slots = new Map(fields.map((field, index) => [field.name, index]));
  const count = fields.length;
  return (query) => {
    const values: (number | undefined)[] = new Array<number | undefined>(count).fill(undefined);
    let start = 0;
    while (start < query.length) {
      let end = query.indexOf('&', start);
      if (end < 0) end = query.length;
      const equals = query.indexOf('=', start);
      // A pair without `=`, or with an empty value, is not sent.
      if (equals >= 0 && equals + 1 < end) {
        const slot = slots.get(query.slice(start, equals));
        if (slot !== undefined) {
          if (values[slot] !== undefined) return undefined;
          const value = parseDecimal(query.slice(equals + 1, end));
          const field = fields[slot];
          if (value === undefined || field === undefined || value < field.min || value > field.max) {
            return undefined;
          }
          values[slot] = value;
        }
      }
      start = end + 1;
    }
    const output: Record<string, number | undefined> = {};
    for (let index = 0; index < count; index += 1) {
      const field = fields[index];
      if (field === undefined) return undefined;
      const value = values[index];
      if (value === undefined && field.required) return undefined;
      output[field.name] = value;
    }
    return rule(output) === undefined ? output : undefined;
  };
}
