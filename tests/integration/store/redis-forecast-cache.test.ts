import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LatLon } from '../../../src/core/bearing.ts';
import { createForecastCache } from '../../../src/data/forecast/cache.ts';
import { createDemoForecast } from '../../../src/data/forecast/demo.ts';
import { ForecastError, type ForecastSource } from '../../../src/data/forecast/types.ts';
import { createRedisKeyValue } from '../../../src/store/shared-state/key-value.ts';
import { redisRelay, redisUnavailable, testClients, testPrefix } from '../../store/redis-server.ts';

const unavailable = await redisUnavailable();
if (unavailable) console.warn(`Redis forecast-cache tests skipped: ${unavailable}`);

/** 2025-06-01 10:20 UTC. */
const NOW = Date.UTC(2025, 5, 1, 10, 20);

/** Alpe d'Huez switchbacks (two points, one cell), Cape Town, and both sides of the antimeridian on Taveuni. */
const POINTS: LatLon[] = [
  { lat: 45.0917, lon: 6.0694 },
  { lat: 45.0931, lon: 6.0712 },
  { lat: -33.9249, lon: 18.4241 },
  { lat: -16.81, lon: 179.99 },
  { lat: -16.81, lon: -179.99 },
];

/** One "instance's" upstream: the demo forecast, counting the points it is asked for. */
function countingSource(state: { now: number; fail: boolean }) {
  const demo = createDemoForecast({ clock: () => state.now });
  const asked: LatLon[][] = [];
  const source: ForecastSource = {
    id: 'open-meteo',
    hourly: async (points) => {
      asked.push([...points]);
      if (state.fail) throw new ForecastError('upstream_error', 'Open-Meteo is down (test)');
      return demo.hourly(points);
    },
  };
  return { source, asked };
}

describe.skipIf(unavailable !== null)('forecast cache shared through Redis', () => {
  const prefix = testPrefix('forecast');
  const { open, closeAll } = testClients(prefix);

  beforeAll(() => {
    open();
  });
  afterAll(async () => {
    await closeAll();
  });

  it('the second instance makes no upstream request for cells the first fetched, and answers the same', async () => {
    const state = { now: NOW, fail: false };
    const one = countingSource(state);
    const two = countingSource(state);
    const clock = () => state.now;
    const cacheOne = createForecastCache(one.source, { clock, shared: createRedisKeyValue(open(), prefix) });
    const cacheTwo = createForecastCache(two.source, { clock, shared: createRedisKeyValue(open(), prefix) });

    const first = await cacheOne.hourly(POINTS);
    expect(one.asked).toHaveLength(1);
    // The two switchback points share a cell, and 179.99° / -179.99° share one across the antimeridian.
    expect(one.asked[0]).toHaveLength(3);

    const second = await cacheTwo.hourly(POINTS);
    expect(two.asked).toEqual([]);
    expect(cacheTwo.stats()).toMatchObject({ upstreamCalls: 0, sharedHits: 3 });
    expect(second).toEqual(first);

    // The next UTC hour is a new question for everyone: one upstream request, then shared again.
    state.now += 3_600_000;
    await cacheTwo.hourly(POINTS);
    await cacheOne.hourly(POINTS);
    expect(two.asked).toHaveLength(1);
    expect(one.asked).toHaveLength(1);
  });

  it('serves the other instance’s older entry as stale when upstream fails, and ignores foreign values', async () => {
    const state = { now: NOW, fail: false };
    const ownPrefix = `${prefix}stale:`;
    const writer = createForecastCache(countingSource(state).source, {
      clock: () => state.now,
      shared: createRedisKeyValue(open(), ownPrefix),
    });
    await writer.hourly(POINTS.slice(0, 1));
    state.now += 2 * 3_600_000;
    state.fail = true;
    const raw = open();
    await raw.set(
      `${ownPrefix}${Math.round(-33.9249 / 0.05)}:${Math.round(18.4241 / 0.05)}`,
      '{"not":"an entry"}',
    );
    const reader = createForecastCache(countingSource(state).source, {
      clock: () => state.now,
      shared: createRedisKeyValue(open(), ownPrefix),
    });
    const [alpe] = await reader.hourly(POINTS.slice(0, 1));
    expect(alpe?.stale).toBe(true);
    expect(alpe?.hours[0]?.time).toBe(Math.floor(state.now / 3_600_000) * 3600);
    await expect(reader.hourly(POINTS.slice(2, 3))).rejects.toBeInstanceOf(ForecastError);
  });

  it('keeps answering from memory and upstream when Redis goes away mid-run, without a crash or a wait', async () => {
    const relay = await redisRelay();
    const state = { now: NOW, fail: false };
    const { source, asked } = countingSource(state);
    const client = open(relay.url);
    const cache = createForecastCache(source, {
      clock: () => state.now,
      shared: createRedisKeyValue(client, prefix + 'gone:'),
    });
    await cache.hourly(POINTS.slice(0, 2));
    expect(asked).toHaveLength(1);

    await relay.close();
    const started = Date.now();
    const answers = await cache.hourly(POINTS);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(answers.every((series) => series !== null && series.hours.length > 0)).toBe(true);
    expect(asked).toHaveLength(2);
    // Memory still holds what was fetched: no new upstream request for the same hour.
    await cache.hourly(POINTS);
    expect(asked).toHaveLength(2);
  });
});
