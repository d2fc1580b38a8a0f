/**
 * Fewer, larger files for a function's cold start (decision 0034).
 *
 * esbuild's code splitting puts every module in the chunk of the exact set
 * of entry points and `import()`s that reach it, so the few deferred parts
 * of a function that share code with each other end up in dozens of small
 * files: a public `find_tailwind_segments` call to the MCP function loaded
 * 49 of them. Node resolves, reads, compiles, instantiates and links each as
 * an ES module of its own, with every binding one chunk imports from
 * another; that costs the cold start more than compiling the same code as
 * one file would (about 8% of the process's instructions for that call).
 * esbuild has no option to group chunks, so this step re-bundles esbuild's
 * output with rolldown (the bundler under the site's Vite), whose code
 * splitting groups put chosen files together: the chunks the entry imports
 * statically in one file, the chunks a path loads on its first request in
 * another, every other chunk as esbuild made it. A merged file still loads
 * only when something first needs a module in it; rolldown keeps the order
 * in which the modules run (`strictExecutionOrder`), so nothing runs sooner
 * than it did, only beside its neighbours.
 *
 * Only whitespace and local names change inside a chunk (no compression:
 * esbuild has already minified, and a second minifier's rewrites are not
 * worth the risk); licences stay with their code.
 */
import { isBuiltin } from 'node:module';
import { join } from 'node:path';
import { rolldown, RUNTIME_MODULE_ID } from 'rolldown';

/** Files of esbuild's output (absolute paths) to put in one output file. */
export interface ChunkGroup {
  readonly name: string;
  readonly files: ReadonlySet<string>;
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
 * `<name>-<hash>.js` chunks, each group of files as one chunk (the first
 * group should be what the entry imports statically: rolldown's helpers
 * join it). `external`
 * names the packages that stay imports (Node's built-in modules always do).
 */
export async function joinChunks(
  name: string,
  entry: string,
  outDir: string,
  groups: readonly ChunkGroup[],
  external: readonly string[],
): Promise<JoinedFile[]> {
  const bundle = await rolldown({
    input: { [name]: entry },
    platform: 'node',
    external: (id) => isBuiltin(id) || external.includes(id),
    // The entry's only export is the handler; nothing outside imports the chunks.
    preserveEntrySignatures: 'allow-extension',
    logLevel: 'warn',
  });
  try {
    const { output } = await bundle.write({
      dir: outDir,
      format: 'esm',
      entryFileNames: '[name].js',
      chunkFileNames: `${name}-[hash].js`,
      minify: { compress: false, mangle: true, codegen: { removeWhitespace: true } },
      comments: { legal: true },
      strictExecutionOrder: true,
      codeSplitting: {
        includeDependenciesRecursively: false,
        // Rolldown's few helpers (the wrappers that keep the modules' order) go with the first group.
        groups: groups.map((group, i) => ({
          name: group.name,
          test: (id: string) => group.files.has(id) || (i === 0 && id === RUNTIME_MODULE_ID),
        })),
      },
    });
    const written = new Set(output.map((chunk) => chunk.fileName));
    return output.flatMap((chunk) =>
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
  } finally {
    await bundle.close();
  }
}
