import type { StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import type { z } from 'zod';

type JsonSchemaOptions = Parameters<StandardSchemaWithJSON['~standard']['jsonSchema']['input']>[0];

const cache = new WeakMap<z.ZodType, StandardSchemaWithJSON>();

/**
 * The same zod schema with its JSON Schema conversions remembered. The
 * server is stateless, so the SDK builds a fresh server and converts every
 * tool schema on each request; the conversion was most of the time of a
 * `tools/list` and a tenth of a tool call (measured in `npm run bench`).
 * Validation still goes to zod.
 */
export function withCachedJsonSchema(schema: z.ZodType): StandardSchemaWithJSON {
  const known = cache.get(schema);
  if (known) return known;
  const standard = schema['~standard'] as unknown as StandardSchemaWithJSON['~standard'];
  const memo = (io: 'input' | 'output') => {
    const byTarget = new Map<string, Record<string, unknown>>();
    return (options: JsonSchemaOptions) => {
      const key = JSON.stringify(options);
      let json = byTarget.get(key);
      if (!json) {
        json = standard.jsonSchema[io](options);
        byTarget.set(key, json);
      }
      return structuredClone(json);
    };
  };
  const wrapped: StandardSchemaWithJSON = {
    '~standard': { ...standard, jsonSchema: { input: memo('input'), output: memo('output') } },
  };
  cache.set(schema, wrapped);
  return wrapped;
}
