import type { Client } from '@modelcontextprotocol/client';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MAX_ROUTE_ENSEMBLE_SAMPLES,
  ROUTE_ENSEMBLE_SPACING_KM,
  routeEnsembleSamples,
} from '../../src/core/route/route-ensemble-samples.ts';
import { MAX_ROUTE_SAMPLES } from '../../src/core/route/route-ride.ts';
import { createEnsembleCache } from '../../src/data/forecast/ensemble-cache.ts';
import {
  ENSEMBLE_FETCH_HOURS,
  ensembleRequestWeight,
  type EnsembleRequest,
} from '../../src/data/forecast/ensemble-types.ts';
import { createOpenMeteoEnsemble } from '../../src/data/forecast/open-meteo-ensemble.ts';
import { GetRouteWindOutputSchema } from '../../src/mcp/schemas/route.ts';
import type { Rider } from '../../src/store/repositories/riders.ts';
import { fakeOpenMeteoEnsemble } from '../support/fake-open-meteo-ensemble.ts';
import { TEST_NOW } from '../support/mcp-deps.ts';
import { createRiderHarness, type RiderHarness } from '../support/rider-harness.ts';
import { hundredKmPoints, type ToolPoint } from '../support/route-points.ts';

/** A ride of `km` kilometres north-east from Lyon (away from the 100 km ride's cells), a point every 2 km: long enough to need 60 forecast samples. */
function longRide(km: number): ToolPoint[] {
  const cosLat = Math.cos((45.76 * Math.PI) / 180);
  return Array.from({ length: km / 2 + 1 }, (_, i) => {
    const along = i * 2 * Math.SQRT1_2;
    return {
      latitude: Math.round((45.76 + along / 111.195) * 1e6) / 1e6,
      longitude: Math.round((4.84 + along / (111.195 * cosLat)) * 1e6) / 1e6,
    };
  });
}

/** 400 km is a long day: ridden fast and allowed to start in the dark, so the tool offers starts. */
const LONG_RIDE = { speed_kmh: 40, include_darkness: true };

const atKmOf = (count: number, spacingKm: number) => Array.from({ length: count }, (_, i) => i * spacingKm);

describe('the ensemble points of a route', () => {
  it('are at most 12, no closer than the grid, keep both ends, and each sample rides the nearest (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: MAX_ROUTE_SAMPLES + 1 }),
        fc.double({ min: 0.01, max: 20, noNaN: true }),
        (count, spacingKm) => {
          const atKm = atKmOf(count, spacingKm);
          const points = atKm.map((km) => ({ lat: 45, lon: km / 100 }));
          const { picks, nearest, points: asked } = routeEnsembleSamples({ atKm, points });
          const lengthKm = atKm.at(-1) ?? 0;
          expect(picks.length).toBeLessThanOrEqual(MAX_ROUTE_ENSEMBLE_SAMPLES);
          expect(picks.length).toBeLessThanOrEqual(
            Math.max(2, Math.ceil(lengthKm / ROUTE_ENSEMBLE_SPACING_KM) + 1),
          );
          expect(picks[0]).toBe(0);
          expect(picks.at(-1)).toBe(count - 1);
          for (let j = 1; j < picks.length; j++) expect(picks[j]).toBeGreaterThan(picks[j - 1] ?? Infinity);
          expect(asked).toEqual(picks.map((i) => points[i]));
          expect(nearest).toHaveLength(count);
          atKm.forEach((km, k) => {
            const distances = picks.map((i) => Math.abs((atKm[i] ?? NaN) - km));
            expect(distances[nearest[k] ?? -1]).toBe(Math.min(...distances));
          });
        },
      ),
      { numRuns: 300 },
    );
  });

  it('keep every sample of a short route and thin a long one evenly', () => {
    expect(routeEnsembleSamples({ atKm: [0, 4], points: [] }).picks).toEqual([0, 1]);
    // 100 km at 5 km: 21 samples → one every 25 km.
    expect(routeEnsembleSamples({ atKm: atKmOf(21, 5), points: [] }).picks).toEqual([0, 5, 10, 15, 20]);
    const long = routeEnsembleSamples({ atKm: atKmOf(60, 400 / 59), points: [] });
    expect(long.picks).toHaveLength(12);
    expect(long.nearest.slice(0, 4)).toEqual([0, 0, 0, 1]);
  });
});

describe('get_route_wind: ensemble request weight per call (Pro, local double of the ensemble API)', () => {
  let h: RiderHarness;
  let pro: Rider;
  const requests: EnsembleRequest[] = [];
  const fake = fakeOpenMeteoEnsemble(() => TEST_NOW);

  beforeAll(async () => {
    const source = createOpenMeteoEnsemble({
      fetch: fake.fetch,
      clock: () => TEST_NOW,
      baseUrl: 'http://ensemble.test',
      onRequest: (r) => requests.push(r),
    });
    h = await createRiderHarness({
      deps: { ensemble: createEnsembleCache(source, { clock: () => TEST_NOW }) },
    });
    pro = await h.createRider({ plan: 'pro' });
  });
  afterAll(() => h.close());

  const routeCall = async (client: Client, points: ToolPoint[], options: Record<string, unknown> = {}) => {
    const before = requests.length;
    const result = await client.callTool({ name: 'get_route_wind', arguments: { points, ...options } });
    expect(result.isError).toBeFalsy();
    const data = GetRouteWindOutputSchema.parse(result.structuredContent);
    const asked = requests.slice(before);
    return { data, asked, weight: asked.reduce((sum, r) => sum + r.weight, 0) };
  };

  it('asks for at most 12 points of a 400 km route (60 forecast samples), in one request, and none when warm', async () => {
    const client = await h.connectRider(pro);
    const cold = await routeCall(client, longRide(400), LONG_RIDE);
    expect(cold.data.sampling.samples).toBe(MAX_ROUTE_SAMPLES);
    expect(cold.asked).toHaveLength(1);
    expect(cold.asked[0]?.locations).toBe(MAX_ROUTE_ENSEMBLE_SAMPLES);
    const perPoint = ensembleRequestWeight(1, 2, 51, ENSEMBLE_FETCH_HOURS);
    expect(cold.weight).toBeCloseTo(MAX_ROUTE_ENSEMBLE_SAMPLES * perPoint, 5);
    expect(cold.weight).toBeLessThan((MAX_ROUTE_SAMPLES * perPoint) / 4);
    expect(cold.data.best_starts.length).toBeGreaterThan(0);
    for (const start of cold.data.best_starts) expect(start.gain_chance_pct).toEqual(expect.any(Number));

    const warm = await routeCall(client, longRide(400), LONG_RIDE);
    expect(warm.weight).toBe(0);
    expect(warm.data.best_starts.map((s) => s.gain_chance_pct)).toEqual(
      cold.data.best_starts.map((s) => s.gain_chance_pct),
    );
  });

  it('asks for one point per 25 km of a 100 km route', async () => {
    const cold = await routeCall(await h.connectRider(pro), hundredKmPoints(2));
    expect(cold.data.sampling.samples).toBe(21);
    expect(cold.asked).toHaveLength(1);
    expect(cold.asked[0]?.locations).toBe(5);
    expect(cold.weight).toBeCloseTo(5 * ensembleRequestWeight(1, 2, 51, ENSEMBLE_FETCH_HOURS), 5);
  });
});
