/**
 * The path table (`src/app/paths.ts`) routes every path where the checks it
 * replaced did: a frozen copy of those checks (as they stood before the
 * table, at 715122f) is the oracle of a property over generated paths, with
 * the one deliberate change written out; the committed `vercel.json`
 * rewrites are what the table generates, and route like the rewrites they
 * replaced.
 */
import { isSegmentPage } from '../../src/app/rest-function.ts';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { partOf, pathFacts, PATHS, type Part } from '../../src/app/paths.ts';
import { vercelRewrites, type VercelRewrite } from '../../src/app/vercel-rewrites.ts';
import { ENDPOINTS } from '../../src/rest/endpoints.ts';
import { bodyLimitFor } from '../../src/server/request-body.ts';
import { vercelJsonText } from '../../scripts/docs/generated-blocks.ts';

const PRM = '/.well-known/oauth-protected-resource';
const ASM = '/.well-known/oauth-authorization-server';

/** The checks before the table, copied as they were (`isApiPath`, `isAuthPath`, `answersProblems`, `isMcpPath`, `mcpAddressOf`). */
const before = {
  api: (p: string) =>
    p === '/v1' ||
    p.startsWith('/v1/') ||
    Object.hasOwn(ENDPOINTS, p) ||
    (p.length > 1 && p.endsWith('/') && Object.hasOwn(ENDPOINTS, p.slice(0, -1))),
  auth: (p: string) =>
    [PRM, `${PRM}/mcp/rider`, `${PRM}/mcp/rider/`, ASM, `${ASM}/api/auth`].includes(p) ||
    p.startsWith('/api/auth/'),
  problems: (p: string) => p.startsWith('/api/rider/') || p.startsWith('/api/billing/'),
  rider: (p: string) => before.auth(p) || before.problems(p),
  mcp: (p: string) => p === '/mcp' || p.startsWith('/mcp/') || before.rider(p),
  address: (p: string) => {
    const path = p.endsWith('/') ? p.slice(0, -1) : p;
    return path === '/mcp' || path === '/mcp/rider' ? path : undefined;
  },
  /** Where `npm start` sent a path. */
  node: (p: string) => (before.api(p) ? 'rest' : before.mcp(p) ? 'mcp' : 'site'),
  /** The part of the MCP side that answered it (`createMcpService`'s `handle`). */
  mcpPart: (p: string): Part => {
    const address = before.address(p);
    if (address === '/mcp') return 'mcp-public';
    if (address === '/mcp/rider') return 'mcp-rider';
    if (p.startsWith('/api/rider/')) return 'rider-api';
    if (p.startsWith('/api/billing/')) return 'billing';
    return before.auth(p) ? 'sign-in' : 'mcp-none';
  },
};

/**
 * The one deliberate change: every path below the two metadata documents now
 * reaches the sign-in side on `npm start` too (it answers 404 for a document
 * it does not have), as Vercel's rewrites always sent them there.
 */
const metadataTree = (p: string) => [PRM, ASM].some((doc) => p === doc || p.startsWith(`${doc}/`));

/**
 * Where `npm start` sends a path now: the function the table names, the cron and the site being the
 * site, and a segment's pages too (the REST function serves them on Vercel, the site's listener here).
 */
const nodeNow = (p: string) => {
  const { function: served, part } = pathFacts(p);
  return (served === 'rest' || served === 'mcp') && part !== 'segment-page' ? served : 'site';
};

const HEADS = [
  '',
  '/',
  '//',
  '/v1',
  '/V1',
  '/health',
  '/openapi.json',
  '/mcp',
  '/MCP',
  '/%6Dcp',
  '/mcp/rider',
  '/api',
  '/api/auth',
  '/api/rider',
  '/api/billing',
  '/api/cron-alerts',
  PRM,
  ASM,
  '/segments',
  '/docs',
];
const TAILS = [
  '',
  '/',
  '//',
  '/x',
  '/rider',
  '/rider/',
  '/mcp/rider',
  '/mcp/rider/',
  '/api/auth',
  '/tailwind',
  '/oauth2/register',
  '/webhook',
  '/segments',
  '/status',
  '/%2F',
  '/a/b',
  '.json',
];
const paths = fc.oneof(
  fc.tuple(fc.constantFrom(...HEADS), fc.constantFrom(...TAILS)).map(([head, tail]) => head + tail || '/'),
  fc.tuple(fc.constantFrom(...HEADS), fc.webPath()).map(([head, tail]) => head + tail || '/'),
  fc.webPath().map((path) => (path.startsWith('/') ? path : `/${path}`)),
);

