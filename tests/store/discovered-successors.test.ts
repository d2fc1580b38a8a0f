/**
 * Migration 0011 on both engines: watches on the discovered climbs of 1.7.3 move to the climbs that
 * took their place, a rider who watched two fragments of one climb keeps one watch, an id with no
 * successor is left for the watchlist to report, and an alert already sent for a window moves with
 * its watch so the window is not alerted twice.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_MIGRATIONS } from '../../src/app/migrations.ts';
import { ALERT_THRESHOLD_DEFAULT_KMH } from '../../src/core/rider-rules.ts';
import { loadEmbeddedSegments } from '../../src/data/segments/load.ts';
import { openStore, type Store } from '../../src/store/database.ts';
import { migrateToLatest } from '../../src/store/migrate.ts';
import { SUCCESSORS_1_8 } from '../../src/store/migrations/0011-discovered-successors.ts';
import { recordAlertOnce } from '../../src/store/repositories/alerts.ts';
import { createRider } from '../../src/store/repositories/riders.ts';
import { listWatchlist, watchSegment } from '../../src/store/repositories/watchlist.ts';
import { admin, databaseUrl, postgresUnavailable } from './postgres-server.ts';

const NEW_MIGRATION = '0011_discovered_successors';
const BEFORE = Object.fromEntries(Object.entries(APP_MIGRATIONS).filter(([name]) => name < NEW_MIGRATION));

const ENVALIRA_PIECE = 'ad-port-d-envalira-from-grau-roig-north-west-side';
const ENVALIRA_OTHER_PIECE = 'ad-cg-2-climb-from-ransol';
const ENVALIRA = 'ad-port-d-envalira-from-andorra-la-vella';
const GONE = 'ad-cs-270-climb-from-soldeu';
const UNCHANGED = 'ad-col-d-ordino-from-ordino';

const noServer = await postgresUnavailable();
const database = `wos_successors_${process.pid}_${randomBytes(4).toString('hex')}`;
const engines: { name: string; skip: boolean; open: () => Store }[] = [
  {
    name: 'sqlite',
    skip: false,
    open: () =>
      openStore({
        engine: 'sqlite',
        path: join(mkdtempSync(join(tmpdir(), 'wos-successors-')), 'store.sqlite'),
      }),
  },
  {
    name: 'postgres',
    skip: noServer !== null,
    open: () => openStore({ engine: 'postgres', url: databaseUrl(database), poolMax: 4 }),
  },
];

describe('the successors table', () => {
  it('maps only to climbs the shipped catalog holds, and leaves the unchanged ids out', () => {
    const shipped = new Set(loadEmbeddedSegments().map((segment) => segment.id));
    for (const [old, next] of Object.entries(SUCCESSORS_1_8)) {
      expect(shipped.has(old), `${old} is still shipped, so it needs no successor`).toBe(false);
      if (next !== null) expect(shipped.has(next), `${old} → ${next}`).toBe(true);
    }
    expect(SUCCESSORS_1_8[ENVALIRA_PIECE]).toBe(ENVALIRA);
    expect(SUCCESSORS_1_8[GONE]).toBeNull();
  });
});

describe.each(engines)('migration 0011 on $name', ({ name, skip, open }) => {
  let store: Store;
  const riders = {} as Record<'one' | 'both' | 'already', string>;

  beforeAll(async () => {
    if (skip) return;
    if (name === 'postgres') await admin(`create database "${database}"`);
    store = open();
    await migrateToLatest(store, BEFORE);
    const now = 1_790_000_000;
    for (const key of ['one', 'both', 'already'] as const) {
      riders[key] = (
        await createRider(store.db, { email: `${key}-${name}@example.com`, plan: 'pro' }, now)
      ).id;
    }
    await watchSegment(store.db, riders.one, ENVALIRA_PIECE, { thresholdKmh: 12 }, now);
    await watchSegment(store.db, riders.one, GONE, {}, now);
    await watchSegment(store.db, riders.one, UNCHANGED, {}, now);
    await watchSegment(store.db, riders.both, ENVALIRA_PIECE, { thresholdKmh: 9 }, now);
    await watchSegment(store.db, riders.both, ENVALIRA_OTHER_PIECE, { thresholdKmh: 15 }, now);
    await watchSegment(store.db, riders.already, ENVALIRA, { thresholdKmh: 20 }, now);
    await watchSegment(store.db, riders.already, ENVALIRA_PIECE, { thresholdKmh: 8 }, now);
    const window = (segmentId: string) => ({
      segmentId,
      windowStart: now + 3_600,
      windowEnd: now + 7_200,
      peakTailwindKmh: 14,
    });
    await recordAlertOnce(store.db, riders.one, window(ENVALIRA_PIECE), now);
    await recordAlertOnce(store.db, riders.already, window(ENVALIRA), now);
    await recordAlertOnce(store.db, riders.already, window(ENVALIRA_PIECE), now);
    const { applied } = await migrateToLatest(store, APP_MIGRATIONS);
    expect(applied[0]).toBe(NEW_MIGRATION);
  });
  afterAll(async () => {
    if (skip) return;
    await store.close();
    if (name === 'postgres') await admin(`drop database if exists "${database}" with (force)`);
  });

  const watched = async (riderId: string) =>
    Object.fromEntries((await listWatchlist(store.db, riderId)).map((w) => [w.segmentId, w.thresholdKmh]));

  it.skipIf(skip)('moves a watch to its successor, leaves a gone one and an unchanged one', async () => {
    expect(await watched(riders.one)).toEqual({
      [ENVALIRA]: 12,
      [GONE]: ALERT_THRESHOLD_DEFAULT_KMH,
      [UNCHANGED]: ALERT_THRESHOLD_DEFAULT_KMH,
    });
  });

  it.skipIf(skip)('keeps one watch for two fragments of one climb, and the one already on it', async () => {
    const both = await watched(riders.both);
    expect(Object.keys(both)).toEqual([ENVALIRA]);
    expect(await watched(riders.already)).toEqual({ [ENVALIRA]: 20 });
  });

  it.skipIf(skip)(
    'moves an alert with its watch unless the climb already has one for that window',
    async () => {
      const rows = await store.db.selectFrom('alert').select(['rider_id', 'segment_id']).execute();
      const of = (riderId: string) =>
        rows
          .filter((r) => r.rider_id === riderId)
          .map((r) => r.segment_id)
          .sort();
      expect(of(riders.one)).toEqual([ENVALIRA]);
      expect(of(riders.already)).toEqual([ENVALIRA_PIECE, ENVALIRA].sort());
    },
  );
});
