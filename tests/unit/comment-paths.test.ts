/**
 * A comment that names a file (`src/app/settings.ts`, `bench/cold-start.ts`,
 * `gazetteer.ts`) sends the reader there, so the file must exist: a rename
 * that leaves the old name in a comment fails here instead of misleading the
 * next reader. Comments are found by TypeScript's own parser, so a path in a
 * string or a URL is not taken for one.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CHECKED_FOLDERS = ['src', 'scripts', 'api', 'bench'];
const CODE = /\.(?:ts|js|mjs|astro)$/;

/** Build output a comment may name although no checkout holds it before a build. */
const GENERATED = ['api/_bundle/'];

/** Paths that name a file inside something else than this repository, by the file naming them. */
const ELSEWHERE: Readonly<Record<string, readonly string[]>> = {
  // Files of the iso3166-2-db package, unpacked by hand to refresh the table.
  'scripts/data/admin1.ts': ['data/iso3166-2.json', 'package/data/iso3166-2.json'],
};

const EXTENSIONS = 'ts|js|mjs|astro|md|json|css|tsv|yml|yaml|geojson';
/** A path with at least one folder; not the middle of a URL, a glob or a longer word. */
const PATH = new RegExp(
  `(?<![\\w@./:*{-])((?:\\.{1,2}/)*(?:[\\w.-]+/)+[\\w.-]+\\.(?:${EXTENSIONS}))(?![\\w/*-])`,
  'g',
);
/** A file name alone (`rider-rules.ts`). */
const FILE_NAME = new RegExp(`(?<![\\w@./:*{-])([\\w-]+\\.(?:${EXTENSIONS}))(?![\\w/*-])`, 'g');

/** The text of every comment in a TypeScript or JavaScript source. */
function commentsOf(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const seen = new Map<number, string>();
  const collect = (ranges: ts.CommentRange[] | undefined) => {
    for (const range of ranges ?? []) seen.set(range.pos, text.slice(range.pos, range.end));
  };
  const visit = (node: ts.Node) => {
    collect(ts.getLeadingCommentRanges(text, node.pos));
    collect(ts.getTrailingCommentRanges(text, node.end));
    ts.forEachChild(node, visit);
  };
  visit(source);
  collect(ts.getLeadingCommentRanges(text, source.endOfFileToken.pos));
  return [...seen.values()];
}

/** The file paths and file names a comment names. */
function namedFiles(comment: string): { paths: string[]; names: string[] } {
  return {
    paths: [...comment.matchAll(PATH)].map((match) => match[1] ?? ''),
    names: [...comment.matchAll(FILE_NAME)].map((match) => match[1] ?? ''),
  };
}

function filesUnder(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
    .map((path) => join(folder, path))
    .filter((path) => !GENERATED.some((prefix) => path.startsWith(prefix)));
}

/** Every file name in the checkout, outside installed and built folders. */
function repositoryFileNames(): Set<string> {
  const skipped = new Set(['node_modules', '.git', 'dist', '.astro', '.vercel', 'data']);
  const names = new Set<string>();
  for (const entry of readdirSync(ROOT, { withFileTypes: true })) {
    if (skipped.has(entry.name)) continue;
    if (!entry.isDirectory()) names.add(entry.name);
    else
      for (const path of readdirSync(join(ROOT, entry.name), { recursive: true, encoding: 'utf8' })) {
        names.add(basename(path));
      }
  }
  return names;
}

/** Where a path a comment in `file` names may be: beside it, from the root, under `src/` or in a package. */
function pathExists(file: string, path: string): boolean {
  if (GENERATED.some((prefix) => path.startsWith(prefix))) return true;
  if (ELSEWHERE[file]?.includes(path)) return true;
  const places = [dirname(file), '.', 'src', 'node_modules'];
  return places.some((place) => existsSync(resolve(ROOT, place, path)));
}

/** The source of a file as TypeScript sees it: an Astro component's frontmatter. */
function scriptOf(file: string): string {
  const text = readFileSync(join(ROOT, file), 'utf8');
  if (!file.endsWith('.astro')) return text;
  return /^---\n([\s\S]*?)\n---/.exec(text)?.[1] ?? '';
}

describe('file names in comments', () => {
  it('finds paths and names in comments only, not in strings or URLs', () => {
    const text = [
      '/** Read by `src/app/settings.ts` and gazetteer.ts (https://example.com/a/b.ts). */',
      "const path = 'src/not/a-comment.ts';",
      '// see bench/cold-start.ts, settings/*.ts',
    ].join('\n');
    const named = commentsOf('sample.ts', text).map(namedFiles);
    expect(named.flatMap((files) => files.paths)).toEqual(['src/app/settings.ts', 'bench/cold-start.ts']);
    expect(named.flatMap((files) => files.names)).toEqual(['gazetteer.ts']);
  });

  it('name files that exist', () => {
    const fileNames = repositoryFileNames();
    const stale: string[] = [];
    for (const file of CHECKED_FOLDERS.flatMap(filesUnder).filter((path) => CODE.test(path))) {
      for (const comment of commentsOf(file, scriptOf(file))) {
        const { paths, names } = namedFiles(comment);
        for (const path of paths) if (!pathExists(file, path)) stale.push(`${file}: ${path}`);
        for (const name of names) {
          const known = fileNames.has(name) || existsSync(join(ROOT, 'node_modules', name));
          if (!known) stale.push(`${file}: ${name}`);
        }
      }
    }
    expect(stale, 'comments naming files that do not exist').toEqual([]);
  });
});