describe('the path table', () => {
  it('sends every path where the old checks did on npm start, but for the metadata tree', () => {
    fc.assert(
      fc.property(paths, (path) => {
        const expected = metadataTree(path) ? 'mcp' : before.node(path);
        expect(nodeNow(path), path).toBe(expected);
        if (expected === 'mcp' && !metadataTree(path)) expect(partOf(path), path).toBe(before.mcpPart(path));
      }),
      { numRuns: 3000 },
    );
  });

  it('gives the error style the edge chose before: problems, JSON-RPC at the addresses, OAuth at sign-in', () => {
    fc.assert(
      fc.property(paths, (path) => {
        if (before.node(path) !== 'mcp') return;
        const { errors } = pathFacts(path);
        if (before.problems(path)) expect(errors, path).toBe('problem');
        else if (before.address(path)) expect(errors, path).toBe('json-rpc');
        else if (before.auth(path)) expect(errors, path).toBe('oauth');
        else expect(errors, path).toBe('problem'); // the MCP side's 404
      }),
      { numRuns: 2000 },
    );
  });

  it.each<[string, Part]>([
    ['/v1', 'rest'],
    ['/v1/', 'rest'],
    ['/v1/tailwind', 'rest'],
    ['/v1//tailwind', 'rest'],
    ['/health', 'rest'],
    ['/health/', 'rest'],
    ['/health//', 'site'],
    ['/Health', 'site'],
    ['/openapi.json/', 'rest'],
    ['/mcp', 'mcp-public'],
    ['/mcp/', 'mcp-public'],
    ['/mcp//', 'mcp-none'],
    ['/mcp/rider', 'mcp-rider'],
    ['/mcp/rider/', 'mcp-rider'],
    ['/mcp/rider//', 'mcp-none'],
    ['/mcp/Rider', 'mcp-none'],
    ['/MCP', 'site'],
    ['//mcp', 'site'],
    ['/%6Dcp', 'site'],
    ['/mcp%2Frider', 'site'],
    ['/mcpx', 'site'],
    [`${PRM}`, 'sign-in'],
    [`${PRM}/mcp/rider`, 'sign-in'],
    [`${PRM}/`, 'sign-in'],
    [`${ASM}/api/auth`, 'sign-in'],
    ['/.well-known/openid-configuration', 'site'],
    ['/api/auth', 'site'],
    ['/api/auth/', 'sign-in'],
    ['/api/auth/sign-in/email', 'sign-in'],
    ['/api/auth/oauth2/register', 'sign-in'],
    ['/api/rider', 'site'],
    ['/api/rider/me', 'rider-api'],
    ['/api/billing/webhook', 'billing'],
    ['/api/cron-alerts', 'cron'],
    ['/segments/alpe-d-huez', 'segment-page'],
    ['/segments/alpe-d-huez/card.png', 'segment-page'],
    ['/', 'site'],
    ['', 'site'],
  ])('%s is served by %s', (path, part) => {
    expect(partOf(path)).toBe(part);
  });

  it('serves every REST endpoint, with one trailing slash too', () => {
    for (const path of Object.keys(ENDPOINTS)) {
      expect(partOf(path), path).toBe('rest');
      expect(partOf(`${path}/`), path).toBe('rest');
    }
  });

  it('keeps each path its body limit', () => {
    const limits: [string, number][] = [
      ['/mcp', 64 * 1024],
      ['/mcp/', 64 * 1024],
      ['/mcp/rider/', 64 * 1024],
      ['/api/rider/webhook', 16 * 1024],
      ['/api/rider/segments', 4 * 1024 * 1024],
      ['/api/rider/segments/remove', 16 * 1024],
      ['/api/billing/webhook', 256 * 1024],
      ['/api/auth/oauth2/register', 64 * 1024],
      ['/api/auth/sign-in/email', 16 * 1024],
      [PRM, 16 * 1024],
    ];
    for (const [path, bytes] of limits) expect(bodyLimitFor(path), path).toBe(bytes);
  });

  it('serves a shell page under each of its ids only, one segment deep', () => {
    const page = PATHS.find((row) => row.match === 'child')?.page;
    expect(page).toBeDefined();
    expect(pathFacts('/segments/abc').page).toBe(page);
    expect(pathFacts('/segments/abc/').page).toBe(page);
    for (const path of ['/segments', '/segments/', '/segments//', '/segments/a/b']) {
      expect(pathFacts(path).page, path).toBeUndefined();
    }
  });
});

