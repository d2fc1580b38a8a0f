import fc from 'fast-check';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { newPage, type CheckedPage } from '../support/browser/launch.ts';

import { useSiteAndBrowser } from './setup.ts';

const env = useSiteAndBrowser();

const LABELS = {
  wind_speed_kmh: 'Wind speed',
  wind_direction_deg: 'Wind direction',
  segment_bearing_deg: 'Segment bearing',
  start_lat: 'Start latitude',
  start_lon: 'Start longitude',
  end_lat: 'End latitude',
  end_lon: 'End longitude',
} as const;

async function open(query = ''): Promise<CheckedPage> {
  const checked = await newPage(env.browser);
  await checked.page.goto(`${env.service.baseUrl}/${query}`);
  return checked;
}

async function fill(page: Page, values: Partial<Record<keyof typeof LABELS, string>>): Promise<void> {
  for (const [name, label] of Object.entries(LABELS)) {
    const value = values[name as keyof typeof LABELS];
    if (value !== undefined) await page.getByLabel(label, { exact: true }).fill(value);
  }
}

async function shown(page: Page) {
  return {
    signed: Number(await page.locator('#signed').textContent()),
    crosswind: Number(await page.locator('#crosswind').textContent()),
    effect: (await page.locator('#effect').textContent())?.trim(),
    bearing: Number(await page.locator('#bearing-used').textContent()),
  };
}

async function api(path: string): Promise<Record<string, unknown>> {
  return (await fetch(`${env.service.baseUrl}${path}`)).json() as Promise<Record<string, unknown>>;
}

describe('the calculator in Chromium', () => {
  it('shows the worked example when a rider types 20, 250, 80', async () => {
    const { page, problems, close } = await open();
    await fill(page, { wind_speed_kmh: '', wind_direction_deg: '', segment_bearing_deg: '' });
    await fill(page, { wind_speed_kmh: '20', wind_direction_deg: '250', segment_bearing_deg: '80' });
    await expect.poll(() => shown(page)).toMatchObject({ signed: 19.7, crosswind: 3.5, effect: 'tailwind' });
    await expect.poll(() => page.getByText('19.7', { exact: true }).isVisible()).toBe(true);
    expect(problems()).toEqual([]);
    await close();
  });

  it('takes the bearing from coordinates exactly as /v1/bearing does', async () => {
    const { page, close } = await open();
    const points = { start_lat: '51.5007', start_lon: '-0.1246', end_lat: '48.8584', end_lon: '2.2945' };
    await fill(page, points);
    const bearing = await api(`/v1/bearing?${new URLSearchParams(points)}`);
    await expect.poll(() => page.locator('#bearing-used').textContent()).toBe(String(bearing['bearing_deg']));
    await expect(page.locator('#bearing-compass').textContent()).resolves.toBe(bearing['compass']);
    await expect(page.locator('#bearing-source').textContent()).resolves.toContain('coordinates');
    await close();
  });

  it('explains an invalid value in the form’s words, not the API’s', async () => {
    const { page, problems, close } = await open();
    await fill(page, { wind_speed_kmh: '400' });
    const problem = await api(
      '/v1/tailwind?wind_speed_kmh=400&wind_direction_deg=250&segment_bearing_deg=80',
    );
    const message = page.locator('#wind_speed_kmh-error');
    await expect.poll(() => message.isVisible()).toBe(true);
    // The API's hint names its parameter (wind_speed_kmh); the form says it as its label does.
    expect(problem['hint']).toContain('wind_speed_kmh');
    expect(await message.textContent()).toBe(
      'Enter the wind speed in km/h: a number from 0 to 300, for example 20.',
    );
    expect(await page.locator('#problem').textContent()).toBe(await message.textContent());
    expect(await page.getByLabel('Wind speed', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    await fill(page, { wind_speed_kmh: '30' });
    await expect.poll(() => message.isVisible()).toBe(false);
    expect(problems()).toEqual([]);
    await close();
  });

  it('keeps its state in the URL, so a shared link shows the same result', async () => {
    const first = await open();
    await fill(first.page, { wind_speed_kmh: '31', wind_direction_deg: '305', segment_bearing_deg: '12.5' });
    // The URL follows replaceState asynchronously: wait for the last field typed.
    await expect.poll(() => first.page.url()).toContain('segment_bearing_deg=12.5');
    const shared = first.page.url();
    const expected = await shown(first.page);
    await first.close();
    const second = await newPage(env.browser);
    await second.page.goto(shared);
    expect(await second.page.getByLabel('Segment bearing', { exact: true }).inputValue()).toBe('12.5');
    await expect.poll(() => shown(second.page)).toEqual(expected);
    await second.close();
  });

  it('offers the equivalent API request, which answers the same numbers', async () => {
    const { page, close } = await open('?wind_speed_kmh=18&wind_direction_deg=190&segment_bearing_deg=200');
    const href = await page.locator('#api-url').getAttribute('href');
    expect(await page.locator('#curl').textContent()).toBe(`curl '${env.service.baseUrl}${href}'`);
    const body = await api(href ?? '');
    expect(await shown(page)).toEqual({
      signed: body['signed_tailwind_kmh'],
      crosswind: body['crosswind_kmh'],
      effect: body['effect'],
      bearing: body['segment_bearing_deg'],
    });
    await close();
  });

  it('agrees with /v1/tailwind on 50 random inputs', async () => {
    const { page, close } = await open();
    const inputs = fc.sample(
      fc.record({
        wind_speed_kmh: fc.double({ min: 0, max: 300, noNaN: true }),
        wind_direction_deg: fc.double({ min: 0, max: 360, noNaN: true }),
        segment_bearing_deg: fc.double({ min: 0, max: 360, noNaN: true }),
      }),
      { numRuns: 50, seed: 20261121 },
    );
    for (const input of inputs) {
      const values = Object.fromEntries(
        Object.entries(input).map(([k, v]) => [k, String(Math.round(v * 100) / 100)]),
      );
      await fill(page, values);
      const body = await api(`/v1/tailwind?${new URLSearchParams(values)}`);
      await expect
        .poll(() => shown(page))
        .toEqual({
          signed: body['signed_tailwind_kmh'],
          crosswind: body['crosswind_kmh'],
          effect: body['effect'],
          bearing: body['segment_bearing_deg'],
        });
    }
    await close();
  });
});
