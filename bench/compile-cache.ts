/**
 * Does V8's compile cache (`NODE_COMPILE_CACHE`, `module.enableCompileCache`)
 * shorten a cold start of the MCP function? Fresh processes import the
 * bundled function (`api/_bundle/mcp.js`, from `node
 * scripts/vercel/bundle-functions.ts`) and answer the cold-start bench's
 * `find_tailwind_segments` call by coordinates, three ways, interleaved:
 * no cache; a cache filled by an earlier process (what shipping a cache
 * built at build time would give, if the runtime's V8 matched the build's);
 * an empty cache directory (a fresh serverless instance with a writable
 * /tmp: it pays for writing the cache and gains nothing). Prints the median
 * and range of the import and of the answer, milliseconds from process
 * start. `node bench/compile-cache.ts [runs]`.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUNDLE_DIR } from '../scripts/vercel/bundle-functions.ts';
import { COLD_START_CASES, median } from './cold-start.ts';
import { table } from './table.ts';

const ENTRY = join(BUNDLE_DIR, 'mcp.js');
const runs = Number(process.argv[2] ?? 7);
const test = COLD_START_CASES.find((c) => c.fn === 'api/mcp' && c.label.includes('coordinates'));
if (!test) throw new Error('no find_tailwind_segments case in the cold-start bench');

const DRIVER = `
const [entry, url, init] = process.argv.slice(1);
const module = await import(entry);
const imported = performance.now();
const response = await module.default.fetch(new Request(url, JSON.parse(init)));
await response.text();
process.stdout.write(JSON.stringify({ imported, answered: performance.now(), status: response.status }));
`;

async function coldRun(cacheDir: string | null): Promise<{ imported: number; answered: number }> {
  const child = spawn(
    process.execPath,
    ['--input-type=module', '-e', DRIVER, ENTRY, test?.url ?? '', JSON.stringify(test?.init)],
    {
      env: {
        PATH: process.env['PATH'] ?? '',
        VERCEL: '1',
        VERCEL_URL: new URL(test?.url ?? '').host,
        WOS_FORECAST: 'demo',
        ...(cacheDir ? { NODE_COMPILE_CACHE: cacheDir } : {}),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  await once(child, 'close');
  const result = JSON.parse(out.slice(out.lastIndexOf('{'))) as {
    imported: number;
    answered: number;
    status: number;
  };
  if (result.status !== 200) throw new Error(`the MCP function answered ${result.status}`);
  return result;
}

const warm = mkdtempSync(join(tmpdir(), 'wos-compile-cache-'));
try {
  await coldRun(warm);
  const rows = { 'no cache': [], 'cache filled earlier': [], 'empty cache': [] } as Record<
    string,
    { imported: number; answered: number }[]
  >;
  for (let i = 0; i < runs; i++) {
    rows['no cache']?.push(await coldRun(null));
    rows['cache filled earlier']?.push(await coldRun(warm));
    const empty = mkdtempSync(join(tmpdir(), 'wos-compile-cache-'));
    rows['empty cache']?.push(await coldRun(empty));
    rmSync(empty, { recursive: true, force: true });
  }
  const range = (values: number[]) =>
    `${median(values).toFixed(0)} (${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)})`;
  console.log(
    `MCP function cold start, ${runs} interleaved runs each, ms from process start: median (range)`,
  );
  console.log(
    table(
      ['', 'imported', 'answered'],
      Object.entries(rows).map(([label, figures]) => [
        label,
        range(figures.map((f) => f.imported)),
        range(figures.map((f) => f.answered)),
      ]),
      [1, 2],
    ),
  );
} finally {
  rmSync(warm, { recursive: true, force: true });
}
