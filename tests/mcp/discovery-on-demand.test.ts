/**
 * Discovery on demand, end to end in one process: the real Overpass and elevation adapters against
 * doubles that speak their wire formats (fed with the Andorra extract and its SRTM tile), the live
 * catalog over a real SQLite store, and find_tailwind_segments through the MCP client. The built-in
 * catalog here is the hand-traced one alone, so every segment found near Andorra came from discovery.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discoveryPort } from '../../src/app/discovery.ts';
import { openMigratedStore } from '../../src/app/migrations.ts';
import type { OsmExtract } from '../../src/core/discovery/osm-types.ts';
import { areaDiscoverer } from '../../src/data/discovery/area-discoverer.ts';
import { areaKeysAround } from '../../src/data/discovery/area-grid.ts';
import { createLiveCatalog } from '../../src/data/discovery/live-catalog.ts';
import { openMeteoElevationSource } from '../../src/data/discovery/open-meteo-elevation.ts';
import { readOsmFile } from '../../src/data/discovery/osm-file.ts';
import { overpassSource } from '../../src/data/discovery/overpass.ts';
import { loadCountryOf } from '../../src/data/geocoding/nearest-country.ts';
import { createSegmentCatalog } from '../../src/data/segments/catalog.ts';
import { loadHandTracedSegments } from '../../src/data/segments/load.ts';
import type { Store } from '../../src/store/database.ts';
import { FindTailwindSegmentsOutputSchema } from '../../src/mcp/schemas/find.ts';
import { connectClient, inProcessFetch, resultText } from '../support/mcp-client.ts';
import { TEST_MCP_URL, testDeps, testEndpoint } from '../support/mcp-deps.ts';
import {
  startElevationDouble,
  type ElevationDouble,
  type ElevationFault,
} from '../support/elevation-double.ts';
import { startOverpassDouble, type OverpassDouble, type OverpassFault } from '../support/overpass-double.ts';

const ORDINO = { latitude: 42.5558, longitude: 1.5331 };
const RADIUS_M = 4_000;
const KEYS = areaKeysAround({ lat: ORDINO.latitude, lon: ORDINO.longitude }, RADIUS_M);

describe('discovery on demand, against the Overpass and elevation doubles', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wos-discovery-'));
  let fixture: OsmExtract;
  let overpass: OverpassDouble;
  let elevation: ElevationDouble;
  const base = createSegmentCatalog(loadHandTracedSegments());
  const opened: Store[] = [];
  const clients: Client[] = [];
  let clock = 1_790_000_000;

  beforeAll(async () => {
    fixture = await readOsmFile('seed/osm/andorra.osm.pbf');
    [overpass, elevation] = await Promise.all([
      startOverpassDouble(fixture),
      startElevationDouble('seed/dem'),
    ]);
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await Promise.all(opened.map((s) => s.close()));
    await Promise.all([overpass.close(), elevation.close()]);
    rmSync(dir, { recursive: true, force: true });
  });

  let stores = 0;
  async function freshStore(): Promise<Store> {
    const store = await openMigratedStore({
      engine: 'sqlite',
      path: join(dir, `store-${(stores += 1)}.sqlite`),
    });
    opened.push(store);
    return store;
  }

  /** An instance of the server: its own live catalog over the store given, its own MCP client. */
  async function instance(
    store: Store,
    { budgetMs = 20_000, maxSizeBytes = undefined as number | undefined, timeoutS = 10 } = {},
  ) {
    const live = createLiveCatalog(base, {
      port: discoveryPort(
        async () => store,
        async () => undefined,
      ),
      discover: areaDiscoverer({
        osm: overpassSource({ url: overpass.url, timeoutS, ...(maxSizeBytes ? { maxSizeBytes } : {}) }),
        elevation: openMeteoElevationSource({ url: elevation.url, timeoutMs: 5_000 }),
        countryOf: loadCountryOf,
        handTraced: loadHandTracedSegments,
      }),
      budgetMs,
      refreshAfterS: 30 * 86_400,
      recheckAfterS: 0,
      timeoutMs: 10_000,
      now: () => clock,
    });
    const client = await connectClient(
      TEST_MCP_URL,
      '2025',
      inProcessFetch(testEndpoint(testDeps({ catalog: live, discovery: live }))),
    );
    clients.push(client);
    return { live, find: () => find(client) };
  }

  async function find(client: Client) {
    const result = await client.callTool({
      name: 'find_tailwind_segments',
      arguments: { ...ORDINO, radius_m: RADIUS_M, limit: 10 },
    });
    return {
      data: FindTailwindSegmentsOutputSchema.parse(result.structuredContent),
      text: resultText(result),
    };
  }

  const stored = async (store: Store) =>
    (await store.db.selectFrom('discovered_segment').select('id').execute()).map((row) => row.id);

  it('maps the area on the first search, stores it, and a second instance serves it without asking upstream', async () => {
    overpass.fault('none');
    elevation.fault(undefined);
    const store = await freshStore();
    const [o0, e0] = [overpass.requests(), elevation.requests()];
    const first = await (await instance(store)).find();
    expect(first.data.mapping, first.data.mapping).toBeUndefined();
    expect(first.data.segments.length).toBeGreaterThanOrEqual(2);
    expect(first.data.segments.map((s) => s.name).join('\n')).toMatch(/Col d'Ordino from Ordino/);
    expect(first.data.attribution.join('\n')).toMatch(/OpenStreetMap contributors, ODbL/);
    expect(overpass.requests() - o0).toBe(KEYS.length);
    expect(elevation.requests() - e0).toBeGreaterThan(0);
    expect((await stored(store)).length).toBeGreaterThan(0);

    const [o1, e1] = [overpass.requests(), elevation.requests()];
    const second = await (await instance(store)).find();
    expect(second.data.segments.map((s) => s.id)).toEqual(first.data.segments.map((s) => s.id));
    expect([overpass.requests() - o1, elevation.requests() - e1]).toEqual([0, 0]);
  });

  it('maps an area once when two instances ask at once', async () => {
    overpass.fault('none');
    elevation.fault(undefined);
    const store = await freshStore();
    const [a, b] = await Promise.all([instance(store), instance(store)]);
    const o0 = overpass.requests();
    const answers = await Promise.all([a.find(), b.find()]);
    expect(overpass.requests() - o0).toBe(KEYS.length);
    // The instance that did not map it says so, or found it stored already; the next call has it.
    for (const { data } of answers)
      if (data.segments.length === 0) expect(data.mapping).toMatch(/being mapped/);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await b.find()).data.segments.length).toBeGreaterThan(0);
  });

  it('answers at once with what is known while an area is mapped, and has it on the next call', async () => {
    overpass.fault('none');
    elevation.fault(undefined);
    const slow = await instance(await freshStore(), { budgetMs: 1 });
    const early = await slow.find();
    expect(early.data.mapping).toBe(
      'Roads around here are being mapped for segments now; ask again in a minute for more.',
    );
    expect(early.text).toContain('being mapped');
    await expect
      .poll(async () => (await slow.find()).data.segments.length, { timeout: 20_000 })
      .toBeGreaterThan(0);
  });

  const overpassFaults: [OverpassFault, RegExp][] = [
    ['http429', /busy/i],
    ['http504', /busy/i],
    ['hang', /did not answer within 1\.2 s/],
    ['malformed', /JSON|format|not/i],
    ['remark-memory', /large|memory|size/i],
  ];
  it.each(overpassFaults)(
    'stores nothing after Overpass fault %s, says why, and backs off',
    async (fault, words) => {
      overpass.fault(fault);
      elevation.fault(undefined);
      const store = await freshStore();
      const server = await instance(store, { timeoutS: 1 });
      const answer = await server.find();
      expect(answer.data.segments).toEqual([]);
      expect(answer.data.mapping).toMatch(/^Mapping roads here for segments failed: /);
      expect(answer.data.mapping, answer.data.mapping).toMatch(words);
      expect(answer.text).toContain(answer.data.mapping ?? '?');
      expect(await stored(store)).toEqual([]);
      const areas = await store.db.selectFrom('discovered_area').selectAll().execute();
      expect(areas.map((a) => a.status)).toEqual(KEYS.map(() => 'failed'));
      // Before the backoff has passed, a new search does not ask again.
      overpass.fault('none');
      const before = overpass.requests();
      expect((await server.find()).data.mapping).toMatch(/failed/);
      expect(overpass.requests()).toBe(before);
      // After it, the area is mapped.
      clock += 61;
      expect((await server.find()).data.segments.length).toBeGreaterThan(0);
    },
  );

  it('stores nothing when the answer passes the size cap', async () => {
    overpass.fault('none');
    const store = await freshStore();
    const answer = await (await instance(store, { maxSizeBytes: 1_000 })).find();
    expect(answer.data.mapping).toMatch(/failed/);
    expect(await stored(store)).toEqual([]);
  });

  const elevationFaults: ElevationFault[] = [
    { kind: 'refuse', reason: 'Parameter latitude must be in range of -90 to 90' },
    { kind: 'short' },
    { kind: 'bad-json' },
  ];
  it.each(elevationFaults)(
    'stores nothing after elevation fault $kind, even when earlier batches were answered',
    async (fault) => {
      overpass.fault('none');
      elevation.fault(fault, elevation.requests() + 3);
      const store = await freshStore();
      const answer = await (await instance(store)).find();
      expect(answer.data.segments).toEqual([]);
      expect(answer.data.mapping).toMatch(/^Mapping roads here for segments failed: /);
      expect(await stored(store)).toEqual([]);
      elevation.fault(undefined);
    },
  );
});
