/**
 * The parts of the Markdown docs that are generated from the code, each
 * between `<!-- generated:NAME -->` and `<!-- /generated:NAME -->`:
 * `npm run docs` rewrites them, `tests/unit/generated-docs.test.ts` fails
 * when one differs from what the code says now. Prose around them is never
 * read by a test.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { settingsTables } from '../../src/app/settings-table.ts';
import { pathTableMarkdown, vercelRewrites } from '../../src/app/vercel-rewrites.ts';
import { HANDLED_EVENT_TYPES } from '../../src/billing/stripe-webhook.ts';
import { parseCommand, runCommand } from '../cli.ts';

export interface GeneratedBlock {
  /** The Markdown file, relative to the repository root. */
  readonly file: string;
  readonly name: string;
  /** The block's Markdown before formatting. */
  readonly render: () => string;
}

export const GENERATED_BLOCKS: readonly GeneratedBlock[] = [
  { file: 'docs/operating.md', name: 'settings', render: settingsTables },
  { file: 'docs/operating.md', name: 'paths', render: pathTableMarkdown },
  {
    file: 'docs/operating.md',
    name: 'stripe-events',
    render: () => HANDLED_EVENT_TYPES.map((type) => `- \`${type}\``).join('\n'),
  },
];

const ROOT = new URL('../../', import.meta.url);

const marks = (name: string) => [`<!-- generated:${name} -->`, `<!-- /generated:${name} -->`] as const;

/** The block's text as Prettier formats it inside the file, so the page stays `prettier --check` clean. */
export async function renderBlock(block: GeneratedBlock): Promise<string> {
  const path = fileURLToPath(new URL(block.file, ROOT));
  const options = (await resolveConfig(path)) ?? {};
  return (await format(block.render(), { ...options, filepath: path })).trim();
}

/** The text currently between a block's marks in its file. */
export function blockIn(text: string, name: string): string | undefined {
  const [open, close] = marks(name);
  const start = text.indexOf(open);
  const end = text.indexOf(close);
  if (start < 0 || end < start) return undefined;
  return text.slice(start + open.length, end).trim();
}

/**
 * `vercel.json` with its `rewrites` as the path table generates them
 * (`src/app/vercel-rewrites.ts`), everything else as committed, formatted
 * as Prettier keeps it.
 */
export async function vercelJsonText(): Promise<string> {
  const path = fileURLToPath(new URL('vercel.json', ROOT));
  const config = JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;
  const options = (await resolveConfig(path)) ?? {};
  const text = JSON.stringify({ ...config, rewrites: vercelRewrites() }, null, 2);
  return format(text, { ...options, filepath: path });
}

/** Rewrites every generated block in place; returns the files changed. */
export async function writeBlocks(): Promise<string[]> {
  const changed = new Set<string>();
  for (const block of GENERATED_BLOCKS) {
    const url = new URL(block.file, ROOT);
    const text = await readFile(url, 'utf8');
    const current = blockIn(text, block.name);
    if (current === undefined)
      throw new Error(`${block.file} has no <!-- generated:${block.name} --> block.`);
    const rendered = await renderBlock(block);
    if (current === rendered) continue;
    const [open, close] = marks(block.name);
    const start = text.indexOf(open) + open.length;
    await writeFile(url, `${text.slice(0, start)}\n\n${rendered}\n\n${text.slice(text.indexOf(close))}`);
    changed.add(block.file);
  }
  const vercelJson = await vercelJsonText();
  const vercelUrl = new URL('vercel.json', ROOT);
  if ((await readFile(vercelUrl, 'utf8')) !== vercelJson) {
    await writeFile(vercelUrl, vercelJson);
    changed.add('vercel.json');
  }
  return [...changed];
}

const USAGE = `Usage: npm run docs

Rewrites the generated parts of the docs (the configuration tables, the path table and the Stripe
events in docs/operating.md) and the rewrites of vercel.json from the code;
tests/unit/generated-docs.test.ts fails until they agree.`;

if (import.meta.main) {
  await runCommand('npm run docs', async () => {
    parseCommand({ name: 'npm run docs', usage: USAGE, options: {} }, process.argv.slice(2));
    const changed = await writeBlocks();
    console.log(
      changed.length === 0 ? 'docs: generated blocks up to date' : `docs: rewrote ${changed.join(', ')}`,
    );
  });
}
