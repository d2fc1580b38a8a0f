import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { greatCircleM } from '../../src/core/distance.ts';
import { buildRoadGraph } from '../../src/core/discovery/road-graph.ts';
import { buildStrokes, edgeOfStep } from '../../src/core/discovery/road-strokes.ts';
import type { OsmExtract } from '../../src/core/discovery/osm-types.ts';
import { isRideableRoad } from '../../src/core/discovery/rideable-way.ts';
import { readOsmFile } from '../../src/data/discovery/osm-file.ts';

const ANDORRA = 'seed/osm/andorra.osm.pbf';
const MONACO = 'seed/osm/monaco.osm.gz';

function expectWhole(extract: OsmExtract) {
  expect(extract.ways.length).toBeGreaterThan(0);
  for (const way of extract.ways) {
    expect(isRideableRoad(way.tags)).toBe(true);
    for (const id of way.nodes) expect(extract.nodes.has(id)).toBe(true);
  }
}

describe('readOsmFile on Andorra (PBF)', () => {
  let andorra: OsmExtract;
  beforeAll(async () => {
    andorra = await readOsmFile(ANDORRA);
  });

  it('keeps rideable roads with all their nodes', () => {
    expectWhole(andorra);
    expect(andorra.nodes.size).toBeGreaterThan(10_000);
    expect(andorra.ways.some((way) => way.tags.ref === 'CG-2' && way.tags.name === "Port d'Envalira")).toBe(
      true,
    );
    expect(andorra.ways.some((way) => way.tags.highway === 'path' || way.tags.highway === 'footway')).toBe(
      false,
    );
  });

  it('keeps the named passes, with the header time and bounds', () => {
    const passes = [...andorra.nodes.values()].filter((node) => node.tags?.mountain_pass === 'yes');
    const names = passes.map((node) => node.tags?.name);
    expect(names).toContain("Port d'Envalira");
    expect(names).toContain("Coll d'Ordino");
    expect(andorra.timestamp).toBe('2013-05-28T18:59:04.000Z');
    expect(andorra.bbox.south).toBeCloseTo(42.43509, 4);
    expect(andorra.bbox.east).toBeCloseTo(1.780386, 4);
  });

  it('cuts to a bbox: ways with a node inside, whole; points inside only', async () => {
    const bbox = { south: 42.5, west: 1.5, north: 42.56, east: 1.6 };
    const part = await readOsmFile(ANDORRA, bbox);
    expectWhole(part);
    expect(part.ways.length).toBeLessThan(andorra.ways.length);
    expect(part.bbox).toEqual(bbox);
    for (const way of part.ways) {
      expect(
        way.nodes.some((id) => {
          const node = part.nodes.get(id);
          return (
            node !== undefined && node.lat >= 42.5 && node.lat <= 42.56 && node.lon >= 1.5 && node.lon <= 1.6
          );
        }),
      ).toBe(true);
    }
    for (const node of part.nodes.values()) {
      if (node.tags)
        expect(node.lat >= 42.5 && node.lat <= 42.56 && node.lon >= 1.5 && node.lon <= 1.6).toBe(true);
    }
  });

  it('makes a road graph whose roads follow the refs, no consecutive points a kilometre apart', () => {
    const graph = buildRoadGraph(andorra);
    const strokes = buildStrokes(graph);
    expect(strokes.length).toBeGreaterThan(50);
    const refs = new Set(graph.edges.map((edge) => edge.kind.ref));
    for (const ref of ['CG-1', 'CG-2', 'CG-3', 'CG-4']) expect(refs).toContain(ref);
    // The pass road is followed as one road over its ways (all but a one-way piece ridden the other way).
    const envalira = strokes.map(
      (stroke) => new Set(stroke.steps.map((step) => graph.edges[edgeOfStep(step)]?.wayId)),
    );
    const passWays = new Set(
      andorra.ways.filter((way) => way.tags['name'] === "Port d'Envalira").map((way) => way.id),
    );
    expect(
      Math.max(
        ...envalira.map((ways) => [...ways].filter((id) => id !== undefined && passWays.has(id)).length),
      ),
    ).toBeGreaterThanOrEqual(passWays.size - 1);
    for (const edge of graph.edges) {
      edge.points.forEach((point, k) => {
        const previous = edge.points[k - 1];
        if (previous) expect(greatCircleM(previous, point)).toBeLessThan(1000);
      });
    }
  });
});

describe('readOsmFile on Monaco (gzipped XML)', () => {
  it('keeps rideable roads with their nodes and the newest element time', async () => {
    const monaco = await readOsmFile(MONACO);
    expectWhole(monaco);
    expect(monaco.ways.length).toBeGreaterThan(100);
    expect(monaco.timestamp).toMatch(/^20\d\d-\d\d-\d\dT/);
    expect(monaco.bbox.north).toBeGreaterThan(43.7);
    expect(monaco.bbox.south).toBeLessThan(43.75);
    expect(buildStrokes(buildRoadGraph(monaco)).length).toBeGreaterThan(10);
  });
});

describe('readOsmFile on bad files', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'osm-file-'));
  });

  it('names the path of a missing file', async () => {
    await expect(readOsmFile('seed/osm/nowhere.osm.pbf')).rejects.toThrow(
      'Cannot read the OSM file seed/osm/nowhere.osm.pbf: no such file.',
    );
  });

  it.each([
    ['empty.osm.pbf', Buffer.alloc(0), /the file is empty/],
    ['text.osm.pbf', Buffer.from('hello, not a map'), /not an OSM PBF file|input/],
    [
      'broken.osm',
      Buffer.from('<osm><node id="1" lat="1" lon="2"><tag k="a"'),
      /Cannot read the OSM file .*broken\.osm/,
    ],
    [
      'broken.osm.gz',
      gzipSync(Buffer.from('<osm><way id="1">')).subarray(0, 20),
      /Cannot read the OSM file .*broken\.osm\.gz/,
    ],
    ['other.xml.osm', Buffer.from('<html></html>'), /not an OSM XML file/],
  ])('refuses %s with one line naming it', async (name, bytes, message) => {
    const path = join(dir, name);
    await writeFile(path, bytes);
    const error = await readOsmFile(path).then(
      () => null,
      (caught: unknown) => caught as Error,
    );
    expect(error?.message).toMatch(message);
    expect(error?.message).toContain(path);
    expect(error?.message.split('\n')).toHaveLength(1);
  });

  it('refuses a truncated PBF', async () => {
    const { readFile } = await import('node:fs/promises');
    const whole = await readFile(ANDORRA);
    const path = join(dir, 'cut.osm.pbf');
    await writeFile(path, whole.subarray(0, Math.floor(whole.length / 2)));
    await expect(readOsmFile(path)).rejects.toThrow(
      /cut\.osm\.pbf: (the file is truncated|input format error)/,
    );
  });
});
