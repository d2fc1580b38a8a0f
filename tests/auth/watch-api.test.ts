/**
 * `POST /api/rider/watchlist` and `/remove`, the segment page's watch button:
 * the rider domain's rules (a known segment, the watchlist's size, own
 * segments stay watched) as the MCP tools apply them, precise refusals, the
 * same-origin rule, and one rider's watch never touching another's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WATCHLIST_MAX_SEGMENTS } from '../../src/core/rider-rules.ts';
import { listWatchlist, watchSegment } from '../../src/store/repositories/watchlist.ts';
import { climbGpx } from '../mcp/own-segment-fixtures.ts';
import { signedUp, type Rider } from './support/grants.ts';
import type { Agent } from './support/oauth.ts';
import { startAuthServer, type AuthServer } from './support/server.ts';
import { sqliteTestStore, type TestStore } from './support/stores.ts';

const CAROL: Rider = { email: 'carol.watch@example.com', password: 'carol watches passphrase' };
const DAN: Rider = { email: 'dan.watch@example.com', password: 'dan watches passphrase' };
const SEGMENT = 'fr-alpe-d-huez';

let db: TestStore;
let server: AuthServer;
let carol: Agent;
let dan: Agent;

const riderId = async (agent: Agent) =>
  ((await (await agent.fetch('/api/rider/me')).json()) as { rider: { id: string } }).rider.id;
const watched = async (agent: Agent) =>
  (await listWatchlist(db.store.db, await riderId(agent))).map((w) => w.segmentId);
const watch = (agent: Agent, body: unknown, origin?: string | null) =>
  agent.postJson('/api/rider/watchlist', body, origin);
const unwatch = (agent: Agent, body: unknown) => agent.postJson('/api/rider/watchlist/remove', body);

beforeAll(async () => {
  db = await sqliteTestStore();
  server = await startAuthServer({ store: db.store });
  [carol, dan] = await Promise.all([signedUp(server.origin, CAROL), signedUp(server.origin, DAN)]);
});
afterAll(async () => {
  await server?.close();
  await db?.dispose();
});

describe('watching from the segment page', () => {
  it('watches a catalog segment with alerts on, once, and stops watching it', async () => {
    const first = await watch(carol, { segment_id: SEGMENT });
    expect(first.status, await first.clone().text()).toBe(201);
    expect(await first.json()).toMatchObject({
      segment_id: SEGMENT,
      watching: true,
      created: true,
      alerts_on: true,
    });
    const again = await watch(carol, { segment_id: SEGMENT });
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ created: false, watchlist_size: 1 });
    expect(await watched(carol)).toEqual([SEGMENT]);
    expect(await watched(dan)).toEqual([]);

    const removed = await unwatch(carol, { segment_id: SEGMENT });
    expect(await removed.json()).toMatchObject({ watching: false, removed: true, watchlist_size: 0 });
    const twice = await unwatch(carol, { segment_id: SEGMENT });
    expect(await twice.json()).toMatchObject({ removed: false });
    expect(await watched(carol)).toEqual([]);
  });

  it('refuses an unknown segment with a problem naming it', async () => {
    const response = await watch(carol, { segment_id: 'xx-no-such-climb' });
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/application\/problem\+json/);
    const problem = (await response.json()) as { detail: string; hint: string };
    expect(problem.detail).toContain('xx-no-such-climb');
    expect(problem.hint).toContain('/segments');
  });

  it('refuses a bad body precisely, a cross-site POST, and a visitor who is not signed in', async () => {
    for (const [body, words] of [
      [{}, /segment_id/],
      [{ segment_id: '' }, /empty/],
      [{ segment_id: 'x'.repeat(101) }, /at most 100/],
    ] as const) {
      const response = await watch(carol, body);
      expect(response.status).toBe(400);
      expect(((await response.json()) as { detail: string }).detail).toMatch(words);
    }
    const notJson = await carol.fetch('/api/rider/watchlist', { method: 'POST', body: 'segment_id=x' });
    expect(notJson.status).toBe(415);
    const crossSite = await watch(carol, { segment_id: SEGMENT }, 'https://elsewhere.example');
    expect(crossSite.status).toBe(403);
    const anonymous = await fetch(`${server.origin}/api/rider/watchlist`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.origin },
      body: JSON.stringify({ segment_id: SEGMENT }),
    });
    expect(anonymous.status).toBe(401);
    expect(await watched(carol)).toEqual([]);
  });

  it('keeps the watchlist within its limit, as the MCP tool does', async () => {
    const id = await riderId(dan);
    for (let index = 0; index < WATCHLIST_MAX_SEGMENTS; index += 1) {
      await watchSegment(db.store.db, id, `zz-filler-${index}`, { alertsOn: true }, 1_800_000_000);
    }
    const response = await watch(dan, { segment_id: SEGMENT });
    expect(response.status).toBe(409);
    expect(((await response.json()) as { detail: string }).detail).toContain(String(WATCHLIST_MAX_SEGMENTS));
    expect(await watched(dan)).not.toContain(SEGMENT);
    // Unwatching one makes room.
    await unwatch(dan, { segment_id: 'zz-filler-0' });
    expect((await watch(dan, { segment_id: SEGMENT })).status).toBe(201);
  });

  it('will not stop watching an own segment, which stays watched while it exists', async () => {
    const saved = await carol.postJson('/api/rider/segments', {
      name: 'Hairpins',
      format: 'gpx',
      text: climbGpx(),
    });
    const ownId = ((await saved.json()) as { segment: { id: string } }).segment.id;
    const response = await unwatch(carol, { segment_id: ownId });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { detail: string }).detail).toMatch(/own segments/);
    expect(await watched(carol)).toContain(ownId);
  });
});
