import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/** The calculator's route steps shared by `calculator-route.test.ts` and its axe checks. */
const FIXTURES = new URL('../fixtures/routes/', import.meta.url);

/** A route file of `tests/fixtures/routes/`, as text. */
export const fixture = (name: string): string => readFileSync(new URL(name, FIXTURES), 'utf8');

/** Gives the calculator's file input a route, as a drop or a pick would. */
export async function pickFile(page: Page, name: string, buffer: Buffer): Promise<void> {
  await page.locator('#route-file').setInputFiles({ name, mimeType: 'application/octet-stream', buffer });
}

/** Waits until the route named `name` is drawn and judged. */
export async function waitForRoute(page: Page, name: string): Promise<void> {
  await page.locator('#route-result').waitFor({ state: 'visible' });
  await expect.poll(() => page.locator('#route-name').textContent()).toBe(name);
}