/** Vercel's path-to-regexp sources as the few shapes the table uses. */
function sourceMatches(source: string, path: string): boolean {
  const pattern = source
    .split(/(\(\.\*\)|:id)/)
    .map((piece) =>
      piece === '(.*)' ? '.*' : piece === ':id' ? '[^/]+' : piece.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
    )
    .join('');
  return new RegExp(`^${pattern}$`).test(path);
}

const destinationOf = (rewrites: readonly VercelRewrite[], path: string) =>
  rewrites.find(({ source }) => sourceMatches(source, path))?.destination;

/** The rewrites of `vercel.json` before the table generated them. */
const REWRITES_BEFORE: VercelRewrite[] = [
  ...['/v1', '/v1/(.*)', '/health', '/health/', '/openapi.json', '/openapi.json/'].map((source) => ({
    source,
    destination: '/api/rest',
  })),
  ...[
    '/mcp',
    '/mcp/(.*)',
    '/api/auth/(.*)',
    '/api/rider/(.*)',
    '/api/billing/(.*)',
    PRM,
    `${PRM}/(.*)`,
    ASM,
    `${ASM}/(.*)`,
  ].map((source) => ({ source, destination: '/api/mcp' })),
];

describe("the REST function's test for a segment's page", () => {
  it('takes exactly the paths the table gives the segment-page part', () => {
    fc.assert(
      fc.property(paths, (path) => {
        expect(isSegmentPage(path), path).toBe(pathFacts(path).part === 'segment-page');
      }),
      { numRuns: 3000 },
    );
  });
});

describe('the vercel.json rewrites', () => {
  it('are what the table generates (else run `npm run docs`)', async () => {
    const committed = readFileSync(new URL('../../vercel.json', import.meta.url), 'utf8');
    expect(committed).toBe(await vercelJsonText());
    expect((JSON.parse(committed) as { rewrites: unknown }).rewrites).toEqual(vercelRewrites());
  });

  it('send every function path where the hand-written ones did, and name each source once', () => {
    const now = vercelRewrites();
    expect(new Set(now.map(({ source }) => source)).size).toBe(now.length);
    fc.assert(
      fc.property(paths, (path) => {
        const destination = destinationOf(now, path);
        if (destination?.startsWith('/api/') === false) return; // a shell page: new with the table
        // A segment's pages: the shell's rewrite before, the REST function since release 1.8.0.
        if (pathFacts(path).part === 'segment-page') return void expect(destination, path).toBe('/api/rest');
        expect(destination, path).toBe(destinationOf(REWRITES_BEFORE, path));
      }),
      { numRuns: 2000 },
    );
  });

  it('send each path to the function the table names', () => {
    fc.assert(
      fc.property(paths, (path) => {
        const facts = pathFacts(path);
        const destination = destinationOf(vercelRewrites(), path);
        if (facts.function === 'rest' || facts.function === 'mcp') {
          expect(destination, path).toBe(`/api/${facts.function}`);
        } else if (facts.page !== undefined) expect(destination, path).toBe(facts.page);
        else expect(destination, path).toBeUndefined();
      }),
      { numRuns: 2000 },
    );
  });
});
