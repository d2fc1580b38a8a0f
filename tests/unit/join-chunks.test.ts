/**
 * The chunk joining step of the function bundles (`scripts/vercel/join-chunks.ts`), on generated
 * module graphs shaped like esbuild's output: an entry that imports some modules statically and
 * others with `import()`, each module importing others statically. The joined output must answer as
 * the original does, run every module once and after everything it imports, and hold each group in
 * one file; a group that lacks a file it imports must fail the build.
 */
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { joinChunks, startAndFirstRequest } from '../../scripts/vercel/join-chunks.ts';

/** Module `i` imports modules `deps[i]` (all above `i`, so the graph has no cycle). */
interface Graph {
  readonly deps: readonly (readonly number[])[];
  readonly eager: readonly number[];
  readonly deferred: readonly number[];
  readonly firstRequest: readonly number[];
}

const file = (i: number) => `m${i}.js`;

/** Writes the graph as ES modules: each logs its name when it runs and exports a value built from its imports. */
function writeGraph(dir: string, graph: Graph): string {
  graph.deps.forEach((deps, i) => {
    const imports = deps.map((j) => `import { value as v${j} } from './${file(j)}';`);
    const value = ['`m' + i + '`', ...deps.map((j) => `v${j}`)].join(' + "(" + ');
    writeFileSync(
      join(dir, file(i)),
      [...imports, `globalThis.joinLog.push(${i});`, `export const value = ${value};`].join('\n'),
    );
  });
  const entry = join(dir, 'entry.js');
  writeFileSync(
    entry,
    [
      ...graph.eager.map((i) => `import { value as v${i} } from './${file(i)}';`),
      `export const eager = [${graph.eager.map((i) => `v${i}`).join(', ')}];`,
      'export default async function run() {',
      '  const values = [];',
      ...graph.deferred.map((i) => `  values.push((await import('./${file(i)}')).value);`),
      '  return values;',
      '}',
    ].join('\n'),
  );
  return entry;
}

/** Imports a graph's entry and runs it: what it answers, and the order its modules ran in. */
async function runGraph(entry: string): Promise<{ answer: unknown; log: number[] }> {
  const log: number[] = [];
  Object.assign(globalThis, { joinLog: log });
  const module = (await import(pathToFileURL(entry).href)) as {
    eager: string[];
    default: () => Promise<string[]>;
  };
  return { answer: { eager: module.eager, deferred: await module.default() }, log };
}

const graphs = fc
  .integer({ min: 2, max: 9 })
  .chain((count) =>
    fc.record({
      deps: fc.tuple(
        ...Array.from({ length: count }, (_, i) =>
          fc.subarray(Array.from({ length: count - i - 1 }, (_, k) => i + 1 + k)),
        ),
      ),
      eager: fc.subarray(Array.from({ length: count }, (_, i) => i)),
      deferred: fc.array(fc.integer({ min: 0, max: count - 1 }), { minLength: 1, maxLength: 4 }),
    }),
  )
  .chain((graph) =>
    fc.subarray([...new Set(graph.deferred)], { minLength: 1 }).map((firstRequest) => ({
      ...graph,
      firstRequest,
    })),
  );

describe('joinChunks', () => {
  it('answers as the original, runs each module once after its imports, one file per group', async () => {
    await fc.assert(
      fc.asyncProperty(graphs, async (graph) => {
        const source = mkdtempSync(join(tmpdir(), 'wos-join-in-'));
        const entry = writeGraph(source, graph);
        const path = (i: number) => join(source, file(i));
        const groups = startAndFirstRequest(entry, graph.firstRequest.map(path), (from) => {
          const i = Number(/m(\d+)\.js$/.exec(from)?.[1] ?? NaN);
          return from === entry ? graph.eager.map(path) : (graph.deps[i] ?? []).map(path);
        });
        const out = mkdtempSync(join(tmpdir(), 'wos-join-out-'));
        const joined = await joinChunks('fn', entry, out, groups, []);

        const before = await runGraph(entry);
        const after = await runGraph(join(out, 'fn.js'));
        expect(after.answer).toEqual(before.answer);
        expect([...after.log].sort((a, b) => a - b)).toEqual([...before.log].sort((a, b) => a - b));
        expect(new Set(after.log).size).toBe(after.log.length);
        for (const [at, i] of after.log.entries()) {
          for (const j of graph.deps[i] ?? []) expect(after.log.indexOf(j)).toBeLessThan(at);
        }
        for (const group of groups.filter(({ files }) => files.size > 0)) {
          const holders = joined.filter(({ from }) => from.some((name) => group.files.has(name)));
          expect(holders).toHaveLength(1);
          expect(new Set(holders[0]?.from)).toEqual(group.files);
        }
        expect(readdirSync(out).length).toBe(joined.length);
      }),
      { numRuns: 40 },
    );
  }, 120_000);

  it('fails a group that lacks a file one of its files imports', async () => {
    const source = mkdtempSync(join(tmpdir(), 'wos-join-in-'));
    const entry = writeGraph(source, { deps: [[1], [2], []], eager: [], deferred: [0], firstRequest: [0] });
    const group = { name: 'first-request', files: new Set([join(source, file(0))]) };
    await expect(
      joinChunks('fn', entry, mkdtempSync(join(tmpdir(), 'wos-join-out-')), [group], []),
    ).rejects.toThrow(/first-request group of api\/fn/);
  });
});
