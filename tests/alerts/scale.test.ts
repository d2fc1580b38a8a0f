/**
 * The alert job's scale mechanics, untimed: keyset paging over watches on
 * SQLite and PostgreSQL, a run that resumes from a cursor, bounded webhook
 * concurrency per host against real receivers, and the idempotency key.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedCursorStore, type AlertCursorStore } from '../../src/alerts/cursor.ts';
import { evaluateAlerts } from '../../src/alerts/evaluate.ts';
import { createHostLimiter } from '../../src/alerts/host-limiter.ts';
import { deliverPendingAlerts, idempotencyKeyOf } from '../../src/alerts/alert-delivery.ts';
import { APP_MIGRATIONS } from '../../src/app/migrations.ts';
import { openStore, type Store } from '../../src/store/database.ts';
import { migrateToLatest } from '../../src/store/migrate.ts';
import { listAlertWatchPage, type AlertWatchCursor } from '../../src/store/repositories/alert-watches.ts';
import { listRecentAlerts, recordAlertOnce } from '../../src/store/repositories/alerts.ts';
import { createRider } from '../../src/store/repositories/riders.ts';
import { watchSegment } from '../../src/store/repositories/watchlist.ts';
import { admin, databaseUrl, postgresUnavailable } from '../store/postgres-server.ts';
import { loadEmbeddedSegments } from '../../src/data/segments/load.ts';
import { catalog, demoAt, freshStore, proRider, removeTestStores, TEST_NOW } from './helpers.ts';
import { acceptLoopback } from '../support/loopback-webhooks.ts';

/** A cursor kept in the test's memory: the job's cursor seam without a store behind it. */
function memoryCursorStore(): AlertCursorStore {
  let saved: AlertWatchCursor | null = null;
  return {
    load: () => Promise.resolve(saved),
    save: (cursor) => {
      saved = cursor;
      return Promise.resolve();
    },
  };
}

afterAll(removeTestStores);

const nowS = TEST_NOW / 1000;
const fixedNow = () => TEST_NOW;
const SEGMENT_IDS = loadEmbeddedSegments().map((segment) => segment.id);

/** Every page from the first, with the cursor each one gave. */
async function walk(store: Store, limit: number): Promise<string[]> {
  const seen: string[] = [];
  let after: AlertWatchCursor | null = null;
  for (let pages = 0; pages < 10_000; pages++) {
    const page = await listAlertWatchPage(store.db, { after, limit });
    seen.push(...page.watches.map((w) => `${w.riderId}/${w.segmentId}`));
    if (page.next === null) return seen;
    after = page.next;
  }
  throw new Error('paging never ended');
}

/** Riders, each with watches on some of the given segment ids, alerts on or off. */
const watchSets = fc.array(
  fc.array(fc.record({ segment: fc.constantFrom(...SEGMENT_IDS.slice(0, 12)), on: fc.boolean() }), {
    maxLength: 6,
  }),
  { minLength: 1, maxLength: 6 },
);

function describePaging(engine: string, open: () => Promise<Store>): void {
  describe(`keyset paging over watches (${engine})`, () => {
    let store: Store;
    beforeAll(async () => {
      store = await open();
    });
    afterAll(() => store.close());

    it('visits every watch with alerts on exactly once, whatever the page size', async () => {
      await fc.assert(
        fc.asyncProperty(watchSets, fc.integer({ min: 1, max: 7 }), async (riders, limit) => {
          await store.db.deleteFrom('watch').execute();
          await store.db.deleteFrom('rider').execute();
          const expected: string[] = [];
          for (const watches of riders) {
            const rider = await createRider(
              store.db,
              { email: `${randomBytes(6).toString('hex')}@x.org` },
              0,
            );
            for (const { segment, on } of watches) {
              await watchSegment(store.db, rider.id, segment, { alertsOn: on });
            }
            const last = new Map(watches.map(({ segment, on }) => [segment, on]));
            for (const [segment, on] of last) if (on) expected.push(`${rider.id}/${segment}`);
          }
          const seen = await walk(store, limit);
          expect(new Set(seen).size).toBe(seen.length);
          expect([...seen].sort()).toEqual([...expected].sort());
        }),
        { numRuns: 25 },
      );
    });

    it('a watch added behind the cursor between pages is not read, one ahead of it is read once', async () => {
      await store.db.deleteFrom('watch').execute();
      await store.db.deleteFrom('rider').execute();
      const rider = await createRider(store.db, { email: `${randomBytes(6).toString('hex')}@x.org` }, 0);
      const [a, b, c, d] = [...SEGMENT_IDS].sort();
      if (!a || !b || !c || !d) throw new Error('catalog too small');
      await watchSegment(store.db, rider.id, b);
      await watchSegment(store.db, rider.id, d);
      const first = await listAlertWatchPage(store.db, { limit: 1 });
      expect(first.watches.map((w) => w.segmentId)).toEqual([b]);
      await watchSegment(store.db, rider.id, a);
      await watchSegment(store.db, rider.id, c);
      const rest = await listAlertWatchPage(store.db, { after: first.next, limit: 10 });
      expect(rest.watches.map((w) => w.segmentId).sort()).toEqual([c, d].sort());
      expect(rest.next).toBeNull();
    });
  });
}

