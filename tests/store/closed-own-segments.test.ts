/**
 * Issue 28, item 6: loops and out-and-backs kept as own segments before such
 * lines were refused. On both engines: migration 0007 flags them (and only
 * them), get_my_watchlist says their alerts cannot fire and points to
 * get_route_wind, and the alert job no longer evaluates them while it still
 * evaluates the rider's one-way segment.
 */
import { randomBytes } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluateAlerts } from '../../src/alerts/evaluate.ts';
import { APP_MIGRATIONS } from '../../src/app/migrations.ts';
import { prepareOwnSegment } from '../../src/core/own-segment.ts';
import { ALERT_THRESHOLD_MIN_KMH } from '../../src/core/rider-rules.ts';
import { GetMyWatchlistOutputSchema } from '../../src/mcp/schemas/rider.ts';
import { openStore, type Store } from '../../src/store/database.ts';
import { migrateToLatest } from '../../src/store/migrate.ts';
import { listAlertWatchPage } from '../../src/store/repositories/alert-watches.ts';
import { listRecentAlerts } from '../../src/store/repositories/alerts.ts';
import {
  addRiderSegment,
  listClosedRiderSegments,
  type NewRiderSegment,
} from '../../src/store/repositories/rider-segments.ts';
import { createRider, type Rider } from '../../src/store/repositories/riders.ts';
import { setAlertThreshold } from '../../src/store/repositories/watchlist.ts';
import { climbPoints } from '../mcp/own-segment-fixtures.ts';
import { resultText } from '../support/mcp-client.ts';
import { TEST_NOW } from '../support/mcp-deps.ts';
import { createRiderHarness, type RiderHarness } from '../support/rider-harness.ts';
import { admin, databaseUrl, postgresUnavailable } from './postgres-server.ts';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const NEW_MIGRATION = '0007_closed_own_segments';
/** The store as it was before the migration: every migration that sorts before it (later ones run after it). */
const BEFORE = Object.fromEntries(Object.entries(APP_MIGRATIONS).filter(([name]) => name < NEW_MIGRATION));
const FROM_NEW = Object.keys(APP_MIGRATIONS)
  .filter((name) => name >= NEW_MIGRATION)
  .sort();

/** A stored line as an old upload kept it: the figures matter little here, the shape is what is judged. */
function kept(name: string, points: readonly { lat: number; lon: number }[]): NewRiderSegment {
  return {
    name,
    source: 'points',
    points,
    distanceM: 6000,
    gainM: 0,
    gradePct: 0,
    bearingDeg: 90,
    elevationCoverage: 0,
  };
}

// A 6 km square ridden round back to its start, and a climb ridden up and back down the same road.
const LOOP = [
  [45.05, 6.03],
  [45.05, 6.05],
  [45.064, 6.05],
  [45.064, 6.03],
  [45.0501, 6.0301],
].map(([lat = 0, lon = 0]) => ({ lat, lon }));
const UP = climbPoints().map(({ lat, lon }) => ({ lat, lon }));
const OUT_AND_BACK = [...UP, ...UP.slice(0, -1).reverse()];

const noServer = await postgresUnavailable();
const database = `wos_closed_${process.pid}_${randomBytes(4).toString('hex')}`;

const engines: { name: string; skip: boolean; open: () => Store }[] = [
  {
    name: 'sqlite',
    skip: false,
    open: () =>
      openStore({ engine: 'sqlite', path: join(mkdtempSync(join(tmpdir(), 'wos-closed-')), 'store.sqlite') }),
  },
  {
    name: 'postgres',
    skip: noServer !== null,
    open: () => openStore({ engine: 'postgres', url: databaseUrl(database), poolMax: 4 }),
  },
];

