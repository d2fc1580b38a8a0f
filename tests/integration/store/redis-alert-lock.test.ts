import { afterAll, describe, expect, it } from 'vitest';
import { runAlertJob } from '../../../src/alerts/run.ts';
import type { ForecastSource } from '../../../src/data/forecast/types.ts';
import { watchSegment } from '../../../src/store/repositories/watchlist.ts';
import { createRedisLock } from '../../../src/store/shared-state/lock.ts';
import { catalog, demoAt, freshStore, proRider, removeTestStores, TEST_NOW } from '../../alerts/helpers.ts';
import { redisRelay, redisUnavailable, testClients, testPrefix } from '../../store/redis-server.ts';

const unavailable = await redisUnavailable();
if (unavailable) console.warn(`Redis alert-lock tests skipped: ${unavailable}`);

describe.skipIf(unavailable !== null)('alert job lock in Redis', () => {
  const prefix = testPrefix('alert-lock');
  const { open, closeAll } = testClients(prefix);
  afterAll(async () => {
    await closeAll();
    removeTestStores();
  });

  it('two overlapping runs on two instances: one evaluates, the other skips; the lock is free after', async () => {
    const store = await freshStore();
    const rider = await proRider(store);
    await watchSegment(store.db, rider.id, 'gb-box-hill', { thresholdKmh: 5 });
    const now = () => TEST_NOW;
    const demo = demoAt(now);
    // The first run's forecast request waits, inside the lock, until the second run has finished.
    let entered = (): void => undefined;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    let openGate = (): void => undefined;
    const gate = new Promise<void>((resolve) => (openGate = resolve));
    const slow: ForecastSource = {
      id: demo.id,
      hourly: async (points) => {
        entered();
        await gate;
        return demo.hourly(points);
      },
    };
    const key = `${prefix}overlap`;
    const lines: string[] = [];
    const base = { store, catalog, now, log: (line: string) => lines.push(line) };

    const first = runAlertJob({ ...base, forecast: slow, lock: createRedisLock(open(), key, 60_000) });
    await inside;
    const second = await runAlertJob({ ...base, forecast: demo, lock: createRedisLock(open(), key, 60_000) });
    openGate();
    const firstSummary = await first;

    expect(second).toMatchObject({ ok: true, skipped: 'locked', evaluation: null, delivery: null });
    expect(firstSummary.skipped).toBeUndefined();
    expect(firstSummary.evaluation?.watchesChecked).toBe(1);
    expect(demo.calls).toHaveLength(1);
    expect(lines).toContain('alert job skipped: another run holds the lock');

    const third = await runAlertJob({ ...base, forecast: demo, lock: createRedisLock(open(), key, 60_000) });
    expect(third.skipped).toBeUndefined();
    expect(third.evaluation?.watchesChecked).toBe(1);
    await store.close();
  });

  it('a crashed holder’s lock frees itself after its time to live, and a late release leaves the new holder’s lock alone', async () => {
    const client = open();
    const key = `${prefix}ttl`;
    const crashed = await createRedisLock(client, key, 150).acquire();
    expect(crashed).not.toBeNull();
    expect(await createRedisLock(client, key, 150).acquire()).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 250));
    const next = await createRedisLock(client, key, 60_000).acquire();
    expect(next).not.toBeNull();
    await crashed?.();
    expect(await client.exists(key)).toBe(1);
    await next?.();
    expect(await client.exists(key)).toBe(0);
  });

  it('with Redis away the run fails with a clear error and evaluates nothing', async () => {
    const relay = await redisRelay();
    const client = open(relay.url);
    await client.ping();
    await relay.close();
    const store = await freshStore();
    const demo = demoAt(() => TEST_NOW);
    const lines: string[] = [];
    const summary = await runAlertJob({
      store,
      catalog,
      now: () => TEST_NOW,
      forecast: demo,
      lock: createRedisLock(client, `${prefix}gone`, 60_000),
      log: (line) => lines.push(line),
    });
    expect(summary.ok).toBe(false);
    expect(summary.errors[0]).toMatch(/alert-job lock could not be taken/);
    expect(summary.evaluation).toBeNull();
    expect(demo.calls).toEqual([]);
    expect(lines[0]).toMatch(/^alert job FAILED/);
    await store.close();
  });
});