describePaging('SQLite', freshStore);

const noPostgres = await postgresUnavailable();
if (noPostgres) console.warn(`PostgreSQL paging tests skipped: ${noPostgres}`);
const database = `wos_alert_scale_${process.pid}_${randomBytes(4).toString('hex')}`;
describe.skipIf(noPostgres !== null)('on PostgreSQL', () => {
  beforeAll(() => admin(`create database "${database}"`));
  afterAll(() => admin(`drop database if exists "${database}" with (force)`));
  describePaging('PostgreSQL', async () => {
    const store = openStore({ engine: 'postgres', url: databaseUrl(database) });
    await migrateToLatest(store, APP_MIGRATIONS);
    return store;
  });
});

describe('evaluation in pages', () => {
  it('resumes from the cursor run after run, and records what one whole run would', async () => {
    const store = await freshStore();
    try {
      const riders = await Promise.all(Array.from({ length: 4 }, () => proRider(store)));
      for (const [i, rider] of riders.entries()) {
        for (const segment of SEGMENT_IDS.slice(i * 3, i * 3 + 5)) {
          await watchSegment(store.db, rider.id, segment, { thresholdKmh: 5 });
        }
      }
      const cursor = memoryCursorStore();
      const deps = { store, catalog, forecast: demoAt(fixedNow), now: fixedNow, cursor };
      const paged = { ...deps, watchPageSize: 3, evaluateBudgetMs: 0 };
      const runs = [];
      for (let i = 0; i < 20; i++) {
        const run = await evaluateAlerts(paged);
        runs.push(run);
        if (run.complete) break;
      }
      // 20 watches, 3 per page, one page per run (the budget is spent at once): 7 runs.
      expect(runs).toHaveLength(7);
      expect(runs.map((run) => run.resumed)).toEqual([false, true, true, true, true, true, true]);
      expect(runs.reduce((n, run) => n + run.watchesChecked, 0)).toBe(20);
      const recorded = runs.reduce((n, run) => n + run.alertsRecorded, 0);
      expect(recorded).toBeGreaterThan(0);
      expect(await cursor.load()).toBeNull();

      const whole = await evaluateAlerts(deps);
      expect(whole).toMatchObject({ complete: true, resumed: false, pages: 1, watchesChecked: 20 });
      expect(whole.alertsRecorded).toBe(0);
      expect(whole.alertsAlreadyKnown).toBe(recorded);
    } finally {
      await store.close();
    }
  });

  it('a forecast failure stops at its page and the next run starts there', async () => {
    const store = await freshStore();
    try {
      const rider = await proRider(store);
      for (const segment of SEGMENT_IDS.slice(0, 6)) await watchSegment(store.db, rider.id, segment);
      const cursor = memoryCursorStore();
      const demo = demoAt(fixedNow);
      let calls = 0;
      const flaky = {
        id: demo.id,
        hourly: async (points: Parameters<typeof demo.hourly>[0]) => {
          calls += 1;
          if (calls === 2) throw new Error('upstream down');
          return demo.hourly(points);
        },
      };
      const deps = { store, catalog, forecast: flaky, now: fixedNow, cursor, watchPageSize: 2 };
      const failed = await evaluateAlerts(deps);
      expect(failed).toMatchObject({ complete: false, pages: 1, watchesChecked: 2 });
      expect(failed.error).toMatch(/upstream down/);
      const resumed = await evaluateAlerts(deps);
      expect(resumed).toMatchObject({
        complete: true,
        resumed: true,
        pages: 2,
        watchesChecked: 4,
        error: null,
      });
    } finally {
      await store.close();
    }
  });

  it('a store failure while a page is written rejects the run and leaves the cursor where it was', async () => {
    const store = await freshStore();
    try {
      const rider = await proRider(store);
      for (const segment of SEGMENT_IDS.slice(0, 4)) await watchSegment(store.db, rider.id, segment);
      const cursor = memoryCursorStore();
      // Recording a page reads the alert table first; without it every page's write fails.
      await store.db.schema.dropTable('alert').execute();
      const deps = { store, catalog, forecast: demoAt(fixedNow), now: fixedNow, cursor, watchPageSize: 2 };
      await expect(evaluateAlerts(deps)).rejects.toThrow(/alert/);
      expect(await cursor.load()).toBeNull();
    } finally {
      await store.close();
    }
  });

  it('reads a shared cursor back, and an unreadable one as the start', async () => {
    const values = new Map<string, string>();
    const kv = {
      getMany: (keys: readonly string[]) => Promise.resolve(keys.map((k) => values.get(k) ?? null)),
      set: (key: string, value: string) => {
        values.set(key, value);
        return Promise.resolve();
      },
    };
    const shared = sharedCursorStore(kv, 'cursor');
    await shared.save({ riderId: 'r', segmentId: 's' });
    expect(await shared.load()).toEqual({ riderId: 'r', segmentId: 's' });
    await shared.save(null);
    expect(await shared.load()).toBeNull();
    values.set('cursor', '{"riderId":1');
    expect(await shared.load()).toBeNull();
  });
});

