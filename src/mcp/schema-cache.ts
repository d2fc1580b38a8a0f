import type { StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import type { z } from 'zod';
import { toolJsonSchema, type SchemaAudience } from './json-schema.ts';
import type { PrebuiltLookup } from './prebuilt-schemas.ts';

type JsonSchemaOptions = Parameters<StandardSchemaWithJSON['~standard']['jsonSchema']['input']>[0];

/** One cache per audience: the public address lists its schemas without the Pro-only fields. */
const caches = {
  public: new WeakMap<z.ZodType, StandardSchemaWithJSON>(),
  pro: new WeakMap<z.ZodType, StandardSchemaWithJSON>(),
};

/**
 * Freezes a JSON value and everything in it, so one shared copy can be
 * handed out safely. Called once per conversion, when it is made and kept in
 * `byTarget` (the one thing that decides it is shared); JSON has no cycles.
 */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/**
 * The same zod schema with its JSON Schema conversions remembered. The
 * server is stateless, so the SDK builds a fresh server and converts every
 * tool schema on each request; the conversion was most of the time of a
 * `tools/list` and a tenth of a tool call (measured in `npm run bench`).
 * Validation still goes to zod. The conversion is the compact one the
 * tool list advertises ({@link toolJsonSchema}).
 *
 * The conversion is handed out as one deeply frozen object, not a fresh
 * copy: the SDK converts the input and output schema of the called tool on
 * every `tools/call` too (each request has a new server, so its own memo is
 * empty), and cloning them was the largest allocation of an MCP request,
 * about 40% of the bytes under load. That garbage is what grew the heap
 * (and the RSS, past 400 MB at 10 connections); the SDK only reads the
 * schema and spreads it into new objects where it adds a field.
 *
 * `prebuilt` hands out the conversion the function bundle wrote at build
 * time (`src/mcp/prebuilt-schemas.ts`), so a cold function does not run
 * zod's conversion for its first answer; it equals the runtime conversion
 * (`tests/unit/prebuilt-schemas.test.ts`).
 */
export function withCachedJsonSchema(
  schema: z.ZodType,
  audience: SchemaAudience,
  prebuilt?: PrebuiltLookup,
): StandardSchemaWithJSON {
  const cache = audience.pro ? caches.pro : caches.public;
  const known = cache.get(schema);
  if (known) return known;
  const standard = schema['~standard'] as unknown as StandardSchemaWithJSON['~standard'];
  const memo = (io: 'input' | 'output') => {
    const byTarget = new Map<string, Record<string, unknown>>();
    return (options: JsonSchemaOptions) => {
      const key = JSON.stringify(options);
      let json = byTarget.get(key);
      if (!json) {
        json = deepFreeze(
          prebuilt?.(io, options.target) ?? toolJsonSchema(schema, io, audience, options.target),
        );
        byTarget.set(key, json);
      }
      return json;
    };
  };
  const wrapped: StandardSchemaWithJSON = {
    '~standard': { ...standard, jsonSchema: { input: memo('input'), output: memo('output') } },
  };
  cache.set(schema, wrapped);
  return wrapped;
}

/**
 * The same schema, its JSON Schema conversions as they are, with a `validate`
 * that takes every value as it is: what the SDK gets for a tool's output
 * schema where answers are not validated again (`answer-check.ts`).
 */
export function withoutValidation(schema: StandardSchemaWithJSON): StandardSchemaWithJSON {
  return {
    '~standard': { ...schema['~standard'], validate: (value: unknown) => ({ value }) },
  } as StandardSchemaWithJSON;
}
