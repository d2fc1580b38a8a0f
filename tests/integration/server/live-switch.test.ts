/**
 * The one switch, end to end, as a user runs it: `npm start -- --live` with the base URL settings
 * pointing at doubles that speak each service's wire format (Open-Meteo's forecast and ensemble,
 * Overpass, Open-Meteo's elevation API) answers forecasts from them on roads discovered from them,
 * and its start log names every source and its URL. Then the same switch with every live address
 * unreachable (a closed port: what a machine without network meets): the start log and `/health`
 * say so, REST answers `forecast_unreachable`, MCP says it in one sentence, and the segment page in
 * Chromium still shows the segment, its map and profile with one sentence about the wind.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keepOffline } from '../../../scripts/browser/offline.ts';
import { freePort, launchOnFreePort, type RunningService } from '../../../scripts/service/launch.ts';
import { readOsmFile } from '../../../src/data/discovery/osm-file.ts';
import { DEFAULT_MAP_STYLE_URL } from '../../../src/components/map/map-style.ts';
import type { SegmentDetailResult, SegmentsNearResult } from '../../../src/rest/schemas/segment-results.ts';
import type { Health } from '../../../src/rest/schemas/results.ts';
import { expectNoAxeViolations } from '../../support/browser/axe.ts';
import { launchBrowser, newPage } from '../../support/browser/launch.ts';
import { startElevationDouble, type ElevationDouble } from '../../support/elevation-double.ts';
import { connectClient, toolErrorText } from '../../support/mcp-client.ts';
import { startOpenMeteoDouble, type OpenMeteoDouble } from '../../support/open-meteo-double.ts';
import { startOverpassDouble, type OverpassDouble } from '../../support/overpass-double.ts';

/** Ordino, Andorra: inside the Overpass double's extract and the elevation double's tile. */
const ORDINO = { lat: 42.5558, lon: 1.5331 };

/** `npm start -- --live` on a free port, with a store of its own and these addresses. */
async function startLive(env: Record<string, string>): Promise<RunningService> {
  const database = join(mkdtempSync(join(tmpdir(), 'wos-live-')), 'wind-on-segment.sqlite');
  return launchOnFreePort('npm', ['start', '--silent', '--', '--live'], {
    env: (port) => ({
      ...process.env,
      ...env,
      WOS_DATABASE_PATH: database,
      PORT: String(port),
      HOST: '127.0.0.1',
    }),
  });
}

async function json<T>(service: RunningService, path: string): Promise<{ status: number; body: T }> {
  const response = await fetch(`${service.baseUrl}${path}`);
  return { status: response.status, body: (await response.json()) as T };
}

/** Waits until the start log has printed its line for every source. */
async function sourceLines(service: RunningService): Promise<string> {
  await expect.poll(() => service.output(), { timeout: 20_000 }).toMatch(/^elevation: /m);
  return service.output();
}

let openMeteo: OpenMeteoDouble;
let overpass: OverpassDouble;
let elevation: ElevationDouble;
let withDoubles: RunningService;
let offline: RunningService;
let closedUrl: string;
let browser: Browser;

beforeAll(async () => {
  [openMeteo, overpass, elevation] = await Promise.all([
    startOpenMeteoDouble(),
    readOsmFile('seed/osm/andorra.osm.pbf').then(startOverpassDouble),
    startElevationDouble('seed/dem'),
  ]);
  // A port nothing listens on: every request is refused at once, as with no network.
  closedUrl = `http://127.0.0.1:${await freePort()}`;
  [withDoubles, offline, browser] = await Promise.all([
    startLive({
      WOS_FORECAST_URL: openMeteo.forecastUrl,
      WOS_ENSEMBLE_URL: openMeteo.ensembleOrigin,
      WOS_GEOCODER_URL: closedUrl,
      WOS_OVERPASS_URL: overpass.url,
      WOS_ELEVATION_URL: elevation.url,
    }),
    startLive({
      WOS_FORECAST_URL: `${closedUrl}/v1/forecast`,
      WOS_ENSEMBLE_URL: closedUrl,
      WOS_GEOCODER_URL: closedUrl,
      WOS_OVERPASS_URL: `${closedUrl}/api/interpreter`,
      WOS_ELEVATION_URL: `${closedUrl}/v1/elevation`,
    }),
    launchBrowser(),
  ]);
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await Promise.all([withDoubles?.stop(), offline?.stop()]);
  await Promise.all([openMeteo?.close(), overpass?.close(), elevation?.close()]);
});