describe('createHostLimiter', () => {
  it('never runs more than the total, nor more than the per-host bound for one host', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.constantFrom('a', 'b', 'c', 'd'), fc.integer({ min: 0, max: 3 })), {
          maxLength: 60,
        }),
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 1, max: 4 }),
        async (tasks, total, perHost) => {
          const limiter = createHostLimiter({ total, perHost });
          let running = 0;
          let most = 0;
          const byHost = new Map<string, number>();
          let mostOnOneHost = 0;
          await Promise.all(
            tasks.map(([host, ticks]) =>
              limiter.run(host, async () => {
                running += 1;
                byHost.set(host, (byHost.get(host) ?? 0) + 1);
                most = Math.max(most, running);
                mostOnOneHost = Math.max(mostOnOneHost, byHost.get(host) ?? 0);
                for (let i = 0; i < ticks; i++) await new Promise((resolve) => setImmediate(resolve));
                running -= 1;
                byHost.set(host, (byHost.get(host) ?? 0) - 1);
              }),
            ),
          );
          expect(most).toBeLessThanOrEqual(total);
          expect(mostOnOneHost).toBeLessThanOrEqual(perHost);
          expect(limiter.outstandingTotal()).toBe(0);
        },
      ),
      { numRuns: 60 },
    );
  });
});

/**
 * Receivers on three loopback addresses (127.0.0.1–3, one port each), counting
 * requests in flight per address and in all. `hold` keeps an address's
 * answers back until released.
 */
interface Receivers {
  readonly origins: readonly string[];
  readonly keys: Map<string, string[]>;
  readonly received: Map<string, number>;
  readonly peak: { total: number; byHost: Map<string, number> };
  hold(address: string, until: Promise<void>): void;
  answerFirst(status: number): void;
  close(): Promise<void>;
}

