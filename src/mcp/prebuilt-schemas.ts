import type { SchemaAudience } from './json-schema.ts';
import { prebuiltSchemaTable } from './prebuilt-schema-table.ts';

/** The only draft the tables hold: the one the SDK asks for (the MCP default). */
export const PREBUILT_TARGET = 'draft-2020-12';

/** A tool schema's conversion in one direction and draft, if the bundle carries it. */
export type PrebuiltLookup = (
  io: 'input' | 'output',
  target: string | undefined,
) => Record<string, unknown> | undefined;

/**
 * Where a tool schema's conversion sits in the table. Each address has one
 * tool list (the public one, the rider one), so the audience and the tool's
 * name say which schema it is.
 */
export function prebuiltSchemaKey(tool: string, io: 'input' | 'output', audience: SchemaAudience): string {
  return `${audience.pro ? 'pro' : 'public'}/${tool}/${io}`;
}

/**
 * The conversion of a tool schema written at bundle time, for
 * `withCachedJsonSchema`: the SDK converts a tool's input schema as input
 * and its output schema as output, so the table holds those directions only
 * (`io` names both the schema and the direction). Converting the called
 * tool's schemas is part of a cold function's first `tools/call`, and every
 * tool's of the first `tools/list` (figures in `bench/results.md`); from
 * source the table is empty and nothing changes.
 */
export function prebuiltSchema(
  tool: string,
  io: 'input' | 'output',
  audience: SchemaAudience,
  table: Readonly<Record<string, Record<string, unknown>>> = prebuiltSchemaTable(audience),
): PrebuiltLookup {
  const key = prebuiltSchemaKey(tool, io, audience);
  return (direction, target) =>
    direction === io && (target ?? PREBUILT_TARGET) === PREBUILT_TARGET ? table[key] : undefined;
}
