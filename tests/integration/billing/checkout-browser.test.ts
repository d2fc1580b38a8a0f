/**
 * The checkout path in Chromium: a signed-out visitor picks Pro Monthly on
 * the pricing page, signs up, comes back to the plan they picked, is sent
 * to Checkout (the Stripe test double), pays, and lands on the success page
 * with Pro active, which settings then shows. Without payments configured,
 * the pricing page says so and shows no Buy button.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findRiderByEmail } from '../../../src/store/repositories/riders.ts';
import { findPaidPlan } from '../../../src/store/repositories/billing.ts';
import { startPageHost, type PageHost } from '../../auth/support/pages.ts';
import { startAuthServer, type AuthServer } from '../../auth/support/server.ts';
import { sqliteTestStore, type TestStore } from '../../auth/support/stores.ts';
import { launchBrowser, newPage } from '../../support/browser/launch.ts';
import { startBillingWorld, type BillingWorld } from '../../billing/support.ts';

let db: TestStore;
let bare: TestStore;
let pages: PageHost;
let browser: Browser;
let world: BillingWorld;
let unpaid: AuthServer;

beforeAll(async () => {
  [db, bare, pages, browser] = await Promise.all([
    sqliteTestStore(),
    sqliteTestStore(),
    startPageHost(),
    launchBrowser(),
  ]);
  world = await startBillingWorld(db.store, { pages: pages.handle });
  unpaid = await startAuthServer({ store: bare.store, pages: pages.handle });
}, 240_000);
afterAll(async () => {
  await browser?.close();
  await Promise.all([world?.close(), unpaid?.close(), pages?.stop()]);
  await Promise.all([db?.dispose(), bare?.dispose()]);
});

describe('buying Pro in the browser', () => {
  it('pricing → sign up → back to the plan → Checkout → Pay → success page → settings', async () => {
    // The double's bare pages have no favicon; the browser asks for one anyway.
    const { page, problems, close } = await newPage(browser, { allow: [/favicon\.ico/] });
    try {
      await page.goto(`${world.server.origin}/pricing?plan=pro_monthly`);
      const buy = page.locator('button[data-buy="pro_monthly"]');
      await buy.waitFor({ state: 'visible' });
      expect(await page.locator('#payments-off').isHidden()).toBe(true);
      await buy.click();

      await page.waitForURL(/\/signup\?return=/);
      await page.fill('#email', 'browser.buyer@example.com');
      await page.fill('#password', 'browser buyer passphrase');
      await page.click('#account-submit');

      await page.waitForURL(/\/pricing\?plan=pro_monthly&currency=eur/);
      await expect
        .poll(() => page.locator('[data-plan="pro_monthly"]').getAttribute('class'))
        .toContain('selected');
      await page.locator('button[data-buy="pro_monthly"]').click();

      await page.waitForURL((url) => url.href.startsWith(`${world.double.origin}/checkout/cs_test_`));
      expect(await page.textContent('#amount')).toContain('4.99 EUR per month');
      await page.click('button[type="submit"]');

      await page.waitForURL(/\/billing\/success\?session_id=cs_test_/);
      await page.locator('#success-done').waitFor({ state: 'visible' });
      expect(await page.textContent('#success-done')).toContain('Pro Monthly');

      const rider = await findRiderByEmail(db.store.db, 'browser.buyer@example.com');
      expect(await findPaidPlan(db.store.db, rider?.id ?? '')).toMatchObject({
        planId: 'pro_monthly',
        status: 'active',
      });

      await page.goto(`${world.server.origin}/settings`);
      await page.locator('#settings-signed-in').waitFor({ state: 'visible' });
      expect(await page.textContent('#account-plan')).toBe('Pro Monthly');
      expect(await page.locator('#billing-renewal-row').isVisible()).toBe(true);
      expect(await page.textContent('#billing-payment')).toMatch(/4\.99/);
      expect(await page.locator('#billing-manage').isVisible()).toBe(true);
      expect(problems()).toEqual([]);
    } finally {
      await close();
    }
  });

  it('says payments are not set up, with no Buy button, where Stripe is not configured', async () => {
    const { page, problems, close } = await newPage(browser, { allow: [/billing\/status/] });
    try {
      await page.goto(`${unpaid.origin}/pricing?plan=pro_monthly`);
      await page.locator('#payments-off').waitFor({ state: 'visible' });
      expect(await page.textContent('#payments-off')).toMatch(/not set up on this deployment/);
      expect(await page.locator('button[data-buy]:visible').count()).toBe(0);
      expect(problems()).toEqual([]);
    } finally {
      await close();
    }
  });
});
