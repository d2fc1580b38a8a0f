/**
 * Riders' own segments through the rider address, on both store engines:
 * adding from GPX, GeoJSON and points, the private id answering like an
 * unknown one for everybody but the owner (another rider, the public tools, a
 * read-only grant), the allowance, bad input with nothing stored, and the
 * alert job and record estimates on the segment's real geometry.
 */
import { randomBytes } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluateAlerts } from '../../src/alerts/evaluate.ts';
import { deliverPendingAlerts } from '../../src/alerts/alert-delivery.ts';
import { listRecentAlerts, recordAlertOnce } from '../../src/store/repositories/alerts.ts';
import { setRiderWebhook } from '../../src/store/repositories/riders.ts';
import { SCOPE_READ } from '../../src/rider/access-policy.ts';
import { prepareOwnSegment } from '../../src/core/own-segment.ts';
import { OWN_SEGMENT_ALLOWANCE, ownSegmentsFeature, PLANS } from '../../src/core/plans.ts';
import { ALERT_THRESHOLD_MIN_KMH, OWN_SEGMENT_ID_PREFIX } from '../../src/core/rider-rules.ts';
import { PRO_DETAILS } from '../../src/mcp/report/pro-details.ts';
import {
  AddMySegmentOutputSchema,
  RemoveMySegmentOutputSchema,
  RiderRouteWindOutputSchema,
} from '../../src/mcp/schemas/own-segments.ts';
import { GetMyTailwindWindowsOutputSchema, GetMyWatchlistOutputSchema } from '../../src/mcp/schemas/rider.ts';
import { openStore, type Store } from '../../src/store/database.ts';
import {
  addRiderSegment,
  countRiderSegments,
  listRiderSegments,
} from '../../src/store/repositories/rider-segments.ts';
import type { Rider } from '../../src/store/repositories/riders.ts';
import { listWatchlist, setAlertThreshold, watchSegment } from '../../src/store/repositories/watchlist.ts';
import { GetSegmentOutputSchema } from '../../src/mcp/schemas/segment.ts';
import { resultText, toolErrorText } from '../support/mcp-client.ts';
import { TEST_NOW } from '../support/mcp-deps.ts';
import { createRiderHarness, type RiderHarness } from '../support/rider-harness.ts';
import { admin, databaseUrl, postgresUnavailable } from '../store/postgres-server.ts';
import { climbGpx, climbPointArgs, climbPoints } from './own-segment-fixtures.ts';
import { checkWebhookUrl } from '../../src/rider/webhook-url.ts';

const NOW_S = Math.floor(TEST_NOW / 1000);
type Result = Awaited<ReturnType<Client['callTool']>>;

const call = (client: Client, name: string, args: Record<string, unknown> = {}): Promise<Result> =>
  client.callTool({ name, arguments: args });

function ok(result: Result): unknown {
  if (result.isError) throw new Error(`tool error: ${JSON.stringify(result.content)}`);
  return result.structuredContent;
}

/** A well-formed own id nobody has: what a stranger's id must be indistinguishable from. */
const unknownId = () => `${OWN_SEGMENT_ID_PREFIX}${'a'.repeat(20)}`;
const sameAsUnknown = (text: string, id: string) => text.replaceAll(id, '<id>');

const noServer = await postgresUnavailable();
const database = `wos_own_${process.pid}_${randomBytes(4).toString('hex')}`;

const engines: { name: string; skip: boolean; open: () => Store | undefined }[] = [
  { name: 'sqlite', skip: false, open: () => undefined },
  {
    name: 'postgres',
    skip: noServer !== null,
    open: () => openStore({ engine: 'postgres', url: databaseUrl(database), poolMax: 4 }),
  },
];

