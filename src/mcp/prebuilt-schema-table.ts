/**
 * The tool schemas' JSON Schema conversions, written at bundle time.
 *
 * Empty here: run from source, every conversion is made on first use. The
 * function bundles (`scripts/vercel/bundle-functions.ts`) swap this module
 * for one that holds each tool's converted input and output schema for both
 * addresses, so a cold function's first `tools/call` or `tools/list` serves
 * them without running zod's conversion (`src/mcp/prebuilt-schemas.ts`).
 */
export const PREBUILT_SCHEMA_TABLE: Readonly<Record<string, Record<string, unknown>>> = {};