describe.each(engines)(
  'closed own segments kept before loops were refused, on $name',
  ({ name, skip, open }) => {
    let h: RiderHarness;
    let rider: Rider;
    const ids = {} as Record<'loop' | 'outAndBack' | 'climb', string>;
    let applied: readonly string[] = [];

    beforeAll(async () => {
      if (skip) return;
      if (name === 'postgres') await admin(`create database "${database}"`);
      const store = open();
      await migrateToLatest(store, BEFORE);
      const nowS = Math.floor(TEST_NOW / 1000);
      rider = await createRider(store.db, { email: `closed-${name}@example.com`, plan: 'pro' }, nowS);
      const rules = { allowance: 10, watchlistMax: 50 };
      const add = async (segment: NewRiderSegment) => {
        const outcome = await addRiderSegment(store.db, rider.id, segment, rules, nowS);
        if (!outcome.ok) throw new Error(`not added: ${outcome.reason}`);
        // The lowest threshold, so a one-way segment surely reaches it in the demo forecast.
        await setAlertThreshold(store.db, rider.id, outcome.segment.id, ALERT_THRESHOLD_MIN_KMH);
        return outcome.segment.id;
      };
      ids.loop = await add(kept('Lake loop', LOOP));
      ids.outAndBack = await add(kept('Up and back', OUT_AND_BACK));
      ids.climb = await add({ ...prepareOwnSegment('points', climbPoints()), name: 'Hairpins' });
      applied = (await migrateToLatest(store, APP_MIGRATIONS)).applied;
      h = await createRiderHarness({ store });
    });
    afterAll(async () => {
      await h?.close();
      if (!skip && name === 'postgres') await admin(`drop database if exists "${database}" with (force)`);
    });

    it.skipIf(skip)('the migration flags the loop and the out-and-back, and nothing else', async () => {
      expect(applied).toEqual(FROM_NEW);
      expect(applied[0]).toBe(NEW_MIGRATION);
      const closed = await listClosedRiderSegments(h.store.db, rider.id);
      expect(Object.fromEntries(closed)).toEqual({ [ids.loop]: 'loop', [ids.outAndBack]: 'out_and_back' });
    });

    it.skipIf(skip)(
      'get_my_watchlist says their alerts cannot fire and points to get_route_wind',
      async () => {
        const client: Client = await h.connectRider(rider);
        const result = await client.callTool({ name: 'get_my_watchlist', arguments: {} });
        const data = GetMyWatchlistOutputSchema.parse(result.structuredContent);
        const entry = (id: string) => data.watchlist?.find((w) => w.segment_id === id);
        expect(entry(ids.loop)?.alerts_cannot_fire).toMatch(/^A loop has no one direction.*get_route_wind/);
        expect(entry(ids.outAndBack)?.alerts_cannot_fire).toMatch(/^An out-and-back .*get_route_wind/);
        expect(entry(ids.climb)).toBeDefined();
        expect(entry(ids.climb)?.alerts_cannot_fire).toBeUndefined();
        const text = resultText(result);
        expect(text).toMatch(
          /Lake loop \[my--\w+\]: no record, alerts cannot fire\. A loop .*get_route_wind/,
        );
        expect(text).toMatch(/Hairpins \[my--\w+\]: no record, alerts from a peak tailwind/);
      },
    );

    it.skipIf(skip)('the alert job reads and evaluates only the one-way segment', async () => {
      const page = await listAlertWatchPage(h.store.db, { limit: 100 });
      expect(page.watches.map((w) => w.segmentId)).toEqual([ids.climb]);
      const summary = await evaluateAlerts({
        store: h.store,
        catalog: h.deps.catalog,
        forecast: h.deps.forecast,
        now: h.deps.now,
      });
      expect(summary.error).toBeNull();
      expect(summary.segmentsForecast).toBe(1);
      const alerted = new Set(
        (await listRecentAlerts(h.store.db, rider.id, { limit: 100 })).map((a) => a.segmentId),
      );
      expect(alerted.has(ids.loop)).toBe(false);
      expect(alerted.has(ids.outAndBack)).toBe(false);
    });
  },
);
