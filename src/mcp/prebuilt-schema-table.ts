import type { SchemaAudience } from './json-schema.ts';

/**
 * The tool schemas' JSON Schema conversions of one address, written at build time.
 *
 * Empty here: run from source, every conversion is made on first use. The
 * function bundles (`scripts/vercel/bundle-functions.ts`) swap this module
 * for one that holds each tool's converted input and output schema for both
 * addresses, each address's table parsed the first time it is asked for, so
 * a cold function's first `tools/call` or `tools/list` serves them without
 * running zod's conversion (`src/mcp/prebuilt-schemas.ts`) and a public call
 * does not parse the rider address's schemas.
 */
export const prebuiltSchemaTable: (
  audience: SchemaAudience,
) => Readonly<Record<string, Record<string, unknown>>> = () => ({});
