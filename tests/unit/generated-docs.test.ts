/**
 * The generated parts of the Markdown docs (scripts/docs/generated-blocks.ts) say what the code
 * says now: the configuration tables are the settings schema, the Stripe setup lists exactly the
 * webhook events the handler acts on. `npm run docs` rewrites them after a change.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SETTINGS } from '../../src/app/settings.ts';
import { settingRows } from '../../src/app/settings-table.ts';
import { HANDLED_EVENT_TYPES } from '../../src/billing/stripe-webhook.ts';
import { blockIn, GENERATED_BLOCKS, renderBlock } from '../../scripts/docs/generated-blocks.ts';

const read = (file: string) => readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');

describe('the generated docs', () => {
  for (const block of GENERATED_BLOCKS) {
    it(`${block.file} holds the current ${block.name} block (else run \`npm run docs\`)`, async () => {
      expect(blockIn(read(block.file), block.name)).toBe(await renderBlock(block));
    });
  }

  it('list every setting once in the configuration tables, with its default and meaning', () => {
    const block = blockIn(read('docs/operating.md'), 'settings') ?? '';
    const rows = block
      .split('\n')
      .filter((line) => line.startsWith('| `'))
      .map((line) =>
        line
          .slice(1, -1)
          .split(' | ')
          .map((cell) => cell.trim()),
      );
    expect(rows.map((row) => row[0]).sort()).toEqual(
      Object.keys(SETTINGS)
        .map((name) => `\`${name}\``)
        .sort(),
    );
    for (const row of settingRows()) expect(rows).toContainEqual([...row]);
  });

  it('list every Stripe webhook event the handler acts on, and no other', () => {
    const block = blockIn(read('docs/operating.md'), 'stripe-events') ?? '';
    const listed = [...block.matchAll(/`([a-z_]+(?:\.[a-z_]+)+)`/g)].map((match) => match[1]);
    expect(new Set(listed)).toEqual(new Set(HANDLED_EVENT_TYPES));
    expect(listed).toHaveLength(HANDLED_EVENT_TYPES.length);
  });
});