describe('npm start -- --live against the wire-format doubles', () => {
  it('prints one line per source at start: live, and the URL it reads', async () => {
    const log = await sourceLines(withDoubles);
    expect(log).toMatch(/^data: live/m);
    expect(log).toContain(`forecast: live, Open-Meteo at ${openMeteo.forecastUrl} (reachable)`);
    expect(log).toContain(`discovery: live, Overpass at ${overpass.url} (reachable)`);
    expect(log).toContain(`elevation: live, Open-Meteo elevation at ${elevation.url} (reachable)`);
    // The ensemble goes live with the switch only with a key: it says so, and how to ask for it anyway.
    expect(log).toMatch(/^ensemble: off: live turns it on only with OPEN_METEO_API_KEY/m);
  });

  it('answers forecasts from the forecast double on segments discovered from the Overpass double', async () => {
    const asked = `/v1/segments?lat=${ORDINO.lat}&lon=${ORDINO.lon}&radius_km=5`;
    let list: SegmentsNearResult | undefined;
    // Discovery answers within its budget and maps the rest behind the answer: ask until it is mapped.
    await expect
      .poll(
        async () => {
          list = (await json<SegmentsNearResult>(withDoubles, asked)).body;
          return list.mapping === undefined && list.segments.length > 0;
        },
        { timeout: 60_000, interval: 1_000 },
      )
      .toBe(true);
    expect(overpass.requests()).toBeGreaterThan(0);
    expect(elevation.requests()).toBeGreaterThan(0);
    expect(list?.forecast).toMatchObject({ source: 'open-meteo', demo: false, stale: false });
    expect(list?.forecast.issued_at).not.toBeNull();
    expect(list?.segments.some((segment) => segment.source === 'discovered')).toBe(true);
    expect(list?.segments.some((segment) => segment.window_status !== 'no_forecast')).toBe(true);
    expect(openMeteo.forecast.requests()).toBeGreaterThan(0);
  });

  it('reports each source on /health, live and answering', async () => {
    const { body } = await json<Health>(withDoubles, '/health');
    expect(body.status).toBe('ok');
    const forecast = body.sources?.find((source) => source.name === 'forecast');
    expect(forecast).toMatchObject({ mode: 'live', url: openMeteo.forecastUrl, state: 'answering' });
    expect(forecast?.last_ok_at).not.toBeNull();
  });
});

describe('npm start -- --live with no network', () => {
  it('says at start that each live source cannot be reached, and /health says it too', async () => {
    const log = await sourceLines(offline);
    expect(log).toContain(
      `forecast: live, Open-Meteo at ${closedUrl}/v1/forecast: This server cannot reach Open-Meteo (no network or DNS): check its connection.`,
    );
    expect(log).toMatch(/^discovery: live, Overpass at .*: This server cannot reach Overpass/m);
    const { body } = await json<Health>(offline, '/health');
    expect(body.status).toBe('ok');
    expect(body.sources?.filter((source) => source.mode === 'live').map((source) => source.state)).toEqual([
      'unreachable',
      'unreachable',
      'unreachable',
      'unreachable',
    ]);
  });

  it('REST answers its "cannot reach" problem for the wind, and the segments without it', async () => {
    const wind = await fetch(`${offline.baseUrl}/v1/wind?lat=${ORDINO.lat}&lon=${ORDINO.lon}`);
    expect(wind.status).toBe(503);
    expect(wind.headers.get('retry-after')).toBeNull();
    expect(await wind.json()).toMatchObject({
      code: 'forecast_unreachable',
      detail: 'This server cannot reach Open-Meteo (no network or DNS): check its connection.',
    });
    const list = await json<SegmentsNearResult>(offline, `/v1/segments?lat=${ORDINO.lat}&lon=${ORDINO.lon}`);
    expect(list.status).toBe(200);
    expect(list.body.segments.length).toBeGreaterThan(0);
    expect(list.body.forecast.unavailable?.code).toBe('forecast_unreachable');
  });

  it('MCP says the same in one sentence', async () => {
    const client = await connectClient(`${offline.baseUrl}/mcp`, '2026-07-28');
    try {
      const result = await client.callTool({
        name: 'find_tailwind_segments',
        arguments: { latitude: ORDINO.lat, longitude: ORDINO.lon },
      });
      expect(toolErrorText(result)).toBe(
        'This server cannot reach Open-Meteo (no network or DNS): check its connection.',
      );
    } finally {
      await client.close();
    }
  });

  it.each([390, 1280])(
    'at %i px the segment page shows the segment, its map and profile, and one sentence about the wind',
    async (width) => {
      const list = await json<SegmentsNearResult>(
        offline,
        `/v1/segments?lat=${ORDINO.lat}&lon=${ORDINO.lon}`,
      );
      const [segment] = list.body.segments;
      if (!segment) throw new Error('no segment near Ordino');
      const detail = await json<SegmentDetailResult>(offline, `/v1/segments/${segment.id}`);
      expect(detail.body.segment.profile?.length).toBeGreaterThan(1);
      const { page, context, problems, close } = await newPage(browser, {
        viewport: { width, height: 900 },
      });
      await keepOffline(context, offline.baseUrl, { mapStyle: 'local', styleUrl: DEFAULT_MAP_STYLE_URL });
      await page.goto(`${offline.baseUrl}/segments/${segment.id}`);
      await expect.poll(() => page.locator('h1').textContent(), { timeout: 30_000 }).toBe(segment.name);
      await expect
        .poll(() => page.locator('#segment-map').getAttribute('data-map-state'), { timeout: 30_000 })
        .toBe('map');
      expect(await page.locator('#segment-profile svg').count()).toBeGreaterThan(0);
      expect(await page.locator('#segment-facts dd').first().textContent()).toBe(`${segment.length_km} km`);
      const sentences = page.locator('.wind-unavailable');
      expect(await sentences.allTextContents()).toEqual([
        'No wind here for now: this server cannot reach the weather service Open-Meteo (no network or DNS), so its operator should check its connection.',
      ]);
      expect(await page.locator('#segment-timeline-section').isHidden()).toBe(true);
      await expectNoAxeViolations(page, `segment page without the wind at ${width} px`);
      expect(problems()).toEqual([]);
      await close();
    },
    60_000,
  );
});
