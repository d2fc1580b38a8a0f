import { toolJsonSchema, type SchemaAudience } from '../../src/mcp/json-schema.ts';
import { PREBUILT_TARGET, prebuiltSchemaKey } from '../../src/mcp/prebuilt-schemas.ts';
import type { ToolDefinition } from '../../src/mcp/tool.ts';
import { PUBLIC_TOOLS } from '../../src/mcp/tools/public.ts';
import { RIDER_ADDRESS_TOOLS } from '../../src/mcp/tools/rider/index.ts';

/** Each address's audience and the one tool list it serves (`src/app/public-mcp.ts`, `src/app/mcp-service.ts`). */
const ADDRESSES: readonly (readonly [SchemaAudience, readonly ToolDefinition[]])[] = [
  [{ pro: false }, PUBLIC_TOOLS],
  [{ pro: true }, RIDER_ADDRESS_TOOLS],
];

/**
 * Every tool schema's conversion of one address as the SDK asks for it (a
 * tool's input schema as input, its output schema as output, in the MCP
 * default draft), keyed as `src/mcp/prebuilt-schemas.ts` looks them up.
 */
function addressTable(
  audience: SchemaAudience,
  tools: readonly ToolDefinition[],
): Record<string, Record<string, unknown>> {
  const table: Record<string, Record<string, unknown>> = {};
  for (const tool of tools) {
    for (const io of ['input', 'output'] as const) {
      const schema = io === 'input' ? tool.inputSchema : tool.outputSchema;
      table[prebuiltSchemaKey(tool.name, io, audience)] = toolJsonSchema(
        schema,
        io,
        audience,
        PREBUILT_TARGET,
      );
    }
  }
  return table;
}

/** Both addresses' conversions in one table (their keys name the address). */
export function prebuiltSchemaTable(): Record<string, Record<string, unknown>> {
  return Object.assign({}, ...ADDRESSES.map(([audience, tools]) => addressTable(audience, tools))) as Record<
    string,
    Record<string, unknown>
  >;
}

/** The file beside the bundles that holds one address's table, as JSON. */
export function prebuiltSchemaFile(audience: SchemaAudience): string {
  return `tool-schemas-${audience.pro ? 'pro' : 'public'}.json`;
}

/** Each address's table file and its text, for `bundleFunctions` to write beside the bundles. */
export function prebuiltSchemaFiles(): Record<string, string> {
  return Object.fromEntries(
    ADDRESSES.map(([audience, tools]) => [
      prebuiltSchemaFile(audience),
      JSON.stringify(addressTable(audience, tools)),
    ]),
  );
}

/**
 * The module the bundles load in place of `src/mcp/prebuilt-schema-table.ts`.
 * Each address's table is read from its file beside the bundles and parsed
 * the first time that address asks: the public function's first call reads
 * the public address's only, a third of the whole, and V8 neither scans the
 * tables as source nor reads a JavaScript literal of them (`JSON.parse` is
 * faster). The `new URL(…, import.meta.url)` names the files for Vercel's
 * file tracing, as the other data files are.
 */
export function prebuiltSchemaTableModule(): string {
  const url = (audience: SchemaAudience) =>
    `new URL(${JSON.stringify(`./${prebuiltSchemaFile(audience)}`)}, import.meta.url)`;
  return [
    '/** Generated at build time by scripts/vercel/prebuilt-schemas.ts from the tool schemas. */',
    "import { readFileSync } from 'node:fs';",
    'const tables = {};',
    'export function prebuiltSchemaTable(audience) {',
    '  return audience.pro',
    `    ? (tables.pro ??= JSON.parse(readFileSync(${url({ pro: true })}, 'utf8')))`,
    `    : (tables.public ??= JSON.parse(readFileSync(${url({ pro: false })}, 'utf8')));`,
    '}',
    '',
  ].join('\n');
}
