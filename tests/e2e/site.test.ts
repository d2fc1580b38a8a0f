import { Parser } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import {
  ACCOUNT_PROBLEM_CODES,
  PROBLEM_CODES,
  problemAnchor,
  type AccountProblemCode,
  type ProblemCode,
} from '../../src/core/problems.ts';
import { DATA_ENDPOINTS } from '../../src/rest/data-endpoints.ts';
import { ENDPOINTS } from '../../src/rest/endpoints.ts';
import { newPage } from '../support/browser/launch.ts';
import { useSiteAndBrowser } from './setup.ts';
import { EXPECTED_404, PAGES, STATIC_PAGES } from './pages.ts';

const env = useSiteAndBrowser();

/** Elements whose text is not prose: code blocks keep their own spacing, scripts and styles are not read. */
const NOT_PROSE = new Set(['script', 'style', 'pre', 'template']);

/** The prose of a page as a reader gets it: the text outside {@link NOT_PROSE}, entities decoded. */
function proseOf(html: string): string {
  let skipping = 0;
  let text = '';
  const parser = new Parser({
    onopentagname: (name) => void (NOT_PROSE.has(name) && skipping++),
    onclosetag: (name) => void (NOT_PROSE.has(name) && skipping--),
    ontext: (chunk) => void (skipping === 0 && (text += chunk)),
  });
  parser.end(html);
  return text;
}

