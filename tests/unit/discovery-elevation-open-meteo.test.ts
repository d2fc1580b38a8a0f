import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { roundHalfAway } from '../../src/core/round.ts';
import { DiscoveryError, type DiscoveryFailure } from '../../src/data/discovery/discovery-error.ts';
import { hgtElevationSource } from '../../src/data/discovery/hgt-elevation.ts';
import {
  OPEN_METEO_ELEVATION_MAX_POINTS,
  OPEN_METEO_ELEVATION_URL,
  openMeteoElevationSource,
} from '../../src/data/discovery/open-meteo-elevation.ts';
import {
  type ElevationDouble,
  type ElevationFault,
  OVERLAP_DELAY_MS,
  startElevationDouble,
} from '../support/elevation-double.ts';

const SEED = join(import.meta.dirname, '../../seed/dem');

let double: ElevationDouble;
beforeAll(async () => {
  double = await startElevationDouble(SEED, { answerDelayMs: OVERLAP_DELAY_MS });
});
afterEach(() => double.fault(undefined));
afterAll(() => double.close());

/**
 * A climb in Andorra: `n` points from Sant Julià de Lòria (about 42.46° N 1.49° E) up the
 * Valira towards Port d'Envalira (42.54° N 1.72° E), written with up to 7 decimals so the
 * client's rounding to 5 is exercised.
 */
function climb(n: number) {
  return Array.from({ length: n }, (_, i) => ({
    lat: 42.4637123 + (0.0768 * i) / n,
    lon: 1.4912345 + (0.2308 * i) / n,
  }));
}

/** Resolves to the DiscoveryError a call fails with (and fails the test when it succeeds). */
async function failureOf(call: Promise<unknown>): Promise<DiscoveryError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DiscoveryError);
  return error as DiscoveryError;
}

/** One plain sentence: a capital, one full stop at the end and none inside, no line break, no URL. */
function expectOneSentence(message: string): void {
  expect(message).toMatch(/^[A-Z][^\n]*\.$/);
  expect(message.replace(/\d\.\d/g, '').slice(0, -1)).not.toMatch(/\.\s/);
  expect(message).not.toContain('http');
}

