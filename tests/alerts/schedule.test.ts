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
    // The interval's timers are fake and each forecast call waits until the test lets it end, so
    // the order of runs and ticks is the test's, whatever the machine's load.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    const store = await freshStore();
    try {
      const rider = await proRider(store);
      await watchSegment(store.db, rider.id, 'gb-box-hill', { thresholdKmh: 5 });
      const demo = createDemoForecast({ clock: () => TEST_NOW });
      let inFlight = 0;
      let maxInFlight = 0;
      let calls = 0;
      /** Resolves when a forecast call has started, with the function that lets it end. */
      let started = Promise.withResolvers<() => void>();
      const slow: ForecastSource = {
        id: 'demo',
        async hourly(points) {
          calls += 1;
          inFlight += 1;
          maxInFlight = Math.max(maxInFlight, inFlight);
          const end = Promise.withResolvers<undefined>();
          started.resolve(() => end.resolve(undefined));
          await end.promise;
          inFlight -= 1;
          return demo.hourly(points);
        },
      };
      const callStarted = async (): Promise<() => void> => {
        const end = await started.promise;
        started = Promise.withResolvers();
        return end;
      };
      const runs: boolean[] = [];
      let ran = Promise.withResolvers<undefined>();
      const stop = startAlertInterval(
        { store, catalog, forecast: slow, now: () => TEST_NOW, log: () => undefined },
        10,
        {
          onRun: (summary) => {
            runs.push(summary.ok);
            ran.resolve(undefined);
          },
        },
      );
      const runToEnd = async (end: () => void): Promise<void> => {
        end();
        await ran.promise;
        ran = Promise.withResolvers();
      };

      await vi.advanceTimersByTimeAsync(0);
      let end = await callStarted();
      expect(calls).toBe(1); // the first run started at once and is still going
      // Five ticks pass while it runs: none starts a second run.
      await vi.advanceTimersByTimeAsync(50);
      expect([calls, inFlight]).toEqual([1, 1]);
      await runToEnd(end);
      // Each later tick starts the next run.
      for (const run of [2, 3]) {
        await vi.advanceTimersByTimeAsync(10);
        end = await callStarted();
        expect(calls).toBe(run);
        await runToEnd(end);
      }
      // stop() during a run waits for it to end.
      await vi.advanceTimersByTimeAsync(10);
      end = await callStarted();
      let stopped = false;
      const stopping = stop().then(() => (stopped = true));
      await vi.advanceTimersByTimeAsync(0);
      expect(stopped).toBe(false);
      end();
      await stopping;
      expect(inFlight).toBe(0);
      expect(maxInFlight).toBe(1);
      expect(calls).toBe(4);
      expect(runs).toEqual([true, true, true, true]);
      // No run after stop().
      await vi.advanceTimersByTimeAsync(100);
      expect(calls).toBe(4);
    } finally {
      vi.useRealTimers();
      await store.close();
    }
  });

  it('refuses a period that is not a positive number', () => {
    expect(() => startAlertInterval({} as never, 0)).toThrow(RangeError);
  });
});
