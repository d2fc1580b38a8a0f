/**
 * Fewer, larger files for a function's cold start (decision 0034).
 *
 * esbuild's code splitting puts every module in the chunk of the exact set
 * of entry points and `import()`s that reach it, so the deferred parts of a
 * function, which share code with each other, end up in dozens of small
 * files: a public `find_tailwind_segments` call to the MCP function loaded
 * 49 of them. Node resolves, reads, compiles, instantiates and links each as
 * an ES module of its own, with every binding one chunk imports from
 * another, which costs a cold start more than the same code in a few files
 * (11% of that call's instructions). esbuild has no option to group chunks,
 * so this step re-bundles esbuild's output with rolldown (the bundler under
 * the site's Vite), whose code-splitting groups put chosen files together;
 * every other chunk stays one file of its own, as esbuild made it.
 *
 * A group must hold everything its files import statically, apart from the
 * files of groups before it: then rolldown's own rule (a group takes its
 * files' dependencies with it) adds nothing, no chunks import each other in
 * a circle, and each module still runs after everything it imports. Only
 * when it runs moves: a joined file runs all its modules when something
 * first imports one of them. Rolldown's `strictExecutionOrder`, which would
 * keep even that, wraps every module in a function run on first use, and
 * that alone cost the MCP call more instructions than joining saved. A group
 * that would need more than its files fails the build (`joinChunks`).
 *
 * Only whitespace and local names change inside a chunk (no compression:
 * esbuild has already minified, and a second minifier's rewrites are not
 * worth the risk); strings stay ASCII with escapes, as esbuild writes them;
 * licences stay with their code.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { join } from 'node:path';
import { rolldown } from 'rolldown';
import { cheaperToStart } from './start-rewrites.ts';

/** Files of esbuild's output (absolute paths) to put in one output file. */
export interface ChunkGroup {
  readonly name: string;
  readonly files: ReadonlySet<string>;
}

/**
 * The groups a function's bundle is joined into: every file `entry`
 * imports statically, directly or not (what a cold start loads before its
 * first request); every file the `firstRequest` files import statically,
 * themselves included, that the first group does not hold; then, for each
 * list in `later` (what some first requests load on top, decision 0045),
 * the same past every group before it. Each is closed over static imports
 * past the groups before it, as `joinChunks` needs. `staticImports` gives
 * a file's static imports.
 */
export function startAndFirstRequest(
  entry: string,
  firstRequest: readonly string[],
  staticImports: (file: string) => readonly string[],
  later: readonly (readonly string[])[] = [],
): ChunkGroup[] {
  const closure = (from: readonly string[]) => {
    const seen = new Set(from);
    for (const file of seen) for (const imported of staticImports(file)) seen.add(imported);
    return seen;
  };
  const start = closure([entry]);
  const claimed = new Set(start);
  const past = (files: readonly string[]) => {
    const own = [...closure(files)].filter((file) => !claimed.has(file));
    for (const file of own) claimed.add(file);
    return new Set(own);
  };
  start.delete(entry);
  return [
    { name: 'start', files: start },
    { name: 'first-request', files: past(firstRequest) },
    ...later.map((files, i) => ({ name: `then-${i + 1}`, files: past(files) })),
  ];
}

/** One file of the joined output: its path and the esbuild files (absolute paths) it holds. */
export interface JoinedFile {
  readonly file: string;
  readonly from: readonly string[];
  /** Output files it imports statically (absolute paths). */
  readonly imports: readonly string[];
}

/**
 * Re-bundles esbuild's output from `entry` into `outDir` as `<name>.js` and
 * `<name>-<hash>.js` chunks, each group of files as one chunk; earlier
 * groups claim their files first. Throws when a group's files end up in
 * more than one chunk or beside other files (a group that needs more than
 * it holds). `external`
 * names the packages that stay imports (Node's built-in modules always do).
 */
export async function joinChunks(
  name: string,
  entry: string,
  outDir: string,
  groups: readonly ChunkGroup[],
  external: readonly string[],
): Promise<JoinedFile[]> {
  const joining = groups.filter((group) => group.files.size > 0);
  const bundle = await rolldown({
    input: { [name]: entry },
    platform: 'node',
    external: (id) => isBuiltin(id) || external.includes(id),
    logLevel: 'warn',
  });
  try {
    const { output } = await bundle.write({
      dir: outDir,
      format: 'esm',
      entryFileNames: '[name].js',
      chunkFileNames: `${name}-[hash].js`,
      minify: { compress: false, mangle: true, codegen: { removeWhitespace: true, asciiOnly: true } },
      comments: { legal: true },
      codeSplitting: {
        // Earlier groups claim their files first.
        groups: joining.map((group, i) => ({
          name: group.name,
          priority: joining.length - i,
          test: (id: string) => group.files.has(id),
        })),
      },
    });
    const written = new Set(output.map((chunk) => chunk.fileName));
    const joined: JoinedFile[] = output.flatMap((chunk) =>
      chunk.type === 'chunk'
        ? [
            {
              file: join(outDir, chunk.fileName),
              // Rolldown's own helpers have ids that are not files.
              from: chunk.moduleIds.filter((id) => !id.startsWith('\0')),
              imports: chunk.imports
                .filter((imported) => written.has(imported))
                .map((imported) => join(outDir, imported)),
            },
          ]
        : [],
    );
    for (const { file } of joined) writeFileSync(file, cheaperToStart(readFileSync(file, 'utf8'), isBuiltin));
    // Rolldown drops a file it finds nothing in to run or export; the rest of a group must be one chunk,
    // and that chunk nothing else.
    for (const group of joining) {
      const holders = joined.filter((out) => out.from.some((file) => group.files.has(file)));
      if (holders.length > 1 || holders.some((out) => out.from.some((file) => !group.files.has(file)))) {
        throw new Error(
          `The ${group.name} group of api/${name} did not become one file of its own files: ` +
            'it needs a file it does not hold (decision 0034).',
        );
      }
    }
    return joined;
  } finally {
    await bundle.close();
  }
}
