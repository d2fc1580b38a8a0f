import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { OsmExtract } from '../../src/core/discovery/osm-types.ts';
import { isRideableRoad } from '../../src/core/discovery/rideable-way.ts';
import { DiscoveryError, type DiscoveryFailure } from '../../src/data/discovery/discovery-error.ts';
import { readOsmFile } from '../../src/data/discovery/osm-file.ts';
import { overpassQuery, overpassSource } from '../../src/data/discovery/overpass.ts';
import {
  type OverpassDouble,
  type OverpassFault,
  bboxesOf,
  startOverpassDouble,
} from '../support/overpass-double.ts';

/** Around Soldeu and the Port d'Envalira road. */
const ENVALIRA = { south: 42.52, west: 1.62, north: 42.58, east: 1.75 };

describe('overpassSource against the double', () => {
  let fixture: OsmExtract;
  let double: OverpassDouble;

  beforeAll(async () => {
    fixture = await readOsmFile('seed/osm/andorra.osm.pbf');
    double = await startOverpassDouble(fixture);
  });
  afterAll(() => double.close());
  beforeEach(() => double.fault('none'));

  it('asks one query per area and reads the roads, nodes and passes inside', async () => {
    const source = overpassSource({ url: double.url, timeoutS: 5 });
    const before = double.requests();
    const extract = await source.extract(ENVALIRA);
    expect(double.requests() - before).toBe(1);
    expect(source.label).toBe(`Overpass API (${new URL(double.url).host})`);
    expect(extract.bbox).toEqual(ENVALIRA);
    expect(extract.timestamp).toBe('2013-05-28T18:59:04.000Z');
    expect(extract.ways.length).toBeGreaterThan(20);
    expect(extract.ways.length).toBeLessThan(fixture.ways.length);
    for (const way of extract.ways) {
      expect(isRideableRoad(way.tags)).toBe(true);
      for (const id of way.nodes) expect(extract.nodes.has(id)).toBe(true);
    }
    const passes = [...extract.nodes.values()].filter((node) => node.tags?.mountain_pass === 'yes');
    expect(passes.map((node) => node.tags?.name)).toContain("Port d'Envalira");
    const query = double.lastQuery() ?? '';
    expect(query).toContain('[out:json][timeout:5][maxsize:');
    expect(bboxesOf(query)[0]).toEqual(ENVALIRA);
  });

  it('applies the rideable rule to what the server sends', async () => {
    const gravel = {
      id: 1,
      nodes: fixture.ways[0]?.nodes ?? [],
      tags: { highway: 'tertiary', surface: 'gravel' },
    };
    const local = await startOverpassDouble({ ...fixture, ways: [...fixture.ways, gravel] });
    try {
      const extract = await overpassSource({ url: local.url }).extract(ENVALIRA);
      expect(extract.ways.some((way) => way.id === 1)).toBe(false);
      expect(extract.ways.length).toBeGreaterThan(0);
    } finally {
      await local.close();
    }
  });

  const faults: [OverpassFault, DiscoveryFailure, RegExp][] = [
    ['http429', 'busy', /is busy \(HTTP 429\)\.$/],
    ['http504', 'busy', /is busy \(HTTP 504\)\.$/],
    ['http400', 'refused', /refused the query \(HTTP 400\)\.$/],
    ['malformed', 'malformed', /answered something other than JSON\.$/],
    ['remark-timeout', 'timeout', /gave up on the query in its own time limit\.$/],
    ['remark-memory', 'too_large', /ran out of memory for an area this large\.$/],
    ['oversize', 'too_large', /answered more than 64 KiB\.$/],
    ['hang', 'timeout', /did not answer within 0\.24 s\.$/],
  ];
  it.each(faults)('maps %s to %s with one sentence', async (fault, failure, message) => {
    double.fault(fault);
    const source = overpassSource({ url: double.url, timeoutS: 0.2, maxSizeBytes: 64 * 1024 });
    const error = await source.extract(ENVALIRA).then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(DiscoveryError);
    const discovery = error as DiscoveryError;
    expect(discovery.failure).toBe(failure);
    expect(discovery.message).toMatch(message);
    expect(discovery.message).toMatch(/^Overpass API \(127\.0\.0\.1:\d+\) [^.]*(\.\d+[^.]*)?\.$/);
  });

  it('maps the caller abort to a time-out', async () => {
    double.fault('hang');
    const controller = new AbortController();
    const pending = overpassSource({ url: double.url, timeoutS: 30 }).extract(ENVALIRA, controller.signal);
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toMatchObject({ failure: 'timeout' });
  });

  it('maps an answer that is JSON but not Overpass to malformed', async () => {
    const source = overpassSource({
      url: 'http://overpass.test/api/interpreter',
      fetch: async () => Response.json({ elements: 'none' }),
    });
    await expect(source.extract(ENVALIRA)).rejects.toMatchObject({
      failure: 'malformed',
      message: 'Overpass API (overpass.test) answered JSON that is not an Overpass answer.',
    });
  });

  it('maps a refused connection to unreachable', async () => {
    const closed = await startOverpassDouble(fixture);
    const url = closed.url;
    await closed.close();
    await expect(overpassSource({ url }).extract(ENVALIRA)).rejects.toMatchObject({ failure: 'unreachable' });
  });
});

describe('overpassQuery', () => {
  it('asks each selector for both halves of an area across the antimeridian', () => {
    const query = overpassQuery({ south: -18, west: 178, north: -16, east: -179 }, 25, 1e6);
    expect(bboxesOf(query)).toContainEqual({ south: -18, west: 178, north: -16, east: 180 });
    expect(bboxesOf(query)).toContainEqual({ south: -18, west: -180, north: -16, east: -179 });
    expect(query).toMatch(/^\[out:json\]\[timeout:25\]\[maxsize:1000000\];/);
    expect(query).not.toMatch(/motorway/);
    expect(query).toContain('relation["type"="route"]["route"="bicycle"]');
  });
});