/** A word glued to the one before across a comma or semicolon: a space the build dropped. */
const GLUED = /[a-z)][,;][A-Za-z(]/g;

describe('the documentation site', () => {
  it('keeps the space before an inline element that starts a new source line, on every page', async () => {
    for (const path of PAGES) {
      const prose = proseOf(await (await fetch(`${env.service.baseUrl}${path}`)).text());
      const glued = [...prose.matchAll(GLUED)].map((m) =>
        prose.slice(Math.max(0, m.index - 20), m.index + 20),
      );
      expect(glued, path).toEqual([]);
    }
    // The phrase that showed the fault, as the changelog renders it.
    const changelog = proseOf(await (await fetch(`${env.service.baseUrl}/changelog`)).text());
    expect(changelog.replace(/\s+/g, ' ')).toContain('flags such as wet, gusty or cold');
  });

  it('names its own origin in the examples of /docs and /docs/mcp, as /reference does, keeping the canonical link', async () => {
    const production = 'https://wind-on-segment.vercel.app';
    for (const path of ['/docs', '/docs/mcp', '/docs/routes']) {
      const html = await (await fetch(`${env.service.baseUrl}${path}`)).text();
      // Only an element marked data-as-built keeps the deployed address on purpose (/docs/mcp's public MCP address).
      const main = html
        .slice(html.indexOf('<main'), html.lastIndexOf('</main>'))
        .replaceAll(/<code data-as-built>[^<]*<\/code>/g, '');
      expect(main, path).not.toContain(production);
      expect(html, path).toContain(`<link rel="canonical" href="${production}${path}">`);
    }
    const docs = await (await fetch(`${env.service.baseUrl}/docs`)).text();
    expect(docs).toContain(`curl &#39;${env.service.baseUrl}/v1/tailwind?`);
    const mcp = await (await fetch(`${env.service.baseUrl}/docs/mcp`)).text();
    expect(mcp).toContain(`${env.service.baseUrl}/mcp`);
    const { page, close } = await newPage(env.browser);
    await page.goto(`${env.service.baseUrl}/docs`);
    expect(await page.locator('main').textContent()).toContain(`${env.service.baseUrl}/v1/tailwind?`);
    await close();
  });

  it('sets the schema descriptions’ backticked names as code in the docs tables, showing no backtick', async () => {
    const { page, close } = await newPage(env.browser);
    for (const path of ['/docs', '/docs/mcp']) {
      await page.goto(`${env.service.baseUrl}${path}`);
      const cells = await page.locator('main td').allTextContents();
      expect(
        cells.filter((cell) => cell.includes('`')),
        path,
      ).toEqual([]);
    }
    await page.goto(`${env.service.baseUrl}/docs`);
    const effect = page
      .locator('main tr', { has: page.locator('td:first-child code', { hasText: /^effect$/ }) })
      .first();
    expect(await effect.locator('td').last().locator('code').allTextContents()).toEqual([
      'calm',
      'crosswind',
    ]);
    await close();
  });

  it('has a heading for every problem code (API, account, billing), with the id the answers link to', async () => {
    const { page, problems, close } = await newPage(env.browser);
    await page.goto(`${env.service.baseUrl}/docs`);
    for (const code of Object.keys(PROBLEM_CODES) as ProblemCode[]) {
      const heading = page.locator(`h3#${problemAnchor(code)}`);
      expect(await heading.count(), code).toBe(1);
      expect(await heading.textContent()).toContain(code);
    }
    // The settings and billing codes, one level down under "Account and billing errors".
    for (const code of Object.keys(ACCOUNT_PROBLEM_CODES) as AccountProblemCode[]) {
      const heading = page.locator(`h4#${problemAnchor(code)}`);
      expect(await heading.count(), code).toBe(1);
      expect(await heading.textContent()).toContain(code);
    }
    expect(problems()).toEqual([]);
    await close();
  });

  it('lands a live problem’s type URL on its explanation', async () => {
    const problem = (await (await fetch(`${env.service.baseUrl}/v1/tailwind?wind_speed_kmh=x`)).json()) as {
      type: string;
      code: ProblemCode;
    };
    expect(problem.type).toBe(`${env.service.baseUrl}/docs#${problemAnchor(problem.code)}`);
    const { page, close } = await newPage(env.browser);
    await page.goto(problem.type);
    const target = page.locator(`#${problemAnchor(problem.code)}`);
    await expect.poll(() => target.isVisible()).toBe(true);
    const box = await target.boundingBox();
    expect(box?.y).toBeLessThan(200);
    await close();
  });

  it('prices the plans exactly as /v1/plans serves them', async () => {
    const catalog = (await (await fetch(`${env.service.baseUrl}/v1/plans`)).json()) as {
      plans: { id: string; name: string; price: { eur: string; usd: string }; features: string[] }[];
      trial: { days: number; how_to_start: string };
    };
    const { page, close } = await newPage(env.browser);
    await page.goto(`${env.service.baseUrl}/pricing`);
    const cards = page.locator('[data-plan]');
    expect(await cards.evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-plan')))).toEqual(
      catalog.plans.map((plan) => plan.id),
    );
    for (const plan of catalog.plans) {
      const card = page.locator(`[data-plan="${plan.id}"]`);
      expect(await card.locator('h2').textContent()).toBe(plan.name);
      expect(await card.locator('[data-currency="eur"]').textContent()).toBe(plan.price.eur);
      expect(await card.locator('[data-currency="usd"]').textContent()).toBe(plan.price.usd);
      expect(await card.locator('li').allTextContents()).toEqual(plan.features);
    }
    expect(await page.locator('[data-trial-days]').getAttribute('data-trial-days')).toBe(
      String(catalog.trial.days),
    );
    expect(await page.locator('[data-trial-days]').textContent()).toBe(catalog.trial.how_to_start);
    await close();
  });

  it('shows the "Pay in" switch only where payments are taken, and there it picks the price each Buy charges', async () => {
    const off = await newPage(env.browser);
    await off.page.goto(`${env.service.baseUrl}/pricing`);
    await expect.poll(() => off.page.locator('#payments-off').isVisible()).toBe(true);
    // The fieldset is `hidden`; its `display: flex` used to show it anyway, a switch that did nothing.
    expect(await off.page.locator('#buy-controls').isVisible()).toBe(false);
    expect(await off.page.getByRole('radio').count()).toBe(0);
    expect(await off.page.locator('main').textContent()).not.toContain('No plan is discounted');
    expect(off.problems()).toEqual([]);
    await off.close();

    const on = await newPage(env.browser);
    await on.page.route('**/api/billing/status', (route) =>
      route.fulfill({ json: { payments_enabled: true }, headers: { 'cache-control': 'no-store' } }),
    );
    await on.page.goto(`${env.service.baseUrl}/pricing`);
    const monthly = on.page.locator('button[data-buy="pro_monthly"]');
    await expect.poll(() => monthly.textContent()).toBe('Buy Pro Monthly for €4.99');
    expect(await on.page.locator('#payments-off').isVisible()).toBe(false);
    await on.page.getByRole('radio', { name: 'US dollars (USD)' }).check();
    await expect.poll(() => monthly.textContent()).toBe('Buy Pro Monthly for $5.49');
    expect(await on.page.locator('button[data-buy="pro_lifetime"]').textContent()).toBe(
      'Buy Pro Lifetime for $165',
    );
    const weight = (selector: string) =>
      on.page
        .locator(`[data-plan="pro_monthly"] ${selector}`)
        .evaluate((node) => getComputedStyle(node).fontWeight);
    expect([await weight('.usd'), await weight('.eur')]).toEqual(['700', '400']);
    expect(on.problems()).toEqual([]);
    await on.close();
  });

  it('renders every operation of the endpoint tables in the API reference', async () => {
    const { page, problems, close } = await newPage(env.browser, { viewport: { width: 1400, height: 900 } });
    await page.goto(`${env.service.baseUrl}/reference`);
    const doc = (await (await fetch(`${env.service.baseUrl}/openapi.json`)).json()) as {
      paths: Record<string, { get: { summary: string } }>;
    };
    const tables = { ...ENDPOINTS, ...DATA_ENDPOINTS };
    expect(Object.keys(doc.paths).sort()).toEqual(Object.keys(tables).sort());
    const summaries = Object.values(doc.paths).map((item) => item.get.summary);
    expect(summaries.sort()).toEqual(
      Object.values(tables)
        .map((endpoint) => endpoint.summary)
        .sort(),
    );
    for (const summary of summaries) {
      await expect
        .poll(() => page.getByText(summary, { exact: true }).first().count(), { timeout: 15_000 })
        .toBeGreaterThan(0);
    }
    expect(problems()).toEqual([]);
    await close();
  });

  it.each(STATIC_PAGES)('ships no JavaScript on %s', async (path) => {
    const { page, close } = await newPage(env.browser);
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(request.url());
    });
    await page.goto(`${env.service.baseUrl}${path}`);
    expect(await page.locator('script').count()).toBe(0);
    expect(scripts).toEqual([]);
    await close();
  });

  it('serves its security headers and a CSP the pages satisfy', async () => {
    const response = await fetch(`${env.service.baseUrl}/docs`);
    expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(await response.text()).toContain('http-equiv="content-security-policy"');
  });

  it('links previews and icons to files that exist, each with a cache policy', async () => {
    const html = await (await fetch(`${env.service.baseUrl}/`)).text();
    const urls = [
      ...html.matchAll(/<(?:meta property="og:image" content|link rel="icon" href)="([^"]+)"/g),
    ].map((match) => new URL(match[1] ?? '', env.service.baseUrl).pathname);
    expect(urls).toEqual(expect.arrayContaining(['/og.png', '/favicon.svg']));
    for (const path of urls) {
      const response = await fetch(`${env.service.baseUrl}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('cache-control'), path).toMatch(/max-age/);
    }
  });

  it('answers an unknown page with the site’s 404 page', async () => {
    const { page, close } = await newPage(env.browser, { allow: [EXPECTED_404] });
    const response = await page.goto(`${env.service.baseUrl}/no-such-page`);
    expect(response?.status()).toBe(404);
    expect(await page.locator('h1').textContent()).toBe('Page not found');
    await close();
  });

  it.each(PAGES)('gives %s a title, a description and no horizontal scroll on a phone', async (path) => {
    const { page, problems, close } = await newPage(env.browser, {
      viewport: { width: 360, height: 740 },
      allow: [EXPECTED_404],
    });
    await page.goto(`${env.service.baseUrl}${path}`);
    expect(await page.title()).toMatch(/ · wind-on-segment$/);
    expect(await page.locator('meta[name="description"]').getAttribute('content')).toMatch(/^.{40,}$/);
    expect(await page.locator('meta[property="og:title"]').count()).toBe(1);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    expect(problems()).toEqual([]);
    await close();
  });
});
