import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LatLon } from '../../src/core/bearing.ts';
import { roundHalfAway } from '../../src/core/round.ts';
import { createForecastCache } from '../../src/data/forecast/cache.ts';
import { createDemoForecast } from '../../src/data/forecast/demo.ts';
import { ForecastError, type ForecastSource, hourStart } from '../../src/data/forecast/types.ts';

/** 2025-06-01 10:20 UTC. */
const NOW = Date.UTC(2025, 5, 1, 10, 20);
const HOUR = 3_600_000;

/** A source whose answers depend on the point and hour, and that can be made to fail or to wait. */
function fakeSource() {
  const state = {
    now: NOW,
    calls: [] as LatLon[][],
    failWith: null as Error | null,
    gate: null as Promise<unknown> | null,
  };
  const clock = () => state.now;
  const source: ForecastSource = {
    id: 'open-meteo',
    hourly: async (points) => {
      state.calls.push([...points]);
      const failWith = state.failWith;
      if (state.gate) await state.gate;
      if (failWith) throw failWith;
      const hour = hourStart(state.now);
      return points.map((point) =>
        point.lat < -80
          ? null
          : {
              point,
              issuedAt: Math.floor(state.now / 1000),
              stale: false,
              hours: Array.from({ length: 72 }, (_, i) => ({
                time: hour + i * 3600,
                speedKmh: Math.abs(point.lat) / 10 + i,
                directionDeg: (point.lon + 180) % 360,
                gustsKmh: null,
                temperatureC: point.lat / 10 - i,
                precipitationMm: i % 5 === 0 ? 1.5 : 0,
                precipitationProbabilityPct: i % 7 === 3 ? null : (i * 7) % 101,
              })),
              unusableHours: point.lat > 80 ? 3 : 0,
            },
      );
    },
  };
  return { state, clock, source };
}

function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => 'resolved',
    (error: unknown) => error,
  );
}

describe('forecast cache', () => {
  it('asks upstream once for a cold call, one grid-cell centre per cell, and answers for each point asked', async () => {
    const { state, clock, source } = fakeSource();
    const cache = createForecastCache(source, { clock });
    const points = [
      { lat: 45.05, lon: 6.03 },
      { lat: 45.051, lon: 6.04 },
      { lat: 45.0749, lon: 6.0251 },
      { lat: 46.1, lon: 7.2 },
      { lat: 45.05, lon: 6.03 },
    ];
    const result = await cache.hourly(points);
    expect(state.calls).toEqual([
      [
        { lat: 45.05, lon: 6.05 },
        { lat: 46.1, lon: 7.2 },
      ],
    ]);
    expect(result.map((s) => s?.point)).toEqual(points);
    expect(result[1]?.hours).toEqual(result[0]?.hours);
    expect(result[3]?.hours).not.toEqual(result[0]?.hours);
    expect(cache.stats()).toEqual({ hits: 0, misses: 2, upstreamCalls: 1 });
    expect(cache.id).toBe('open-meteo');
    const [direct] = await source.hourly([{ lat: 46.1, lon: 7.2 }]);
    // The same series, its hours named by the cache: the cell, the entry's fetch and issue, the hour.
    expect(result[3]).toEqual({ ...direct, hourSet: expect.stringMatching(/^\d+:\d+@\d+\/\d+\+\d+$/) });
    expect(result[1]?.hourSet).toBe(result[0]?.hourSet);
    expect(result[3]?.hourSet).not.toBe(result[0]?.hourSet);
    expect(result[3]?.hours[0]?.gustsKmh).toBeNull();
  });

  it('answers from cache within the same UTC hour and refetches in the next', async () => {
    const { state, clock, source } = fakeSource();
    const cache = createForecastCache(source, { clock });
    const point = [{ lat: 45.05, lon: 6.03 }];
    const first = await cache.hourly(point);
    state.now = NOW + 39 * 60_000; // 10:59
    expect(await cache.hourly(point)).toEqual(first);
    expect(state.calls).toHaveLength(1);
    state.now = NOW + 40 * 60_000; // 11:00
    const next = await cache.hourly(point);
    expect(state.calls).toHaveLength(2);
    expect(next[0]?.hours[0]?.time).toBe(hourStart(state.now));
    expect(cache.stats()).toEqual({ hits: 1, misses: 2, upstreamCalls: 2 });
  });

  it('sends only the misses upstream and caches null answers too', async () => {
    const { state, clock, source } = fakeSource();
    const cache = createForecastCache(source, { clock });
    await cache.hourly([{ lat: 45, lon: 6 }]);
    const result = await cache.hourly([
      { lat: 45, lon: 6 },
      { lat: -85, lon: 0 },
    ]);
    expect(result[1]).toBeNull();
    await cache.hourly([{ lat: -85, lon: 0 }]);
    expect(state.calls).toEqual([[{ lat: 45, lon: 6 }], [{ lat: -85, lon: 0 }]]);
  });

  it('puts longitudes 180 and -180 (and 190 and -170) in the same cell', async () => {
    const { state, clock, source } = fakeSource();
    const cache = createForecastCache(source, { clock });
    await cache.hourly([
      { lat: 0, lon: 180 },
      { lat: 0, lon: -180 },
      { lat: 0, lon: 179.99 },
      { lat: 0, lon: 190 },
      { lat: 0, lon: -170 },
    ]);
    expect(state.calls).toEqual([
      [
        { lat: 0, lon: -180 },
        { lat: 0, lon: -170 },
      ],
    ]);
  });

  it('evicts the least recently used cells beyond maxEntries', async () => {
    const { state, clock, source } = fakeSource();
    const cache = createForecastCache(source, { clock, maxEntries: 2 });
    for (const lat of [10, 20, 30, 10]) await cache.hourly([{ lat, lon: 0 }]);
    expect(state.calls).toHaveLength(4);
  });
});

