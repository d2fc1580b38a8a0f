import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { DEFAULT_ALERTS_INTERVAL_MS, startAlertInterval } from '../../src/alerts/schedule.ts';
import { alertIntervalFromEnv, startAlertsFromEnv } from '../support/settings.ts';
import { createDemoForecast } from '../../src/data/forecast/demo.ts';
import type { ForecastSource } from '../../src/data/forecast/types.ts';
import { watchSegment } from '../../src/store/repositories/watchlist.ts';
import { catalog, freshStore, proRider, removeTestStores, TEST_NOW } from './helpers.ts';

afterAll(removeTestStores);

describe('alertIntervalFromEnv', () => {
  it('defaults to 15 minutes, reads WOS_ALERTS_INTERVAL_MS, and 0 turns the job off', () => {
    expect(alertIntervalFromEnv({})).toBe(DEFAULT_ALERTS_INTERVAL_MS);
    expect(DEFAULT_ALERTS_INTERVAL_MS).toBe(900_000);
    expect(alertIntervalFromEnv({ WOS_ALERTS_INTERVAL_MS: ' ' })).toBe(DEFAULT_ALERTS_INTERVAL_MS);
    expect(alertIntervalFromEnv({ WOS_ALERTS_INTERVAL_MS: '60000' })).toBe(60_000);
    expect(alertIntervalFromEnv({ WOS_ALERTS_INTERVAL_MS: '0' })).toBeNull();
  });

  it.each(['59999', '86400001', '1500.5', 'soon', '-1'])('refuses %s with a message', (value) => {
    expect(() => alertIntervalFromEnv({ WOS_ALERTS_INTERVAL_MS: value })).toThrow(
      /WOS_ALERTS_INTERVAL_MS must be 0/,
    );
  });

  it('starts nothing when the setting is 0', () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const never = { hourly: () => Promise.reject(new Error('must not run')), id: 'demo' as const };
    expect(
      startAlertsFromEnv(
        { WOS_ALERTS_INTERVAL_MS: '0' },
        { store: {} as never, catalog, forecast: never, now: Date.now },
      ),
    ).toBeNull();
    expect(log).toHaveBeenCalledWith(expect.stringMatching(/off/));
    log.mockRestore();
  });
});

describe('startAlertInterval', () => {
  it('runs at once, then on every tick, never two runs at a time, and stop() waits for the run in progress', async () => {
    const store = await freshStore();
    const rider = await proRider(store);
    await watchSegment(store.db, rider.id, 'gb-box-hill', { thresholdKmh: 5 });
    const demo = createDemoForecast({ clock: () => TEST_NOW });
    let inFlight = 0;
    let maxInFlight = 0;
    let calls = 0;
    const slow: ForecastSource = {
      id: 'demo',
      async hourly(points) {
        calls += 1;
        inFlight += 1;
        maxInFlight = Math.max(maxInFlight, inFlight);
        await sleep(60);
        inFlight -= 1;
        return demo.hourly(points);
      },
    };
    const runs: boolean[] = [];
    const stop = startAlertInterval(
      { store, catalog, forecast: slow, now: () => TEST_NOW, log: () => undefined },
      10,
      { onRun: (summary) => runs.push(summary.ok) },
    );
    await sleep(30);
    expect(calls).toBe(1); // the first run started at once and is still going
    await sleep(250);
    await stop();
    const callsAtStop = calls;
    expect(inFlight).toBe(0);
    expect(maxInFlight).toBe(1);
    expect(callsAtStop).toBeGreaterThanOrEqual(3);
    expect(runs.length).toBe(callsAtStop);
    expect(runs.every(Boolean)).toBe(true);
    await sleep(50);
    expect(calls).toBe(callsAtStop);
    await store.close();
  });

  it('refuses a period that is not a positive number', () => {
    expect(() => startAlertInterval({} as never, 0)).toThrow(RangeError);
  });
});