describe('openMeteoElevationSource against the Open-Meteo double', () => {
  it('labels itself with the DEM and the host', () => {
    const source = openMeteoElevationSource({ url: OPEN_METEO_ELEVATION_URL });
    expect(source.label).toBe('Copernicus DEM GLO-90 via Open-Meteo (api.open-meteo.com)');
  });

  it('asks 250 points in three requests of at most 100, two at a time, and answers in order', async () => {
    const source = openMeteoElevationSource({ url: double.url });
    const points = climb(250);
    const before = { requests: double.requests(), coordinates: double.coordinates() };
    const heights = await source.elevations(points);

    expect(double.requests() - before.requests).toBe(3);
    expect(double.coordinates() - before.coordinates).toBe(250);
    expect([...double.batchSizes().slice(-3)].sort((a, b) => b - a)).toEqual([100, 100, 50]);
    expect(double.peakInFlight()).toBeLessThanOrEqual(2);

    // The double answers from the same tiles, at the coordinates as written (5 decimals), to 0.1 m.
    const rounded = points.map((p) => ({ lat: roundHalfAway(p.lat, 5), lon: roundHalfAway(p.lon, 5) }));
    const expected = (await hgtElevationSource(SEED).elevations(rounded)).map((h) => roundHalfAway(h, 1));
    expect(heights).toEqual(expected);
    // A climb: the top is well above the start (real heights, not a stand-in).
    expect((heights.at(-1) ?? 0) - (heights[0] ?? 0)).toBeGreaterThan(1000);
  });

  it('writes every coordinate with at most 5 decimals', async () => {
    const source = openMeteoElevationSource({ url: double.url });
    const from = double.written().length;
    await source.elevations([{ lat: 42.123456789, lon: 1.987654321 }, ...climb(3)]);
    const written = double.written().slice(from);
    expect(written).toContain('42.12346');
    expect(written).toContain('1.98765');
    for (const value of written) expect(value).toMatch(/^-?\d+(\.\d{1,5})?$/);
  });

  it('sends no request for no points', async () => {
    const before = double.requests();
    await expect(openMeteoElevationSource({ url: double.url }).elevations([])).resolves.toEqual([]);
    expect(double.requests()).toBe(before);
  });

  it('honours a concurrency of one', async () => {
    const fresh = await startElevationDouble(SEED, { answerDelayMs: OVERLAP_DELAY_MS });
    try {
      await openMeteoElevationSource({ url: fresh.url, concurrency: 1 }).elevations(climb(301));
      expect(fresh.batchSizes()).toEqual([100, 100, 100, 1]);
      expect(fresh.peakInFlight()).toBe(1);
    } finally {
      await fresh.close();
    }
  });

  it.each<{ fault: ElevationFault; failure: DiscoveryFailure; message: RegExp }>([
    {
      fault: { kind: 'refuse', reason: 'Latitude must be in range of -90 to 90°. Given: 95.0.' },
      failure: 'refused',
      message: /refused the request: Latitude must be in range of -90 to 90°\. Given: 95\.0\.$/,
    },
    { fault: { kind: 'rate-limit' }, failure: 'busy', message: /is rate-limiting us \(HTTP 429\)\.$/ },
    { fault: { kind: 'server-error' }, failure: 'busy', message: /is busy or failing \(HTTP 500\)\.$/ },
    {
      fault: { kind: 'bad-json' },
      failure: 'malformed',
      message: /answered with something that is not JSON\.$/,
    },
    { fault: { kind: 'short' }, failure: 'malformed', message: /answered 99 heights for 100 points\.$/ },
  ])('maps a $fault.kind answer to $failure', async ({ fault, failure, message }) => {
    double.fault(fault);
    const error = await failureOf(openMeteoElevationSource({ url: double.url }).elevations(climb(100)));
    expect(error.failure).toBe(failure);
    expect(error.message).toMatch(/^Open-Meteo's elevation API \(127\.0\.0\.1:\d+\) /);
    expect(error.message).toMatch(message);
    if (fault.kind !== 'refuse') expectOneSentence(error.message);
  });

  it('stops after the first failed batch instead of asking the rest', async () => {
    const source = openMeteoElevationSource({ url: double.url, concurrency: 1 });
    double.fault({ kind: 'server-error' }, double.requests() + 2);
    const before = double.requests();
    const error = await failureOf(source.elevations(climb(500)));
    expect(error.failure).toBe('busy');
    expect(double.requests() - before).toBe(2);
  });

  it('calls a hung request a time-out after timeoutMs', async () => {
    double.fault({ kind: 'hang' });
    const started = Date.now();
    const error = await failureOf(
      openMeteoElevationSource({ url: double.url, timeoutMs: 200 }).elevations(climb(5)),
    );
    expect(error.failure).toBe('timeout');
    expect(error.message).toMatch(/ did not answer within 0\.2 s\.$/);
    expect(Date.now() - started).toBeLessThan(5000);
    expectOneSentence(error.message);
  });

  it('gives up a hung request when the caller aborts, as a time-out', async () => {
    double.fault({ kind: 'hang' });
    const controller = new AbortController();
    const call = openMeteoElevationSource({ url: double.url, timeoutMs: 30_000 }).elevations(
      climb(150),
      controller.signal,
    );
    setTimeout(() => controller.abort(), 50);
    const error = await failureOf(call);
    expect(error.failure).toBe('timeout');
    expect(error.message).toMatch(/^The request to Open-Meteo's elevation API \(.*\) was aborted\.$/);
  });

  it('sends nothing when the signal is already aborted', async () => {
    const before = double.requests();
    const error = await failureOf(
      openMeteoElevationSource({ url: double.url }).elevations(climb(3), AbortSignal.abort()),
    );
    expect(error.failure).toBe('timeout');
    expect(double.requests()).toBe(before);
  });

  it('calls a closed port unreachable', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const error = await failureOf(
      openMeteoElevationSource({ url: `http://127.0.0.1:${port}/v1/elevation` }).elevations(climb(2)),
    );
    expect(error.failure).toBe('unreachable');
    expect(error.message).toBe(`Open-Meteo's elevation API (127.0.0.1:${port}) could not be reached.`);
  });

  it('calls an answer with a non-finite or missing height malformed', async () => {
    const answers = ['{"elevation":[1e999]}', '{"elevation":[null]}', '{"heights":[12]}', '[]'];
    for (const body of answers) {
      const fetch = async () => new Response(body, { headers: { 'content-type': 'application/json' } });
      const error = await failureOf(
        openMeteoElevationSource({ url: 'https://elevation.test/v1/elevation', fetch }).elevations(climb(1)),
      );
      expect(error.failure).toBe('malformed');
      expect(error.message).toBe(
        "Open-Meteo's elevation API (elevation.test) answered without a list of finite heights.",
      );
    }
  });

  it('calls a 400 without a reason refused with its status', async () => {
    const fetch = async () => new Response('Bad Request', { status: 400 });
    const error = await failureOf(
      openMeteoElevationSource({ url: 'https://elevation.test/v1/elevation', fetch }).elevations(climb(1)),
    );
    expect(error).toMatchObject({
      failure: 'refused',
      message: "Open-Meteo's elevation API (elevation.test) refused the request (HTTP 400).",
    });
  });
});

describe('the Open-Meteo elevation double', () => {
  it(`refuses more than ${OPEN_METEO_ELEVATION_MAX_POINTS} coordinates with Open-Meteo's 400 shape`, async () => {
    const points = climb(OPEN_METEO_ELEVATION_MAX_POINTS + 1);
    const query = `latitude=${points.map((p) => p.lat.toFixed(5)).join(',')}&longitude=${points.map((p) => p.lon.toFixed(5)).join(',')}`;
    const response = await fetch(`${double.url}?${query}`);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: true,
      reason: `Only up to ${OPEN_METEO_ELEVATION_MAX_POINTS} coordinates can be requested at once`,
    });
  });

  it('answers in the documented shape, one height per coordinate', async () => {
    const response = await fetch(`${double.url}?latitude=42.5063,43.735&longitude=1.5218,7.425`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { elevation: number[] };
    expect(Object.keys(body)).toEqual(['elevation']);
    expect(body.elevation).toHaveLength(2);
    expect(body.elevation[0]).toBeGreaterThan(900);
  });
});