describe('forecast cache when the source fails', () => {
  it('serves an older entry marked stale, starting at the current hour', async () => {
    const { state, clock, source } = fakeSource();
    const cache = createForecastCache(source, { clock });
    const point = [{ lat: 45.05, lon: 6.03 }];
    const [fresh] = await cache.hourly(point);
    state.now = NOW + 5 * HOUR + 59 * 60_000; // 16:19, 5 h 59 min after the fetch
    state.failWith = new ForecastError('timeout', 'slow');
    const [stale] = await cache.hourly(point);
    expect(stale?.stale).toBe(true);
    expect(stale?.issuedAt).toBe(fresh?.issuedAt);
    expect(stale?.hours[0]?.time).toBe(hourStart(state.now));
    expect(stale?.hours).toEqual(fresh?.hours.slice(6));
    expect(state.calls).toHaveLength(2);
  });

  it('keeps every weather figure (a null as null, a zero as zero) and the unusable count, fresh and stale', async () => {
    const { state, clock, source } = fakeSource();
    const cache = createForecastCache(source, { clock });
    const point = [{ lat: 81.05, lon: 6.05 }]; // a cell centre, with 3 unusable hours in the fake
    const [direct] = await source.hourly(point);
    const [fresh] = await cache.hourly(point);
    expect(fresh?.hours).toEqual(direct?.hours);
    expect(fresh?.hours.some((h) => h.precipitationProbabilityPct === null)).toBe(true);
    expect(fresh?.hours.some((h) => h.precipitationMm === 0)).toBe(true);
    expect(fresh?.unusableHours).toBe(3);
    state.now = NOW + 2 * HOUR;
    state.failWith = new ForecastError('upstream_error', 'down');
    const [stale] = await cache.hourly(point);
    expect(stale?.stale).toBe(true);
    expect(stale?.hours).toEqual(direct?.hours.slice(2));
    expect(stale?.unusableHours).toBe(3);
  });

  it('rethrows once the entry is older than the stale window', async () => {
    const { state, clock, source } = fakeSource();
    const cache = createForecastCache(source, { clock, staleForSeconds: 3600 });
    await cache.hourly([{ lat: 45, lon: 6 }]);
    state.now = NOW + HOUR + 1000;
    const failure = new ForecastError('rate_limited', 'busy');
    state.failWith = failure;
    expect(await rejection(cache.hourly([{ lat: 45, lon: 6 }]))).toBe(failure);
  });

  it('rethrows when any point of the call has no fallback', async () => {
    const { state, clock, source } = fakeSource();
    const cache = createForecastCache(source, { clock });
    await cache.hourly([{ lat: 45, lon: 6 }]);
    state.now = NOW + HOUR;
    const failure = new ForecastError('upstream_error', 'down');
    state.failWith = failure;
    expect(
      await rejection(
        cache.hourly([
          { lat: 45, lon: 6 },
          { lat: 50, lon: 6 },
        ]),
      ),
    ).toBe(failure);
    const [stale] = await cache.hourly([{ lat: 45, lon: 6 }]);
    expect(stale?.stale).toBe(true);
  });

  it('does not hide programming errors behind stale data', async () => {
    const { state, clock, source } = fakeSource();
    const cache = createForecastCache(source, { clock });
    await cache.hourly([{ lat: 45, lon: 6 }]);
    state.now = NOW + HOUR;
    const bug = new TypeError('bug');
    state.failWith = bug;
    expect(await rejection(cache.hourly([{ lat: 45, lon: 6 }]))).toBe(bug);
  });
});

