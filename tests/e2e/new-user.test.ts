/**
 * What a new user tripped on (issue 27, item 5), each seen in Chromium: the
 * menu's sign-in link and a signed-in rider's state, the footer on a short
 * page, the calculator's coordinate fields and the guides' tables on a
 * phone.
 */
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from '../support/browser/axe.ts';
import { newPage } from '../support/browser/launch.ts';
import { EXPECTED_404, PAGES, STATIC_PAGES } from './pages.ts';
import { useSiteAndBrowser } from './setup.ts';

const env = useSiteAndBrowser();
const PHONE = { width: 390, height: 844 } as const;
/** The pages that read the session for their own content. */
const ACCOUNT_PAGES: readonly string[] = [
  '/settings',
  '/consent',
  '/connect-error',
  '/billing/success',
  '/billing/cancel',
];

const accountLink = (page: Page) => page.locator('header nav a[data-account-link]');

describe('the top menu', () => {
  it('offers "Sign in" on every page, asking nothing of the server for a visitor who never signed in', async () => {
    const { page, context, problems, close } = await newPage(env.browser, { allow: [EXPECTED_404] });
    const askedOn = new Set<string>();
    // Four tabs at a time: each page waits for half a second without a request (`networkidle`), so
    // that a late one is seen too, and those waits overlap instead of adding up.
    const tabs = [page, ...(await Promise.all([1, 2, 3].map(() => context.newPage())))];
    const queue = [...PAGES];
    await Promise.all(
      tabs.map(async (tab) => {
        for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
          const asked = (request: { url(): string }) => {
            if (request.url().includes('/api/auth/')) askedOn.add(path ?? '');
          };
          tab.on('request', asked);
          await tab.goto(`${env.service.baseUrl}${path}`, { waitUntil: 'networkidle' });
          tab.off('request', asked);
          expect(await accountLink(tab).textContent(), path).toBe('Sign in');
          expect(await accountLink(tab).getAttribute('href'), path).toBe('/login');
        }
      }),
    );
    // Only the account pages ask for the session themselves; the menu asks nothing.
    expect([...askedOn].filter((asked) => !ACCOUNT_PAGES.includes(asked))).toEqual([]);
    expect(problems()).toEqual([]);
    await close();
  });

  it('shows a signed-in rider on the pages with a script, until they sign out', async () => {
    const { page, problems, close } = await newPage(env.browser);
    const email = `menu-${randomUUID().slice(0, 8)}@example.com`;
    await page.goto(`${env.service.baseUrl}/signup`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('a menu passphrase');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(/\/settings$/);
    await expect.poll(() => accountLink(page).textContent()).toBe(`Signed in as ${email}`);
    for (const path of ['/', '/pricing', '/reference']) {
      await page.goto(`${env.service.baseUrl}${path}`);
      await expect
        .poll(() => accountLink(page).textContent(), { message: path })
        .toBe(`Signed in as ${email}`);
      expect(await accountLink(page).getAttribute('href')).toBe('/settings');
    }
    await expectNoAxeViolations(page, '/reference signed in');
    // The guides and the changelog promise no JavaScript: their menu keeps the plain link.
    for (const path of STATIC_PAGES) {
      await page.goto(`${env.service.baseUrl}${path}`);
      expect(await accountLink(page).textContent(), path).toBe('Sign in');
    }
    await page.setViewportSize(PHONE);
    await page.goto(`${env.service.baseUrl}/`);
    await expect.poll(() => accountLink(page).textContent()).toBe(`Signed in as ${email}`);
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
    ).toBeLessThanOrEqual(0);
    await page.goto(`${env.service.baseUrl}/settings`);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/login$/);
    expect(await accountLink(page).textContent()).toBe('Sign in');
    await page.goto(`${env.service.baseUrl}/`, { waitUntil: 'networkidle' });
    expect(await accountLink(page).textContent()).toBe('Sign in');
    expect(problems()).toEqual([]);
    await close();
  });

  it('forgets a signed-in note whose session has ended', async () => {
    const { page, context, close } = await newPage(env.browser);
    await context.addInitScript(() => localStorage.setItem('wos-signed-in', '1'));
    await page.goto(`${env.service.baseUrl}/`, { waitUntil: 'networkidle' });
    expect(await accountLink(page).textContent()).toBe('Sign in');
    expect(await page.evaluate(() => localStorage.getItem('wos-signed-in'))).toBeNull();
    await close();
  });
});

describe('the layout', () => {
  it.each(['/no-such-page', '/billing/cancel', '/login'])(
    'ends %s with the footer at the bottom of the window, no band below it',
    async (path) => {
      for (const viewport of [{ width: 1280, height: 1200 }, PHONE]) {
        const { page, close } = await newPage(env.browser, { viewport, allow: [EXPECTED_404] });
        await page.goto(`${env.service.baseUrl}${path}`);
        const bottom = await page.locator('footer.site-footer').evaluate((footer) => {
          const box = footer.getBoundingClientRect();
          return box.bottom + window.scrollY;
        });
        const height = await page.evaluate(() => document.documentElement.scrollHeight);
        expect(
          Math.abs(bottom - Math.max(height, viewport.height)),
          `${path} at ${viewport.width}`,
        ).toBeLessThan(1);
        await close();
      }
    },
  );

  it('keeps each line of coordinate fields aligned on a phone', async () => {
    const { page, problems, close } = await newPage(env.browser, { viewport: PHONE });
    await page.goto(`${env.service.baseUrl}/`);
    const tops = async (names: readonly string[]) =>
      Promise.all(
        names.map((name) =>
          page.locator(`#${name}`).evaluate((input) => input.parentElement?.getBoundingClientRect().top ?? 0),
        ),
      );
    for (const line of [
      ['start_lat', 'start_lon'],
      ['end_lat', 'end_lon'],
      ['wind_speed_kmh', 'wind_direction_deg'],
    ]) {
      const [left = 0, right = 0] = await tops(line);
      expect(Math.abs(left - right), line.join(' and ')).toBeLessThan(1);
    }
    await expectNoAxeViolations(page, '/ on a phone');
    // An error under one field of a line does not move the other field's input either.
    await page.getByLabel('Start latitude', { exact: true }).fill('100');
    await expect.poll(() => page.locator('#start_lat-error').isVisible()).toBe(true);
    const [left = 0, right = 0] = await tops(['start_lat', 'start_lon']);
    expect(Math.abs(left - right)).toBeLessThan(1);
    expect(problems()).toEqual([]);
    await close();
  });

  it.each(['/docs', '/docs/mcp', '/docs/routes'])(
    'fits every table of %s on a phone, the meaning column on screen',
    async (path) => {
      const { page, problems, close } = await newPage(env.browser, { viewport: PHONE });
      await page.goto(`${env.service.baseUrl}${path}`);
      const scrolling = await page
        .locator('main .table-scroll')
        .evaluateAll((boxes) =>
          boxes
            .filter((box) => box.scrollWidth > box.clientWidth + 1)
            .map((box) => box.textContent?.slice(0, 60)),
        );
      expect(scrolling).toEqual([]);
      const offScreen = await page
        .locator('main td')
        .evaluateAll(
          (cells) =>
            cells.filter((cell) => cell.getBoundingClientRect().right > window.innerWidth + 1).length,
        );
      expect(offScreen).toBe(0);
      await expectNoAxeViolations(page, `${path} on a phone`);
      expect(problems()).toEqual([]);
      await close();
    },
  );
});
