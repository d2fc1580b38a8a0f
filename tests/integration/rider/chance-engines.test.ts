/**
 * The rider tools with probabilities on both store engines: the chance of a
 * tailwind (demo ensemble) for Pro and trial riders, a `locked` entry for
 * free ones, and the alert's chance rule kept, on SQLite and on PostgreSQL
 * (a database created for this run and dropped after; skipped with the
 * reason when no server answers, a failure under WOS_REQUIRE_POSTGRES=1,
 * as in tests/integration/store/postgres.test.ts). Both engines must give the same answers.
 */
import { randomBytes } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, describe, expect, it } from 'vitest';
import { FindTailwindSegmentsOutputSchema } from '../../../src/mcp/schemas/find.ts';
import {
  GetMyTailwindWindowsOutputSchema,
  GetMyWatchlistOutputSchema,
} from '../../../src/mcp/schemas/rider.ts';
import { GetRouteWindOutputSchema } from '../../../src/mcp/schemas/route.ts';
import { GetSegmentOutputSchema } from '../../../src/mcp/schemas/segment.ts';
import { openStore, type Store } from '../../../src/store/database.ts';
import { TEST_NOW } from '../../support/mcp-deps.ts';
import { createRiderHarness } from '../../support/rider-harness.ts';
import { hundredKmPoints } from '../../support/route-points.ts';
import { admin, databaseUrl, postgresUnavailable } from '../../store/postgres-server.ts';

const NOW_S = Math.floor(TEST_NOW / 1000);
const DAY_S = 86_400;
const ALPE = 'fr-alpe-d-huez';
const VENTOUX = 'fr-mont-ventoux-bedoin';
const database = `wos_chance_${process.pid}_${randomBytes(4).toString('hex')}`;

const noServer = await postgresUnavailable();
if (noServer) console.warn(`PostgreSQL rider-chance tests skipped: ${noServer}`);

type Result = Awaited<ReturnType<Client['callTool']>>;
const call = (client: Client, name: string, args: Record<string, unknown> = {}): Promise<Result> =>
  client.callTool({ name, arguments: args });
function ok(result: Result): unknown {
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  return result.structuredContent;
}

/** What each engine answered, to compare the two at the end. */
const answers = new Map<string, unknown>();

const engines: [string, (() => Promise<Store>) | null][] = [
  ['sqlite', null],
  [
    'postgres',
    noServer
      ? null
      : async () => {
          await admin(`create database "${database}"`);
          return openStore({ engine: 'postgres', url: databaseUrl(database), poolMax: 4 });
        },
  ],
];

afterAll(async () => {
  if (!noServer) await admin(`drop database if exists "${database}" with (force)`);
});

describe.each(engines)('rider tools with probabilities on %s', (engine, openEngine) => {
  const skip = engine === 'postgres' && noServer !== null;
  it.skipIf(skip)(
    'give Pro and trial riders the chance, free riders a locked entry, and keep the chance rule',
    async () => {
      const h = await createRiderHarness(openEngine ? { store: await openEngine() } : {});
      try {
        const pro = await h.connectRider(await h.createRider({ plan: 'pro' }));
        const trial = await h.connectRider(await h.createRider({ trialEndsAt: NOW_S + 7 * DAY_S }));
        const free = await h.connectRider(await h.createRider({ trialEndsAt: NOW_S - DAY_S }));

        // get_segment
        const segment = GetSegmentOutputSchema.parse(
          ok(await call(pro, 'get_segment', { segment_id: ALPE })),
        );
        const chance = segment.best_window?.chance;
        expect(chance?.pct).toEqual(expect.any(Number));
        expect(chance?.p10_kmh).toBeLessThanOrEqual(chance?.p50_kmh ?? NaN);
        expect(chance?.p50_kmh).toBeLessThanOrEqual(chance?.p90_kmh ?? NaN);
        expect(segment.ensemble).toMatchObject({ source: 'demo', members: 51, min_tailwind_kmh: 5 });
        const freeSegment = GetSegmentOutputSchema.parse(
          ok(await call(free, 'get_segment', { segment_id: ALPE })),
        );
        expect(freeSegment.best_window?.chance).toBeUndefined();
        expect(freeSegment.locked.map((l) => l.feature)).toContain('tailwind_chance');

        // find_tailwind_segments
        const found = FindTailwindSegmentsOutputSchema.parse(
          ok(await call(trial, 'find_tailwind_segments', { latitude: 45.09, longitude: 6.07, limit: 5 })),
        );
        const foundWindows = found.segments.flatMap((s) => (s.best_window ? [s.best_window] : []));
        expect(foundWindows.length).toBeGreaterThan(0);
        for (const window of foundWindows) expect(window.chance?.pct).toEqual(expect.any(Number));

        // get_my_tailwind_windows: the same window, the same chance as get_segment
        for (const client of [pro, free]) {
          ok(await call(client, 'watch_segment', { segment_id: ALPE }));
          ok(await call(client, 'watch_segment', { segment_id: VENTOUX }));
        }
        const windows = GetMyTailwindWindowsOutputSchema.parse(
          ok(await call(pro, 'get_my_tailwind_windows')),
        );
        const alpe = windows.segments?.find((s) => s.segment_id === ALPE);
        expect(alpe?.best_window?.start).toBe(segment.best_window?.start);
        expect(alpe?.best_window?.chance).toEqual(chance);
        expect(windows.ensemble?.model).toBe('demo');
        expect(windows.locked).toEqual([]);
        const freeWindows = GetMyTailwindWindowsOutputSchema.parse(
          ok(await call(free, 'get_my_tailwind_windows')),
        );
        expect(freeWindows.ensemble).toBeUndefined();
        expect(freeWindows.segments?.every((s) => s.best_window?.chance === undefined)).toBe(true);
        expect(freeWindows.locked.map((l) => l.feature)).toContain('tailwind_chance');

        // the alert's chance rule, stored and read back by the engine
        ok(
          await call(pro, 'set_alert_threshold', { segment_id: ALPE, threshold_kmh: 12, min_chance_pct: 70 }),
        );
        const list = GetMyWatchlistOutputSchema.parse(ok(await call(pro, 'get_my_watchlist')));
        expect(list.watchlist?.find((w) => w.segment_id === ALPE)).toMatchObject({
          threshold_kmh: 12,
          min_chance_pct: 70,
        });
        expect(list.watchlist?.find((w) => w.segment_id === VENTOUX)).toMatchObject({ min_chance_pct: null });

        // get_route_wind
        const route = GetRouteWindOutputSchema.parse(
          ok(await call(trial, 'get_route_wind', { points: hundredKmPoints(2) })),
        );
        expect(route.best_starts.length).toBeGreaterThan(0);
        for (const start of route.best_starts) expect(start.gain_chance_pct).toEqual(expect.any(Number));

        answers.set(engine, {
          chance,
          found: foundWindows.map((w) => w.chance),
          windows: windows.segments?.map((s) => s.best_window?.chance ?? null),
          route: route.best_starts.map((s) => s.gain_chance_pct),
        });
      } finally {
        await h.close();
      }
    },
  );
});

describe('both engines', () => {
  it.skipIf(noServer !== null)('answer with the same chances', () => {
    expect(answers.get('sqlite')).toBeDefined();
    expect(answers.get('postgres')).toEqual(answers.get('sqlite'));
  });
});