async function startReceivers(addresses: readonly string[]): Promise<Receivers> {
  const inFlight = new Map<string, number>();
  let total = 0;
  const peak = { total: 0, byHost: new Map<string, number>() };
  const keys = new Map<string, string[]>();
  const received = new Map<string, number>();
  const holds = new Map<string, Promise<void>>();
  let firstStatus: number | null = null;
  const servers: Server[] = [];
  const origins: string[] = [];
  for (const address of addresses) {
    const server = createServer((request, response) => {
      total += 1;
      inFlight.set(address, (inFlight.get(address) ?? 0) + 1);
      peak.total = Math.max(peak.total, total);
      peak.byHost.set(address, Math.max(peak.byHost.get(address) ?? 0, inFlight.get(address) ?? 0));
      const alertId = String(request.headers['x-wos-alert-id']);
      keys.set(alertId, [...(keys.get(alertId) ?? []), String(request.headers['idempotency-key'])]);
      received.set(address, (received.get(address) ?? 0) + 1);
      request.resume();
      request.on('end', () => {
        void (holds.get(address) ?? Promise.resolve()).then(() => {
          total -= 1;
          inFlight.set(address, (inFlight.get(address) ?? 0) - 1);
          const status = firstStatus ?? 204;
          firstStatus = null;
          response.writeHead(status).end();
        });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, address, resolve));
    servers.push(server);
    origins.push(`http://${address}:${(server.address() as AddressInfo).port}`);
  }
  return {
    origins,
    keys,
    received,
    peak,
    hold: (address, until) => holds.set(address, until),
    answerFirst: (status) => {
      firstStatus = status;
    },
    close: async () => {
      for (const server of servers) {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
    },
  };
}

const LOOPBACKS = ['127.0.0.1', '127.0.0.2', '127.0.0.3'];

describe('webhook delivery at scale', () => {
  let receivers: Receivers;
  beforeAll(async () => {
    receivers = await startReceivers(LOOPBACKS);
  });
  afterAll(() => receivers.close());

  /** One rider per alert, alerts queued slow host first, so a scheduler without a per-host bound fills up with it. */
  async function queue(store: Store, perHost: number): Promise<void> {
    for (const origin of receivers.origins) {
      for (let i = 0; i < perHost; i++) {
        const rider = await proRider(store, { url: `${origin}/hook`, secret: 'whsec_scale' });
        const window = {
          segmentId: 'gb-box-hill',
          windowStart: nowS + 3600,
          windowEnd: nowS + 7200,
          peakTailwindKmh: 20,
        };
        await recordAlertOnce(store.db, rider.id, window, nowS + i);
      }
    }
  }

  it('keeps to the caps, and a receiver that does not answer holds only its own share', async () => {
    const store = await freshStore();
    try {
      await queue(store, 20);
      // 127.0.0.1 answers nothing until the other two have every one of their alerts.
      let release = (): void => undefined;
      receivers.hold('127.0.0.1', new Promise<void>((resolve) => (release = resolve)));
      const watcher = setInterval(() => {
        if (
          (receivers.received.get('127.0.0.2') ?? 0) >= 20 &&
          (receivers.received.get('127.0.0.3') ?? 0) >= 20
        )
          release();
      }, 5);
      const summary = await deliverPendingAlerts({
        store,
        now: fixedNow,
        checkTarget: acceptLoopback,
        timeoutMs: 30_000,
        concurrency: 5,
        perHost: 2,
        deliveryPageSize: 15,
      });
      clearInterval(watcher);
      expect(summary).toMatchObject({ attempted: 60, delivered: 60, failed: 0, deferred: 0 });
      expect(receivers.peak.total).toBeLessThanOrEqual(5);
      expect(receivers.peak.total).toBeGreaterThan(2);
      for (const address of LOOPBACKS) expect(receivers.peak.byHost.get(address)).toBeLessThanOrEqual(2);
    } finally {
      receivers.hold('127.0.0.1', Promise.resolve());
      await store.close();
    }
  });

  it('sends the same Idempotency-Key on a retry, and a different one for another alert', async () => {
    const store = await freshStore();
    try {
      const rider = await proRider(store, { url: `${receivers.origins[1]}/hook`, secret: 'whsec_scale' });
      const window = {
        segmentId: 'gb-box-hill',
        windowStart: nowS + 3600,
        windowEnd: nowS + 7200,
        peakTailwindKmh: 20,
      };
      const alert = await recordAlertOnce(store.db, rider.id, window, nowS);
      const other = await recordAlertOnce(
        store.db,
        rider.id,
        { ...window, segmentId: 'fr-alpe-d-huez' },
        nowS,
      );
      if (!alert || !other) throw new Error('alerts not recorded');
      const deps = { store, now: fixedNow, checkTarget: acceptLoopback, timeoutMs: 5000, concurrency: 1 };
      receivers.answerFirst(500);
      expect(await deliverPendingAlerts(deps)).toMatchObject({ delivered: 1, failed: 1 });
      expect(await deliverPendingAlerts(deps)).toMatchObject({ delivered: 1, failed: 0 });
      // Whichever alert got the 500 was sent twice, with the same key both times.
      const sent = [alert.id, other.id].map((id) => receivers.keys.get(id) ?? []);
      expect(sent.map((keys) => keys.length).sort()).toEqual([1, 2]);
      for (const [i, id] of [alert.id, other.id].entries()) {
        expect(new Set(sent[i])).toEqual(new Set([idempotencyKeyOf(id)]));
      }
      expect(idempotencyKeyOf(alert.id)).not.toBe(idempotencyKeyOf(other.id));
      const stored = await listRecentAlerts(store.db, rider.id);
      expect(stored.every((a) => a.deliveredAt !== null)).toBe(true);
    } finally {
      await store.close();
    }
  });

  it('leaves what the budget cannot reach for the next run, without counting an attempt', async () => {
    const store = await freshStore();
    try {
      await queue(store, 3);
      const deps = { store, now: fixedNow, checkTarget: acceptLoopback, timeoutMs: 5000 };
      // The budget is spent before the first delivery starts: the page read waits, nothing is sent or counted.
      const before =
        receivers.received.size === 0 ? 0 : [...receivers.received.values()].reduce((a, b) => a + b);
      expect(await deliverPendingAlerts({ ...deps, deliveryBudgetMs: 0 })).toMatchObject({
        attempted: 0,
        deferred: 9,
      });
      const attempts = await store.db.selectFrom('alert').select('attempts').execute();
      expect(attempts.map((row) => row.attempts)).toEqual(Array.from({ length: 9 }, () => 0));
      expect([...receivers.received.values()].reduce((a, b) => a + b, 0)).toBe(before);
      expect(await deliverPendingAlerts(deps)).toMatchObject({ attempted: 9, delivered: 9, deferred: 0 });
    } finally {
      await store.close();
    }
  });
});
