/**
 * What the path table says to Vercel and to the operator: the `rewrites` of
 * `vercel.json` and the table in docs/operating.md. `npm run docs` writes
 * both into their committed files (Vercel reads `vercel.json` before any code
 * runs), and unit tests fail when a file and the table differ.
 */
import { PARTS, PATHS, rowFacts, type ErrorStyle, type Match, type PathRow } from './paths.ts';

export interface VercelRewrite {
  readonly source: string;
  readonly destination: string;
}

/** Vercel's path-to-regexp sources for one row. */
function sourcesOf({ path, match }: PathRow): string[] {
  switch (match) {
    case 'exact':
      return [path];
    case 'slash':
      return [path, `${path}/`];
    case 'tree':
      return [path, `${path}/(.*)`];
    case 'below':
      return [`${path}/(.*)`];
    case 'child':
      // Vercel's `:id` takes no trailing slash; the table's `child` does, as the Node listener does.
      return [`${path}/:id`, `${path}/:id/`];
  }
}

/** Where a row's requests go: its function, or a static shell page; undefined when Vercel serves it as it is. */
function destinationOf(row: PathRow): string | undefined {
  const fn = PARTS[row.part].function;
  if (fn === 'static') return row.page;
  // A function's own path (`/api/cron-alerts`) needs no rewrite.
  return `/api/${fn}` === row.path ? undefined : `/api/${fn}`;
}

/**
 * One rewrite per source, in table order, leaving out a source that a
 * catch-all of the same destination already covers (`/mcp/rider` under
 * `/mcp/(.*)`), so the file lists each prefix once.
 */
export function vercelRewrites(): VercelRewrite[] {
  const all = PATHS.flatMap((row) => {
    const destination = destinationOf(row);
    return destination === undefined ? [] : sourcesOf(row).map((source) => ({ source, destination }));
  });
  const catchAlls = all.filter(({ source }) => source.endsWith('/(.*)'));
  const covered = ({ source, destination }: VercelRewrite) =>
    catchAlls.some(
      (wide) =>
        wide.destination === destination &&
        wide.source !== source &&
        source.startsWith(wide.source.slice(0, -'(.*)'.length)),
    );
  return all.filter((rewrite) => !covered(rewrite));
}

const STYLE_NAMES: Readonly<Record<ErrorStyle, string>> = {
  problem: 'problem+json',
  oauth: 'OAuth (RFC 6749)',
  'json-rpc': 'JSON-RPC',
  job: '`{ ok, error }`',
  page: '404 page / problem',
};

const MATCH_SUFFIX: Readonly<Record<Match, string>> = {
  exact: '',
  slash: '[/]',
  tree: '[/…]',
  below: '/…',
  child: '/<id>',
};

const size = (bytes: number | undefined) =>
  bytes === undefined ? '–' : bytes >= 1024 * 1024 ? `${bytes / 1024 / 1024} MB` : `${bytes / 1024} KB`;

/** The path table as Markdown, for docs/operating.md (`npm run docs` writes it, a unit test compares). */
export function pathTableMarkdown(): string {
  const rows = PATHS.map((row) => {
    const facts = rowFacts(row);
    const shell = row.page === undefined ? '' : ` (shell \`${row.page}\`)`;
    const served = `${facts.function}${shell}`;
    const rate = facts.rate === undefined ? '–' : `\`${facts.rate}\``;
    const cells = [`\`${row.path}${MATCH_SUFFIX[row.match]}\``, row.part, served, STYLE_NAMES[facts.errors]];
    return `| ${[...cells, size(facts.body), rate].join(' | ')} |`;
  });
  const head = '| Path | Part | Vercel function | Errors | Largest body | Rate rule |';
  return [
    head,
    '| --- | --- | --- | --- | --- | --- |',
    ...rows,
    '| anything else | site | static | 404 page / problem | – | – |',
  ].join('\n');
}
