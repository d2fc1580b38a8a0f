/**
 * Proves the browser test infrastructure works end to end: Debian's Chromium driven by
 * playwright-core against `npm start`, axe, the link crawler and screenshots. Each checker is also
 * shown to fail on a known-bad input, so a green run elsewhere means something.
 */
import { mkdir } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { COLOUR_RULES, expectNoAxeViolations } from '../support/browser/axe.ts';
import { newPage } from '../support/browser/launch.ts';
import { checkLinks } from '../support/browser/links.ts';
import { useSiteAndBrowser } from './setup.ts';

const GOOD_HTML = `<!doctype html><html lang="en"><head><title>Good</title></head>
<body><main><h1>Good</h1><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" alt="A dot"></main></body></html>`;
const BAD_HTML = `<!doctype html><html><head><title>Bad</title></head>
<body><main><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw="><a href="/x"></a></main></body></html>`;
/** Readable in light mode only: its dark scheme sets dark grey on black. */
const DARK_BAD_HTML = `<!doctype html><html lang="en"><head><title>Dark</title>
<style>p { color: #111; background: #fff } @media (prefers-color-scheme: dark) { p { color: #333; background: #000 } }</style>
</head><body><main><h1>Dark</h1><p>Grey on black at night</p></main></body></html>`;

/** A two-page site with one link of each broken kind, served on 127.0.0.1. */
const FIXTURE: Record<string, string> = {
  '/': `<!doctype html><title>Home</title><h1 id="top-heading">Home</h1>
<a href="/docs#error-not-found">ok across pages</a> <a href="#top-heading">ok same page</a>
<a href="/docs#error-nope">bad fragment across pages</a> <a href="#nope">bad fragment same page</a>
<a href="/gone">missing page</a> <a href="https://example.com/">external, skipped</a>`,
  '/docs': `<!doctype html><title>Docs</title><h2 id="error-not-found">not_found</h2><a href="/#top-heading">home</a> <a href="/#gone-heading">bad fragment on a page crawled earlier</a>`,
};

const env = useSiteAndBrowser();
let fixture: Server | undefined;

afterAll(async () => {
  await new Promise((resolve) => (fixture ? fixture.close(resolve) : resolve(undefined)));
});

describe('browser infrastructure', () => {
  it('opens the home page in Chromium without console errors and takes a screenshot', async () => {
    // Site-level, left to the page tests: the placeholder page links no icon, so Chromium's automatic
    // /favicon.ico request 404s. Here we only prove the plumbing.
    const { page, problems, close } = await newPage(env.browser, {
      colorScheme: 'dark',
      allow: [/\/favicon\.ico\b/],
    });
    const response = await page.goto(`${env.service.baseUrl}/`);
    expect(response?.status()).toBe(200);
    expect((await page.title()).length).toBeGreaterThan(0);
    await mkdir('test-results/screenshots', { recursive: true });
    await page.screenshot({ path: 'test-results/screenshots/infra-home.png', fullPage: true });
    expect(await page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches)).toBe(true);
    expect(problems()).toEqual([]);
    await close();
  });

  it('reports console errors, page errors and failed requests', async () => {
    const { page, problems, close } = await newPage(env.browser);
    // A blank page: the site's CSP would refuse the failing fetch before it is sent.
    await page.setContent('<!doctype html><title>probe</title>');
    await page.evaluate(() => {
      console.error('boom');
      setTimeout(() => {
        throw new Error('uncaught');
      });
      return fetch('http://127.0.0.1:1/').catch(() => undefined);
    });
    await expect.poll(() => problems().length).toBeGreaterThanOrEqual(3);
    expect(problems().join('\n')).toMatch(/console error: boom[\s\S]*page error: Error: uncaught/);
    expect(problems().some((problem) => problem.startsWith('request failed: GET http://127.0.0.1:1/'))).toBe(
      true,
    );
    await close();
  });

  it('axe passes a known-good page and lists the violations of a known-bad one', async () => {
    const { page, close } = await newPage(env.browser);
    await page.setContent(GOOD_HTML);
    await expectNoAxeViolations(page, 'good fixture');
    await page.setContent(BAD_HTML);
    const failure = expectNoAxeViolations(page, 'bad fixture');
    await expect(failure).rejects.toThrow(/axe violation\(s\) on bad fixture/);
    await expect(failure).rejects.toThrow(/- image-alt \[critical\]: .*\n {4}- img/);
    await expect(failure).rejects.toThrow(/- html-has-lang \[serious\]/);
    await expect(failure).rejects.toThrow(/- link-name \[serious\]/);
    await close();
  });

  it("axe's colour rules see the scheme the page is switched to, and a page with an iframe is refused", async () => {
    const { page, close } = await newPage(env.browser, { colorScheme: 'light' });
    await page.setContent(DARK_BAD_HTML);
    await expectNoAxeViolations(page, 'light fixture');
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect(expectNoAxeViolations(page, 'dark fixture', COLOUR_RULES)).rejects.toThrow(
      /axe violation\(s\) on dark fixture:\n- color-contrast \[serious\]/,
    );
    await page.setContent(
      `${GOOD_HTML.replace('</main>', '<iframe title="x" srcdoc="<p>x</p>"></iframe></main>')}`,
    );
    await expect(expectNoAxeViolations(page, 'framed')).rejects.toThrow(/this page has 1 iframe/);
    await close();
  });

  it('axe passes the home page', async () => {
    const { page, close } = await newPage(env.browser);
    await page.goto(`${env.service.baseUrl}/`);
    await expectNoAxeViolations(page, '/');
    await close();
  });

  it('finds no broken links or fragments on the site', async () => {
    expect(await checkLinks(env.service.baseUrl, ['/'])).toEqual([]);
  });

  it('finds missing pages and missing fragments, on the same page and across pages', async () => {
    const server = createServer((request, response) => {
      const body = FIXTURE[new URL(request.url ?? '/', 'http://x').pathname];
      response.writeHead(body === undefined ? 404 : 200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(request.method === 'HEAD' ? undefined : (body ?? 'not found'));
    });
    fixture = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    const broken = await checkLinks(base, ['/', '/absent']);
    const summary = broken.map(({ url, source, status }) => `${url} from ${source} (${status})`).sort();
    expect(summary).toEqual([
      `${base}/#gone-heading from ${base}/docs (200)`,
      `${base}/#nope from ${base}/ (200)`,
      `${base}/absent from undefined (404)`,
      `${base}/docs#error-nope from ${base}/ (200)`,
      `${base}/gone from ${base}/ (404)`,
    ]);
  });
});
