/**
 * Discovery on demand, end to end in one process: the real Overpass and elevation adapters against
 * doubles that speak their wire formats (fed with the Andorra extract and its SRTM tile), the live
 * catalog over a real SQLite store, and find_tailwind_segments through the MCP client. The built-in
 * catalog here is the hand-traced one alone, so every segment found near Andorra came from discovery.
 *
 * Nothing here waits on the wall clock: a search waits for its mapping however long a loaded machine
 * takes (WAIT_FOR_MAPPING), the catalog's clock is the test's, and what is mapped in the background is
 * awaited (`settled()`) rather than polled for. The one real wait is the Overpass `hang` fault: the
 * source's own 1.2 s time-out is what it tests.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discoveryPort } from '../../../src/app/discovery.ts';
import { openMigratedStore } from '../../../src/app/migrations.ts';
import type { OsmExtract } from '../../../src/core/discovery/osm-types.ts';
import { areaDiscoverer } from '../../../src/data/discovery/area-discoverer.ts';
import { areaKeysAround } from '../../../src/data/discovery/area-grid.ts';
import { createLiveCatalog } from '../../../src/data/discovery/live-catalog.ts';
import { openMeteoElevationSource } from '../../../src/data/discovery/open-meteo-elevation.ts';
import { readOsmFile } from '../../../src/data/discovery/osm-file.ts';
import { overpassSource } from '../../../src/data/discovery/overpass.ts';
import { loadCountryOf } from '../../../src/data/geocoding/nearest-country.ts';
import { createSegmentCatalog } from '../../../src/data/segments/catalog.ts';
import { loadHandTracedSegments } from '../../../src/data/segments/load.ts';
import type { Store } from '../../../src/store/database.ts';
import { FindTailwindSegmentsOutputSchema } from '../../../src/mcp/schemas/find.ts';
import { connectClient, inProcessFetch, resultText } from '../../support/mcp-client.ts';
import { TEST_MCP_URL, testDeps, testEndpoint } from '../../support/mcp-deps.ts';
import {
  startElevationDouble,
  type ElevationDouble,
  type ElevationFault,
} from '../../support/elevation-double.ts';
import {
  startOverpassDouble,
  type OverpassDouble,
  type OverpassFault,
} from '../../support/overpass-double.ts';

const ORDINO = { latitude: 42.5558, longitude: 1.5331 };
const RADIUS_M = 4_000;
const KEYS = areaKeysAround({ lat: ORDINO.latitude, lon: ORDINO.longitude }, RADIUS_M);
/** The fault cases search within one area, so that each maps it once, not all of KEYS. */
const NEAR_M = 1_000;
const NEAR_KEYS = areaKeysAround({ lat: ORDINO.latitude, lon: ORDINO.longitude }, NEAR_M);
/** A budget no mapping reaches (the longest `setTimeout`), so a search answers when its mapping ends. */
const WAIT_FOR_MAPPING = 2 ** 31 - 1;
/** Time-outs no answer of the doubles reaches, however loaded the machine; the `hang` fault has its own. */
const PATIENT_S = 120;

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

  /** Discovery work left running in the background by a search (`keepAlive`), awaited by `settled()`. */
  const background: Promise<unknown>[] = [];
  async function settled(): Promise<void> {
    while (background.length > 0) await Promise.allSettled(background.splice(0));
  }

  /**
   * An instance of the server: its own live catalog over the store given, its own MCP client. Its
   * Overpass source waits `PATIENT_S`, but `timeoutS` while the double hangs; `gate` holds every
   * area's discovery until it resolves.
   */
  async function instance(
    store: Store,
    {
      budgetMs = WAIT_FOR_MAPPING,
      maxSizeBytes = undefined as number | undefined,
      timeoutS = 1,
      gate = Promise.resolve(),
    } = {},
  ) {
    const source = (seconds: number) =>
      overpassSource({ url: overpass.url, timeoutS: seconds, ...(maxSizeBytes ? { maxSizeBytes } : {}) });
    const [patient, hasty] = [source(PATIENT_S), source(timeoutS)];
    const discover = areaDiscoverer({
      osm: {
        label: patient.label,
        extract: (bbox, signal) => (hanging ? hasty : patient).extract(bbox, signal),
      },
      elevation: openMeteoElevationSource({ url: elevation.url, timeoutMs: PATIENT_S * 1000 }),
      countryOf: loadCountryOf,
      handTraced: loadHandTracedSegments,
    });
    const live = createLiveCatalog(base, {
      port: discoveryPort(
        async () => store,
        async () => undefined,
      ),
      discover: async (bbox, signal) => {
        await gate;
        return discover(bbox, signal);
      },
      budgetMs,
      refreshAfterS: 30 * 86_400,
      recheckAfterS: 0,
      timeoutMs: PATIENT_S * 1000,
      now: () => clock,
      keepAlive: (work) => background.push(work),
    });
    const client = await connectClient(
      TEST_MCP_URL,
      '2025',
      inProcessFetch(testEndpoint(testDeps({ catalog: live, discovery: live }))),
    );
    clients.push(client);
    return { live, find: (radiusM = RADIUS_M) => find(client, radiusM) };
  }

  /** Whether the Overpass double hangs now: the instances' sources then give up after `timeoutS`. */
  let hanging = false;
  function overpassFault(fault: OverpassFault): void {
    overpass.fault(fault);
    hanging = fault === 'hang';
  }

  async function find(client: Client, radiusM: number) {
    const result = await client.callTool({
      name: 'find_tailwind_segments',
      arguments: { ...ORDINO, radius_m: radiusM, limit: 10 },
    });
    return {
      data: FindTailwindSegmentsOutputSchema.parse(result.structuredContent),
      text: resultText(result),
    };
  }

  const stored = async (store: Store) =>
    (await store.db.selectFrom('discovered_segment').select('id').execute()).map((row) => row.id);

  it('maps the area on the first search, stores it, and a second instance serves it without asking upstream', async () => {
    overpassFault('none');
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
    overpassFault('none');
    elevation.fault(undefined);
    const store = await freshStore();
    const [a, b] = await Promise.all([instance(store), instance(store)]);
    const o0 = overpass.requests();
    const answers = await Promise.all([a.find(), b.find()]);
    expect(overpass.requests() - o0).toBe(KEYS.length);
    // The instance that did not map it says so, or found it stored already; the next call has it.
    for (const { data } of answers)
      if (data.segments.length === 0) expect(data.mapping).toMatch(/being mapped/);
    await settled();
    expect((await b.find()).data.segments.length).toBeGreaterThan(0);
  });

  it('answers at once with what is known while an area is mapped, and has it on the next call', async () => {
    overpassFault('none');
    elevation.fault(undefined);
    // The mapping cannot end before the answer: it waits for `open`, called after the first search.
    let open = (): void => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const slow = await instance(await freshStore(), { budgetMs: 0, gate });
    const early = await slow.find();
    expect(early.data.mapping).toBe(
      'Roads around here are being mapped for segments now; ask again in a minute for more.',
    );
    expect(early.text).toContain('being mapped');
    expect(early.data.segments).toEqual([]);
    open();
    await settled();
    expect((await slow.find()).data.segments.length).toBeGreaterThan(0);
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
      overpassFault(fault);
      elevation.fault(undefined);
      const store = await freshStore();
      const server = await instance(store);
      const answer = await server.find(NEAR_M);
      expect(answer.data.segments).toEqual([]);
      expect(answer.data.mapping).toMatch(/^Mapping roads here for segments failed: /);
      expect(answer.data.mapping, answer.data.mapping).toMatch(words);
      expect(answer.text).toContain(answer.data.mapping ?? '?');
      expect(await stored(store)).toEqual([]);
      const areas = await store.db.selectFrom('discovered_area').selectAll().execute();
      expect(areas.map((a) => a.status)).toEqual(NEAR_KEYS.map(() => 'failed'));
      // Before the backoff has passed, a new search does not ask again.
      overpassFault('none');
      const before = overpass.requests();
      expect((await server.find(NEAR_M)).data.mapping).toMatch(/failed/);
      expect(overpass.requests()).toBe(before);
      // After it, the area is mapped. The search waits for the mapping, whatever the machine's load.
      clock += 61;
      expect((await server.find(NEAR_M)).data.segments.length).toBeGreaterThan(0);
    },
  );

  it('stores nothing when the answer passes the size cap', async () => {
    overpassFault('none');
    const store = await freshStore();
    const answer = await (await instance(store, { maxSizeBytes: 1_000 })).find(NEAR_M);
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
      overpassFault('none');
      elevation.fault(fault, elevation.requests() + 3);
      const store = await freshStore();
      const answer = await (await instance(store)).find(NEAR_M);
      expect(answer.data.segments).toEqual([]);
      expect(answer.data.mapping).toMatch(/^Mapping roads here for segments failed: /);
      expect(await stored(store)).toEqual([]);
      elevation.fault(undefined);
    },
  );
});