describe('forecast cache concurrency', () => {
  it('lets concurrent calls for the same cells share one upstream request', async () => {
    const { state, clock, source } = fakeSource();
    const gate = Promise.withResolvers<undefined>();
    state.gate = gate.promise;
    const cache = createForecastCache(source, { clock });
    const a = cache.hourly([{ lat: 45, lon: 6 }]);
    const b = cache.hourly([
      { lat: 45.01, lon: 6 },
      { lat: 47, lon: 8 },
    ]);
    gate.resolve(undefined);
    const [ra, rb] = await Promise.all([a, b]);
    expect(state.calls).toEqual([[{ lat: 45, lon: 6 }], [{ lat: 47, lon: 8 }]]);
    expect(rb[0]?.hours).toEqual(ra[0]?.hours);
    expect(cache.stats()).toEqual({ hits: 1, misses: 2, upstreamCalls: 2 });
  });

  it('gives every waiter the fallback or the error when a shared request fails', async () => {
    const { state, clock, source } = fakeSource();
    const cache = createForecastCache(source, { clock });
    await cache.hourly([{ lat: 45, lon: 6 }]);
    state.now = NOW + HOUR;
    const gate = Promise.withResolvers<undefined>();
    state.gate = gate.promise;
    state.failWith = new ForecastError('timeout', 'slow');
    const a = cache.hourly([{ lat: 45, lon: 6 }]);
    const b = cache.hourly([{ lat: 45, lon: 6 }]);
    gate.resolve(undefined);
    const [ra, rb] = await Promise.all([a, b]);
    expect([ra[0]?.stale, rb[0]?.stale]).toEqual([true, true]);
    expect(state.calls).toHaveLength(2);
  });

  it('makes at most one upstream request per call and answers as the source does for the cell centre', async () => {
    const clock = () => NOW;
    const demo = createDemoForecast({ clock });
    const point = fc.record({
      lat: fc.double({ min: -89, max: 89, noNaN: true }),
      lon: fc.double({ min: -180, max: 180, noNaN: true }),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(point, { minLength: 1, maxLength: 25 }), { maxLength: 5 }),
        async (calls) => {
          const cache = createForecastCache(demo, { clock });
          for (const points of calls) {
            const before = cache.stats().upstreamCalls;
            const result = await cache.hourly(points);
            expect(cache.stats().upstreamCalls - before).toBeLessThanOrEqual(1);
            expect(result.map((s) => s?.point)).toEqual(points);
            const centre = (v: number) => roundHalfAway(Math.round(v / 0.05) * 0.05, 4);
            const direct = await demo.hourly(points.map((p) => ({ lat: centre(p.lat), lon: centre(p.lon) })));
            expect(result.map((s) => s?.hours)).toEqual(direct.map((s) => s?.hours));
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});
