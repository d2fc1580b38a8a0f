import { describe, expect, it } from 'vitest';
import { toolJsonSchema } from '../../src/mcp/json-schema.ts';
import { prebuiltSchema, prebuiltSchemaKey } from '../../src/mcp/prebuilt-schemas.ts';
import { withCachedJsonSchema } from '../../src/mcp/schema-cache.ts';
import { PUBLIC_TOOLS } from '../../src/mcp/tools/public.ts';
import { RIDER_ADDRESS_TOOLS } from '../../src/mcp/tools/rider/index.ts';
import { prebuiltSchemaTable, prebuiltSchemaTableModule } from '../../scripts/vercel/prebuilt-schemas.ts';

const table = prebuiltSchemaTable();
const [find, getSegment] = PUBLIC_TOOLS;
if (!find || !getSegment) throw new Error('The public tool list changed; pick two tools here.');
const ADDRESSES = [
  [{ pro: false }, PUBLIC_TOOLS],
  [{ pro: true }, RIDER_ADDRESS_TOOLS],
] as const;

describe('tool schemas converted at bundle time', () => {
  it('hold, for every tool of each address, what the runtime conversion gives', () => {
    let entries = 0;
    for (const [audience, tools] of ADDRESSES) {
      for (const tool of tools) {
        expect(table[prebuiltSchemaKey(tool.name, 'input', audience)]).toEqual(
          toolJsonSchema(tool.inputSchema, 'input', audience),
        );
        expect(table[prebuiltSchemaKey(tool.name, 'output', audience)]).toEqual(
          toolJsonSchema(tool.outputSchema, 'output', audience),
        );
        entries += 2;
      }
    }
    expect(Object.keys(table)).toHaveLength(entries);
  });

  it('keep the public address without the Pro-only fields', () => {
    const tool = find;
    expect(JSON.stringify(table[prebuiltSchemaKey(tool.name, 'output', { pro: false })])).not.toContain(
      'proOnly',
    );
  });

  it('survive the generated module as the same JSON', async () => {
    const source = prebuiltSchemaTableModule();
    const url = `data:text/javascript;base64,${Buffer.from(source).toString('base64')}`;
    const module = (await import(url)) as {
      prebuiltSchemaTable: (audience: { pro: boolean }) => Record<string, unknown>;
    };
    const publicTable = module.prebuiltSchemaTable({ pro: false });
    const proTable = module.prebuiltSchemaTable({ pro: true });
    expect({ ...publicTable, ...proTable }).toEqual(table);
    // Each address's table holds its own tools only.
    expect(Object.keys(publicTable).every((key) => key.startsWith('public/'))).toBe(true);
    expect(Object.keys(proTable).every((key) => key.startsWith('pro/'))).toBe(true);
  });

  it('are served for the direction and draft the SDK asks for only', () => {
    const tool = find;
    const lookup = prebuiltSchema(tool.name, 'output', { pro: false }, table);
    expect(lookup('output', 'draft-2020-12')).toBe(
      table[prebuiltSchemaKey(tool.name, 'output', { pro: false })],
    );
    expect(lookup('output', undefined)).toBeDefined();
    expect(lookup('input', 'draft-2020-12')).toBeUndefined();
    expect(lookup('output', 'draft-07')).toBeUndefined();
  });

  it('stand in for the conversion in the schema cache, which then runs no conversion', () => {
    const tool = getSegment;
    const marker = { prebuilt: true };
    // A fresh schema object, so the cache has not seen it; the lookup's answer is what the SDK gets.
    const schema = tool.outputSchema.describe(tool.outputSchema.description ?? 'copy');
    const cached = withCachedJsonSchema(schema, { pro: false }, () => marker);
    expect(cached['~standard'].jsonSchema.output({ target: 'draft-2020-12' })).toBe(marker);
    const other = schema.describe('another copy');
    const plain = withCachedJsonSchema(other, { pro: false });
    expect(plain['~standard'].jsonSchema.output({ target: 'draft-2020-12' })).toEqual(
      toolJsonSchema(other, 'output', { pro: false }),
    );
  });
});
