import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
});
