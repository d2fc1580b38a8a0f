/**
 * `POST /api/rider/segments` and `/remove` from the rider's side: the same
 * reader as the tools, precise refusals with nothing stored, the allowance
 * held under concurrent uploads, a same-origin rule, and one rider never
 * reaching another's segment.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWN_SEGMENT_UPLOAD_MAX_BYTES } from '../../src/account/own-segments-api.ts';
import { prepareOwnSegment } from '../../src/core/own-segment.ts';
import { OWN_SEGMENT_ALLOWANCE } from '../../src/core/plans.ts';
import { countRiderSegments, listRiderSegments } from '../../src/store/repositories/rider-segments.ts';
import { setRiderTrial } from '../../src/store/repositories/riders.ts';
import { listWatchlist } from '../../src/store/repositories/watchlist.ts';
import { recordAlertOnce } from '../../src/store/repositories/alerts.ts';
import { localSpan } from '../../src/core/local-time.ts';
import { climbGpx, climbPoints } from '../mcp/own-segment-fixtures.ts';

const loopGpx = readFileSync(new URL('../fixtures/routes/loop.gpx', import.meta.url), 'utf8');
import { signedUp, type Rider } from './support/grants.ts';
import type { Agent } from './support/oauth.ts';
import { startAuthServer, type AuthServer } from './support/server.ts';
import { sqliteTestStore, type TestStore } from './support/stores.ts';

const ALICE: Rider = { email: 'alice.segments@example.com', password: 'alice segments passphrase' };
const BOB: Rider = { email: 'bob.segments@example.com', password: 'bob segments passphrase' };

let db: TestStore;
let server: AuthServer;
let alice: Agent;
let bob: Agent;
let aliceId: string;
let bobId: string;

interface Me {
  rider: { id: string };
  own_segments: { id: string; name: string; distance_m: number }[];
  own_segment_allowance: { used: number; allowance: number };
  watchlist: { segment_id: string; segment_name: string | null }[];
}
const me = async (agent: Agent) => (await (await agent.fetch('/api/rider/me')).json()) as Me;
const upload = (agent: Agent, body: unknown, origin?: string | null) =>
  agent.postJson('/api/rider/segments', body, origin);

beforeAll(async () => {
  db = await sqliteTestStore();
  server = await startAuthServer({ store: db.store });
  [alice, bob] = await Promise.all([signedUp(server.origin, ALICE), signedUp(server.origin, BOB)]);
  [aliceId, bobId] = await Promise.all([(await me(alice)).rider.id, (await me(bob)).rider.id]);
});
afterAll(async () => {
  await server?.close();
  await db?.dispose();
});

describe('alerts on the settings page', () => {
  it('carry the window on the segment’s clock, with its zone', async () => {
    // 2026-11-28 07:00–09:00 UTC on Alpe d'Huez: 08:00–10:00 CET.
    const start = Date.UTC(2026, 10, 28, 7) / 1000;
    await recordAlertOnce(db.store.db, bobId, {
      segmentId: 'fr-alpe-d-huez',
      windowStart: start,
      windowEnd: start + 7200,
      peakTailwindKmh: 18,
    });
    const alerts = ((await me(bob)) as unknown as { alerts: Record<string, unknown>[] }).alerts;
    const alert = alerts[0] ?? {};
    expect(alert).toMatchObject({ segment_id: 'fr-alpe-d-huez', window_start: '2026-11-28T07:00:00Z' });
    // The zone of the segment in this server's catalog, and the window written on its clock.
    const zone = String(alert['time_zone']);
    expect(zone).toMatch(/^[A-Z][a-z]+\/[A-Za-z_]+/);
    expect(alert['window_text']).toBe(localSpan(start, start + 7200, zone));
    expect(alert['window_text']).not.toMatch(/UTC$/);
  });
});

describe('uploading an own segment', () => {
  it('stores a GPX with the figures src/core computes, watched, and lists it in /api/rider/me', async () => {
    const gpx = climbGpx();
    const response = await upload(alice, { name: 'Hairpins', format: 'gpx', text: gpx, record_s: 1500 });
    expect(response.status, await response.clone().text()).toBe(201);
    const body = (await response.json()) as { segment: { id: string; distance_m: number; gain_m: number } };
    const expected = prepareOwnSegment('gpx', gpx);
    expect(body.segment).toMatchObject({ distance_m: expected.distanceM, gain_m: expected.gainM });
    const mine = await me(alice);
    expect(mine.own_segments.map((s) => s.name)).toEqual(['Hairpins']);
    expect(mine.watchlist).toContainEqual(
      expect.objectContaining({ segment_id: body.segment.id, segment_name: 'Hairpins' }),
    );
    expect(
      (await listWatchlist(db.store.db, aliceId)).find((w) => w.segmentId === body.segment.id)?.recordS,
    ).toBe(1500);
  });

  it('reads GeoJSON text too', async () => {
    const geojson = JSON.stringify({
      type: 'Feature',
      properties: { name: 'x' },
      geometry: { type: 'LineString', coordinates: climbPoints().map((p) => [p.lon, p.lat, p.ele]) },
    });
    expect((await upload(alice, { name: 'As GeoJSON', format: 'geojson', text: geojson })).status).toBe(201);
  });

  it('refuses bad input precisely, storing nothing', async () => {
    const before = await countRiderSegments(db.store.db, aliceId);
    const cases: [unknown, number, RegExp][] = [
      [{ name: 'x', format: 'gpx', text: '<gpx></gpx>' }, 400, /^Not saved: .*no track or route points/],
      [{ name: 'x', format: 'gpx', text: '{"type":"LineString"}' }, 400, /^Not saved: Not a GPX file/],
      [{ name: 'x', format: 'gpx', text: '<!DOCTYPE gpx [<!ENTITY a "b">]><gpx/>' }, 400, /DOCTYPE|ENTITY/i],
      [
        { name: 'x', format: 'geojson', text: '{"type":"MultiLineString","coordinates":[]}' },
        400,
        /MultiLineString|several/i,
      ],
      [{ name: '', format: 'gpx', text: climbGpx() }, 400, /name/],
      [{ name: 'x', format: 'kml', text: climbGpx() }, 400, /format/],
      // A loop's refusal ends in its own sentence: one full stop, not two.
      [{ name: 'x', format: 'gpx', text: loopGpx }, 400, /^Not saved: .*could never fire.*[^.]\.$/],
      [{ name: 'x', format: 'gpx', text: climbGpx(), record_s: 0 }, 400, /record/],
    ];
    for (const [body, status, message] of cases) {
      const response = await upload(alice, body);
      const answer = (await response.json()) as { detail: string };
      expect(response.status, JSON.stringify(body).slice(0, 80)).toBe(status);
      expect(answer.detail).toMatch(message);
    }
    const huge = { name: 'x', format: 'gpx', text: 'x'.repeat(OWN_SEGMENT_UPLOAD_MAX_BYTES) };
    const tooLarge = await upload(alice, huge);
    expect(tooLarge.status).toBe(413);
    expect(((await tooLarge.json()) as { detail: string }).detail).toMatch(/larger than the 4 MB/);
    expect(await countRiderSegments(db.store.db, aliceId)).toBe(before);
  });

  it('refuses a cross-site upload', async () => {
    const response = await upload(
      alice,
      { name: 'x', format: 'gpx', text: climbGpx() },
      'https://evil.example',
    );
    expect(response.status).toBe(403);
  });

  it('a rider removes only their own segments; another rider gets what an unknown id gets', async () => {
    const [first] = await listRiderSegments(db.store.db, aliceId);
    const id = first?.id ?? '';
    const byBob = await bob.postJson('/api/rider/segments/remove', { segment_id: id });
    const unknown = await bob.postJson('/api/rider/segments/remove', {
      segment_id: 'my--aaaaaaaaaaaaaaaaaaaa',
    });
    expect(byBob.status).toBe(404);
    expect(await byBob.json()).toEqual(await unknown.json());
    expect((await listRiderSegments(db.store.db, aliceId)).map((s) => s.id)).toContain(id);
    expect((await me(bob)).own_segments).toEqual([]);
    const byAlice = await alice.postJson('/api/rider/segments/remove', { segment_id: id });
    expect(byAlice.status).toBe(200);
    expect((await listRiderSegments(db.store.db, aliceId)).map((s) => s.id)).not.toContain(id);
    expect((await listWatchlist(db.store.db, aliceId)).map((w) => w.segmentId)).not.toContain(id);
  });

  it('holds a free rider to the free allowance even under concurrent uploads', async () => {
    await setRiderTrial(db.store.db, bobId, 1);
    const body = { name: 'Mine', format: 'gpx', text: climbGpx() };
    const answers = await Promise.all(Array.from({ length: 8 }, () => upload(bob, body)));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(OWN_SEGMENT_ALLOWANCE.free);
    expect(statuses.filter((s) => s === 409)).toHaveLength(8 - OWN_SEGMENT_ALLOWANCE.free);
    const refused = answers.find((a) => a.status === 409);
    const text = ((await refused?.json()) as { detail: string }).detail;
    expect(text).toContain(`${OWN_SEGMENT_ALLOWANCE.free} of the ${OWN_SEGMENT_ALLOWANCE.free} own segments`);
    expect(text).toContain(`Pro for up to ${OWN_SEGMENT_ALLOWANCE.pro}`);
    expect(await countRiderSegments(db.store.db, bobId)).toBe(OWN_SEGMENT_ALLOWANCE.free);
    expect((await me(bob)).own_segment_allowance).toEqual({
      used: OWN_SEGMENT_ALLOWANCE.free,
      allowance: OWN_SEGMENT_ALLOWANCE.free,
      free: OWN_SEGMENT_ALLOWANCE.free,
      pro: OWN_SEGMENT_ALLOWANCE.pro,
    });
  });
});
