import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WindForecastResult } from '../../../src/rest/schemas/forecast-result.ts';
import type { SegmentDetailResult, SegmentsNearResult } from '../../../src/rest/schemas/segment-results.ts';
import { startDevServer, type RunningService } from '../../support/service.ts';

let dev: RunningService;

beforeAll(async () => {
  dev = await startDevServer();
});
afterAll(() => dev?.stop());

describe('npm run dev', () => {
  it('serves the API beside the pages', async () => {
    const api = await fetch(
      `${dev.baseUrl}/v1/tailwind?wind_speed_kmh=20&wind_direction_deg=250&segment_bearing_deg=80`,
    );
    expect(api.status, await api.clone().text()).toBe(200);
    expect(await api.json()).toMatchObject({
      signed_tailwind_kmh: 19.7,
      crosswind_kmh: 3.5,
      effect: 'tailwind',
    });
    // Vite optimises dependencies on the first page request and may restart once: ask until it answers.
    const page = async () => {
      const response = await fetch(`${dev.baseUrl}/`);
      return response.ok ? response.text() : `HTTP ${response.status}`;
    };
    await expect.poll(page, { timeout: 30_000, interval: 500 }).toContain('Tailwind calculator');
  });

  it('answers the data endpoints from the demo forecast and the seed catalog, as npm start does', async () => {
    const near = await fetch(`${dev.baseUrl}/v1/segments?place=${encodeURIComponent('Andorra la Vella')}`);
    expect(near.status, await near.clone().text()).toBe(200);
    const found = (await near.json()) as SegmentsNearResult;
    expect(found.forecast.demo).toBe(true);
    expect(found.segments.length).toBeGreaterThan(0);
    const first = found.segments[0];
    if (!first) throw new Error('no segment near Andorra la Vella');

    const one = await fetch(`${dev.baseUrl}/v1/segments/${encodeURIComponent(first.id)}`);
    expect(one.status, await one.clone().text()).toBe(200);
    const detail = (await one.json()) as SegmentDetailResult;
    expect(detail.segment.id).toBe(first.id);
    expect(detail.hours.length).toBeGreaterThan(0);

    const [lon, lat] = first.line[0] ?? [];
    const wind = await fetch(`${dev.baseUrl}/v1/wind?lat=${lat}&lon=${lon}`);
    expect(wind.status, await wind.clone().text()).toBe(200);
    expect(((await wind.json()) as WindForecastResult).hours.length).toBeGreaterThan(0);
  });
});
