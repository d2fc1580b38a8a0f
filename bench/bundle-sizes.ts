/**
 * What users download or deploy: the core maths as the smallest bundle a
 * browser or edge runtime would load, and each Vercel function as built.
 * Cold starts and deployment limits follow these sizes, so they are printed
 * next to the throughput.
 */
import { lstat, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { buildVercelOutput } from '../scripts/vercel/build-output.ts';
import { REPO_ROOT } from '../scripts/service/launch.ts';

const CORE_DIR = join(REPO_ROOT, 'src/core');

export interface ByteSize {
  readonly bytes: number;
  readonly gzipBytes: number;
}

export interface FunctionSize {
  readonly name: string;
  readonly bytes: number;
  readonly files: number;
}

/** Bundles every module of src/core through a temporary entry that re-exports them all (minified ESM). */
export async function coreBundleSize(): Promise<ByteSize & { modules: number }> {
  const modules = (await readdir(CORE_DIR)).filter((name) => name.endsWith('.ts'));
  const dir = await mkdtemp(join(tmpdir(), 'bench-core-'));
  try {
    const entry = join(dir, 'core.ts');
    const lines = modules.map((name) => `export * from ${JSON.stringify(join(CORE_DIR, name))};`);
    await writeFile(entry, `${lines.join('\n')}\n`);
    const result = await build({
      entryPoints: [entry],
      bundle: true,
      minify: true,
      format: 'esm',
      platform: 'neutral',
      // The entry sits in a temporary folder: resolve packages (simplify-js) from the project, by their
      // `module` or `main` field, which the neutral platform does not read by default.
      nodePaths: [join(REPO_ROOT, 'node_modules')],
      mainFields: ['module', 'main'],
      write: false,
      logLevel: 'silent',
    });
    const output = result.outputFiles[0];
    if (output === undefined) throw new Error('esbuild produced no output for the core bundle.');
    return {
      modules: modules.length,
      bytes: output.contents.byteLength,
      gzipBytes: gzipSync(output.contents).byteLength,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Sum of file sizes under `dir` (symlinks counted as links, not followed), and how many files. */
export async function directorySize(dir: string): Promise<{ bytes: number; files: number }> {
  let bytes = 0;
  let files = 0;
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isDirectory()) continue;
    bytes += (await lstat(join(entry.parentPath, entry.name))).size;
    files += 1;
  }
  return { bytes, files };
}

/** Every `*.func` directory of a fresh offline `vercel build`. */
export async function functionSizes(): Promise<FunctionSize[]> {
  const FUNCTIONS_DIR = join(buildVercelOutput(REPO_ROOT), 'functions');
  const sizes: FunctionSize[] = [];
  const visit = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const path = join(dir, entry.name);
      if (entry.name.endsWith('.func'))
        sizes.push({ name: relative(FUNCTIONS_DIR, path), ...(await directorySize(path)) });
      else await visit(path);
    }
  };
  await visit(FUNCTIONS_DIR);
  return sizes.sort((a, b) => a.name.localeCompare(b.name));
}

const kb = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KB`;

/** Prints both sizes; the Vercel output is built offline in a scratch copy for the purpose. */
export async function printSizes(): Promise<void> {
  const core = await coreBundleSize();
  console.log(`\nSizes`);
  console.log(
    `  core (all ${core.modules} modules of src/core), esbuild minified ESM: ` +
      `${core.bytes.toLocaleString('en-US')} B, gzip ${core.gzipBytes.toLocaleString('en-US')} B`,
  );
  console.log('  building the Vercel output offline (vercel build)…');
  const functions = await functionSizes();
  if (functions.length === 0)
    console.log('  Vercel functions: no *.func directory in .vercel/output/functions.');
  for (const { name, bytes, files } of functions) {
    console.log(`  Vercel function ${name}: ${kb(bytes)} in ${files} files`);
  }
}
