import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevServer, type RunningService } from '../support/service.ts';

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
    const page = await fetch(`${dev.baseUrl}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Tailwind calculator');
  });
});