describe.each(engines)('own segments on $name', ({ name, skip, open }) => {
  let h: RiderHarness;
  const riders = {} as Record<'owner' | 'other' | 'free', Rider>;

  beforeAll(async () => {
    if (skip) return;
    if (name === 'postgres') await admin(`create database "${database}"`);
    const store = open();
    h = await createRiderHarness(store ? { store } : {});
    riders.owner = await h.createRider({ plan: 'pro' });
    riders.other = await h.createRider({ plan: 'pro' });
    riders.free = await h.createRider({ trialEndsAt: NOW_S - 86_400 });
  });
  afterAll(async () => {
    if (skip) return;
    await h.close();
    if (name === 'postgres') await admin(`drop database if exists "${database}" with (force)`);
  });

  it.skipIf(skip)('adds from GPX, watched at once, with the figures src/core computes', async () => {
    const owner = await h.connectRider(riders.owner);
    const gpx = climbGpx();
    const added = AddMySegmentOutputSchema.parse(
      ok(await call(owner, 'add_my_segment', { gpx, name: 'My climb', record_s: 1500 })),
    );
    const expected = prepareOwnSegment('gpx', gpx);
    expect(added.segment.id.startsWith(OWN_SEGMENT_ID_PREFIX)).toBe(true);
    expect(added.segment).toMatchObject({
      name: 'My climb',
      distance_m: expected.distanceM,
      elevation_gain_m: expected.gainM,
      average_grade_pct: expected.gradePct,
      popularity_rank: null,
      source: 'gpx',
      points_kept: expected.points.length,
    });
    expect(added.segment.elevation_gain_m).toBeGreaterThan(100);
    expect(added.watched).toMatchObject({ catalog_status: 'own_segment', record_s: 1500, alerts_on: true });
    expect(added.own_segments).toEqual({ used: 1, allowance: OWN_SEGMENT_ALLOWANCE.pro });

    const list = GetMyWatchlistOutputSchema.parse(ok(await call(owner, 'get_my_watchlist')));
    expect(list.watchlist?.map((w) => [w.segment_id, w.catalog_status, w.segment?.name])).toContainEqual([
      added.segment.id,
      'own_segment',
      'My climb',
    ]);
    const windows = GetMyTailwindWindowsOutputSchema.parse(ok(await call(owner, 'get_my_tailwind_windows')));
    const entry = windows.segments?.find((s) => s.segment_id === added.segment.id);
    expect(entry?.catalog_status).toBe('own_segment');
    expect(entry?.window_status).not.toBe('no_forecast');
    expect(entry?.estimate_status === 'estimated' || entry?.estimate_status === 'no_window').toBe(true);
    // A private upload is not a catalog entry to credit.
    expect(windows.attribution?.join(' ')).not.toMatch(/Private/);
  });

  it.skipIf(skip)(
    "get_segment answers the owner's own segment: its route, the wind now and the best window",
    async () => {
      const owner = await h.connectRider(riders.owner);
      const added = AddMySegmentOutputSchema.parse(
        ok(await call(owner, 'add_my_segment', { points: climbPointArgs(), name: 'Home climb' })),
      );
      const id = added.segment.id;
      const result = await call(owner, 'get_segment', { segment_id: id });
      const answer = GetSegmentOutputSchema.parse(ok(result));
      expect(answer.segment).toMatchObject({
        id,
        name: 'Home climb',
        country_code: 'ZZ',
        popularity_rank: null,
      });
      expect(answer.segment.polyline.length).toBeGreaterThanOrEqual(2);
      const start = climbPoints()[0];
      expect(answer.segment.polyline[0]).toEqual([start?.lat, start?.lon]);
      expect(answer.wind_now).not.toBeNull();
      expect(answer.best_window !== null || answer.window_status !== 'found').toBe(true);
      expect(answer.time_zone).toBe('Europe/Paris');
      const text = JSON.stringify(result.content);
      expect(text).toContain(`Home climb [${id}]`);
      expect(text).not.toMatch(/No segment has the id/);
    },
  );

  it.skipIf(skip)(
    'answers a stranger exactly as for an unknown id: other rider, public tools, removal',
    async () => {
      const owner = await h.connectRider(riders.owner);
      const added = AddMySegmentOutputSchema.parse(
        ok(await call(owner, 'add_my_segment', { points: climbPointArgs(), name: 'Secret loop' })),
      );
      const id = added.segment.id;
      const other = await h.connectRider(riders.other);
      for (const [tool, args] of [
        ['watch_segment', { segment_id: id }],
        ['set_alert_threshold', { segment_id: id, threshold_kmh: 20 }],
        ['unwatch_segment', { segment_id: id }],
        ['remove_my_segment', { segment_id: id }],
        ['get_segment', { segment_id: id }],
      ] as const) {
        const mine = await call(other, tool, args);
        const unknown = await call(other, tool, { ...args, segment_id: unknownId() });
        expect(mine.isError ?? false, tool).toBe(unknown.isError ?? false);
        expect(sameAsUnknown(JSON.stringify(mine.content), id), tool).toBe(
          sameAsUnknown(JSON.stringify(unknown.content), unknownId()),
        );
      }
      const theirs = GetMyWatchlistOutputSchema.parse(ok(await call(other, 'get_my_watchlist')));
      expect(JSON.stringify(theirs)).not.toContain(id);

      const anonymous = await h.connect({ kind: 'anonymous' });
      const publicAnswer = await call(anonymous, 'get_segment', { segment_id: id });
      const publicUnknown = await call(anonymous, 'get_segment', { segment_id: unknownId() });
      expect(sameAsUnknown(JSON.stringify(publicAnswer.content), id)).toBe(
        sameAsUnknown(JSON.stringify(publicUnknown.content), unknownId()),
      );
      const start = climbPoints()[0];
      const near = await call(anonymous, 'find_tailwind_segments', {
        latitude: start?.lat,
        longitude: start?.lon,
        radius_km: 50,
      });
      expect(JSON.stringify(near)).not.toContain(id);
      expect(JSON.stringify(near)).not.toContain('Secret loop');
      const nearForOther = await call(other, 'find_tailwind_segments', {
        latitude: start?.lat,
        longitude: start?.lon,
        radius_km: 50,
      });
      expect(JSON.stringify(nearForOther)).not.toContain(id);

      // Still the owner's, untouched.
      expect((await listRiderSegments(h.store.db, riders.owner.id)).map((s) => s.id)).toContain(id);
      expect((await listWatchlist(h.store.db, riders.other.id)).map((w) => w.segmentId)).not.toContain(id);
    },
  );

  it.skipIf(skip)('a read-only grant can neither add nor remove', async () => {
    const reader = await h.connectRider(riders.owner, { scopes: [SCOPE_READ] });
    const before = await countRiderSegments(h.store.db, riders.owner.id);
    expect(
      toolErrorText(await call(reader, 'add_my_segment', { points: climbPointArgs(), name: 'x' })),
    ).toMatch(/may only read.*rider:write/);
    const [first] = await listRiderSegments(h.store.db, riders.owner.id);
    expect(toolErrorText(await call(reader, 'remove_my_segment', { segment_id: first?.id }))).toMatch(
      /may only read.*rider:write/,
    );
    expect(await countRiderSegments(h.store.db, riders.owner.id)).toBe(before);
  });

  it.skipIf(skip)('refuses bad input precisely and stores nothing', async () => {
    const owner = await h.connectRider(riders.owner);
    const before = await countRiderSegments(h.store.db, riders.owner.id);
    const cases: [Record<string, unknown>, RegExp][] = [
      [
        { gpx: '<gpx><trk><trkseg><trkpt lat="45" lon="6"></trkpt></trkseg></trk></gpx>', name: 'a' },
        /1 point/,
      ],
      [{ gpx: 'hello', name: 'a' }, /Not a GPX file/],
      [{ gpx: '<!DOCTYPE gpx [<!ENTITY x "y">]><gpx></gpx>', name: 'a' }, /DOCTYPE|ENTITY/i],
      [{ geojson: JSON.stringify({ type: 'Point', coordinates: [6, 45] }), name: 'a' }, /LineString/],
      [{ name: 'a' }, /one of gpx.*geojson.*or points/],
      [{ gpx: climbGpx(), points: climbPointArgs(), name: 'a' }, /gpx and points were both given/],
      [{ points: climbPointArgs() }, /name/],
    ];
    for (const [args, message] of cases) {
      const text = toolErrorText(await call(owner, 'add_my_segment', args));
      expect(text, JSON.stringify(args).slice(0, 60)).toMatch(message);
    }
    expect(await countRiderSegments(h.store.db, riders.owner.id)).toBe(before);
  });

  it.skipIf(skip)('holds a free rider to the free allowance, naming it and the way to more', async () => {
    const free = await h.connectRider(riders.free);
    for (let i = 0; i < OWN_SEGMENT_ALLOWANCE.free; i++) {
      const added = AddMySegmentOutputSchema.parse(
        ok(await call(free, 'add_my_segment', { points: climbPointArgs(), name: `Mine ${i}` })),
      );
      expect(added.locked.map((l) => l.feature)).toEqual(['more_own_segments']);
    }
    const refused = toolErrorText(
      await call(free, 'add_my_segment', { points: climbPointArgs(), name: 'One more' }),
    );
    expect(refused).toContain(
      `${OWN_SEGMENT_ALLOWANCE.free} of the ${OWN_SEGMENT_ALLOWANCE.free} own segments`,
    );
    expect(refused).toContain(`Pro for up to ${OWN_SEGMENT_ALLOWANCE.pro}`);
    expect(await countRiderSegments(h.store.db, riders.free.id)).toBe(OWN_SEGMENT_ALLOWANCE.free);
  });

  it.skipIf(skip)('keeps an own segment watched until removed; removing drops the watch too', async () => {
    const owner = await h.connectRider(riders.owner);
    const added = AddMySegmentOutputSchema.parse(
      ok(
        await call(owner, 'add_my_segment', {
          geojson: JSON.stringify({
            type: 'LineString',
            coordinates: climbPoints().map((p) => [p.lon, p.lat]),
          }),
          name: 'GeoJSON one',
        }),
      ),
    );
    const id = added.segment.id;
    expect(toolErrorText(await call(owner, 'unwatch_segment', { segment_id: id }))).toMatch(
      /remove_my_segment/,
    );
    const removed = RemoveMySegmentOutputSchema.parse(
      ok(await call(owner, 'remove_my_segment', { segment_id: id })),
    );
    expect(removed.removed).toBe(true);
    expect((await listWatchlist(h.store.db, riders.owner.id)).map((w) => w.segmentId)).not.toContain(id);
    const again = RemoveMySegmentOutputSchema.parse(
      ok(await call(owner, 'remove_my_segment', { segment_id: id })),
    );
    expect(again.removed).toBe(false);
  });

  it.skipIf(skip)(
    'get_route_wind at the rider address keeps the route with save_as; a read-only grant cannot',
    async () => {
      const owner = await h.connectRider(riders.owner);
      const before = await countRiderSegments(h.store.db, riders.owner.id);
      const plain = RiderRouteWindOutputSchema.parse(
        ok(await call(owner, 'get_route_wind', { points: climbPointArgs() })),
      );
      expect(plain.saved).toBeUndefined();
      expect(await countRiderSegments(h.store.db, riders.owner.id)).toBe(before);
      const kept = RiderRouteWindOutputSchema.parse(
        ok(await call(owner, 'get_route_wind', { points: climbPointArgs(), save_as: 'Sunday loop' })),
      );
      expect(kept.saved?.kept).toBe(true);
      expect(kept.saved?.segment_id).toMatch(/^my--/);
      expect(kept.saved?.own_segments?.used).toBeGreaterThan(0);
      const listed = GetMyWatchlistOutputSchema.parse(ok(await call(owner, 'get_my_watchlist')));
      expect(listed.watchlist?.find((w) => w.segment_id === kept.saved?.segment_id)).toMatchObject({
        catalog_status: 'own_segment',
        segment: { name: 'Sunday loop' },
      });
      expect(kept.route.distance_km).toBe(plain.route.distance_km);
      expect(await countRiderSegments(h.store.db, riders.owner.id)).toBe(before + 1);
      const reader = await h.connectRider(riders.owner, { scopes: [SCOPE_READ] });
      expect(
        toolErrorText(await call(reader, 'get_route_wind', { points: climbPointArgs(), save_as: 'Nope' })),
      ).toMatch(/may only read.*rider:write/);
      expect((await call(reader, 'get_route_wind', { points: climbPointArgs() })).isError).toBeFalsy();
      expect(await countRiderSegments(h.store.db, riders.owner.id)).toBe(before + 1);
    },
  );

  it.skipIf(skip)(
    'refuses a loop as an own segment and stores nothing; get_route_wind with save_as still answers it',
    async () => {
      const owner = await h.connectRider(riders.owner);
      const before = await countRiderSegments(h.store.db, riders.owner.id);
      // A 6 km square ridden round back to its start.
      const loop = [
        [45.05, 6.03],
        [45.05, 6.05],
        [45.064, 6.05],
        [45.064, 6.03],
        [45.0501, 6.0301],
      ].map(([latitude, longitude]) => ({ latitude, longitude }));
      const text = toolErrorText(await call(owner, 'add_my_segment', { points: loop, name: 'Lake loop' }));
      expect(text).toMatch(
        /a loop has no one direction.*get_route_wind.*\[closed_route\] Nothing was stored/,
      );
      expect(await countRiderSegments(h.store.db, riders.owner.id)).toBe(before);
      // Issue 28: the route question is answered in full; saved says why it was not kept and what instead.
      const plain = RiderRouteWindOutputSchema.parse(
        ok(await call(owner, 'get_route_wind', { points: loop })),
      );
      const result = await call(owner, 'get_route_wind', { points: loop, save_as: 'Lake loop' });
      const answered = RiderRouteWindOutputSchema.parse(ok(result));
      expect(answered.route).toEqual(plain.route);
      expect(answered.best_starts).toEqual(plain.best_starts);
      expect(answered.saved).toMatchObject({ kept: false, refused: 'closed_route' });
      expect(answered.saved?.segment_id).toBeUndefined();
      expect(answered.saved?.reason).toMatch(/a loop has no one direction.*could never fire/);
      expect(answered.saved?.instead).toMatch(/get_route_wind.*add_my_segment/);
      expect(resultText(result)).toMatch(
        /Not saved as "Lake loop": This line ends \d+ m .*a loop.*get_route_wind/,
      );
      expect(resultText(result)).toContain(resultText(await call(owner, 'get_route_wind', { points: loop })));
      expect((await call(owner, 'get_route_wind', { points: loop })).isError).toBeFalsy();
    },
  );

  it.skipIf(skip)(
    'never passes the allowance, however many adds race (one transaction per add)',
    async () => {
      const racer = await h.createRider();
      const prepared = prepareOwnSegment('points', climbPoints());
      const outcomes = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          addRiderSegment(
            h.store.db,
            racer.id,
            { ...prepared, name: `Race ${i}` },
            { allowance: 3, watchlistMax: 50 },
          ),
        ),
      );
      expect(outcomes.filter((o) => o.ok)).toHaveLength(3);
      expect(outcomes.filter((o) => !o.ok && o.reason === 'allowance')).toHaveLength(5);
      expect(await countRiderSegments(h.store.db, racer.id)).toBe(3);
      expect(await listWatchlist(h.store.db, racer.id)).toHaveLength(3);
    },
  );

  it.skipIf(skip)('names an own segment in the webhook payload of its alert', async () => {
    const owner = await h.connectRider(riders.owner);
    const added = AddMySegmentOutputSchema.parse(
      ok(await call(owner, 'add_my_segment', { points: climbPointArgs(), name: 'Hook climb' })),
    );
    const nowS = Math.floor(h.deps.now() / 1000);
    await recordAlertOnce(h.store.db, riders.owner.id, {
      segmentId: added.segment.id,
      windowStart: nowS + 3600,
      windowEnd: nowS + 7200,
      peakTailwindKmh: 21,
    });
    await setRiderWebhook(h.store.db, riders.owner.id, {
      url: 'https://hooks.example.com/wos',
      secret: 's'.repeat(43),
    });
    const bodies: string[] = [];
    await deliverPendingAlerts({
      store: h.store,
      now: h.deps.now,
      catalog: h.deps.catalog,
      checkTarget: (url) => checkWebhookUrl(url, { lookup: async () => ['93.184.215.14'] }),
      send: async (_target, post) => {
        bodies.push(post.body);
        return 200;
      },
    });
    const payloads = bodies.map(
      (body) => JSON.parse(body) as { alert: { segment_id: string; segment_name?: string } },
    );
    expect(payloads.find((p) => p.alert.segment_id === added.segment.id)?.alert.segment_name).toBe(
      'Hook climb',
    );
  });

  it.skipIf(skip)('the alert job forecasts own segments like catalog ones', async () => {
    const summary = await evaluateAlerts({
      store: h.store,
      catalog: h.deps.catalog,
      forecast: h.deps.forecast,
      now: h.deps.now,
    });
    const watched = (await listWatchlist(h.store.db, riders.owner.id)).length;
    expect(watched).toBeGreaterThan(0);
    expect(summary.error).toBeNull();
    expect(summary.segmentsMissing).toBe(0);
    expect(summary.segmentsForecast).toBeGreaterThanOrEqual(watched);
  });

  it.skipIf(skip)("the alert job never lets another rider's watch use an own segment", async () => {
    const owner = await h.connectRider(riders.owner);
    const added = AddMySegmentOutputSchema.parse(
      ok(await call(owner, 'add_my_segment', { points: climbPointArgs(), name: 'Private hill' })),
    );
    const id = added.segment.id;
    // No tool lets a rider watch another's own segment; a row written behind the tools' back must still get nothing.
    await setAlertThreshold(h.store.db, riders.owner.id, id, ALERT_THRESHOLD_MIN_KMH);
    await watchSegment(h.store.db, riders.other.id, id, { thresholdKmh: ALERT_THRESHOLD_MIN_KMH });
    const summary = await evaluateAlerts({
      store: h.store,
      catalog: h.deps.catalog,
      forecast: h.deps.forecast,
      now: h.deps.now,
    });
    expect(summary.error).toBeNull();
    expect(summary.segmentsMissing).toBeGreaterThanOrEqual(1);
    const alertsOn = async (rider: Rider) =>
      (await listRecentAlerts(h.store.db, rider.id, { limit: 100 })).filter((a) => a.segmentId === id);
    expect(await alertsOn(riders.owner)).not.toHaveLength(0);
    expect(await alertsOn(riders.other)).toHaveLength(0);
  });
});

describe('own segment allowances', () => {
  it('are promised by the plan catalog exactly as enforced, and the locked hint names the Pro plans', () => {
    const free = PLANS.find((p) => p.id === 'free');
    expect(free?.features).toContain(ownSegmentsFeature(OWN_SEGMENT_ALLOWANCE.free));
    const promising = PLANS.filter((p) => p.features.includes(PRO_DETAILS.more_own_segments)).map(
      (p) => p.id,
    );
    expect(promising).toEqual(PLANS.filter((p) => p.id !== 'free').map((p) => p.id));
    expect(PRO_DETAILS.more_own_segments).toBe(ownSegmentsFeature(OWN_SEGMENT_ALLOWANCE.pro));
  });
});
