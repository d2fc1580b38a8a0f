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

/**
 * The module the bundles load in place of `src/mcp/prebuilt-schema-table.ts`.
 * Each address's table is one `JSON.parse` of a string, made the first time
 * that address asks (V8 reads JSON faster than the same object written as a
 * JavaScript literal); the public function's first call parses the public
 * address's only, a third of the text.
 */
export function prebuiltSchemaTableModule(): string {
  const texts = Object.fromEntries(
    ADDRESSES.map(([audience, tools]) => [
      audience.pro ? 'pro' : 'public',
      JSON.stringify(addressTable(audience, tools)),
    ]),
  );
  return [
    '/** Generated at build time by scripts/vercel/prebuilt-schemas.ts from the tool schemas. */',
    `const texts = ${JSON.stringify(texts)};`,
    'const tables = {};',
    'export function prebuiltSchemaTable(audience) {',
    "  const address = audience.pro ? 'pro' : 'public';",
    '  return (tables[address] ??= JSON.parse(texts[address]));',
    '}',
    '',
  ].join('\n');
}
