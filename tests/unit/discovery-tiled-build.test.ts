/**
 * The build in blocks against discovery over the whole extract: the same climbs and stretches (by
 * start, top and figures) whatever the blocks, including climbs that cross an area's edge, which
 * the block's margin keeps whole. Compared with `discoverSegments` as it runs now, not with a list,
 * so it keeps holding when the rules change.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { areaKeyOf } from '../../src/data/discovery/build-blocks.ts';
import { discoverSegments } from '../../src/data/discovery/discover.ts';
import type { DiscoveredSegment } from '../../src/data/discovery/segment-records.ts';
import { buildFromFile, type AreaSink, type BuiltArea } from '../../src/data/discovery/discover-files.ts';
import { hgtElevationSource } from '../../src/data/discovery/hgt-elevation.ts';
import { readOsmFile } from '../../src/data/discovery/osm-file.ts';
import { loadCountryOf, type CountryOf } from '../../src/data/geocoding/nearest-country.ts';
import { openFeatureCollection } from '../../src/data/segments/geojson-writer.ts';
import { formatFeatureCollection, segmentToFeature } from '../../src/data/segments/geojson.ts';

const ANDORRA = 'seed/osm/andorra.osm.pbf';
const DEM = 'seed/dem';

/** What must not change: kind, start, top and the figures. */
const fingerprint = (s: DiscoveredSegment) =>
  JSON.stringify([
    s.kind,
    s.polyline[0],
    s.polyline.at(-1),
    s.distanceM,
    s.elevationGainM,
    s.averageGradePct,
    s.maxGradePct,
    s.polyline.length,
  ]);

function collecting(): { sink: AreaSink; areas: BuiltArea[] } {
  const areas: BuiltArea[] = [];
  return {
    areas,
    sink: {
      finished: async () => new Set(),
      area: async (area) => {
        areas.push(area);
        return area.segments.length;
      },
    },
  };
}

describe('the build in blocks', () => {
  let countryOf: CountryOf;
  let whole: DiscoveredSegment[];
  /** The areas of the build with a block per area (the second case below), for the tests after it. */
  let perArea: BuiltArea[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'wos-tiled-'));

  beforeAll(async () => {
    countryOf = await loadCountryOf();
    const extract = await readOsmFile(ANDORRA);
    ({ segments: whole } = await discoverSegments(extract, hgtElevationSource(DEM), {
      osmSource: 'OpenStreetMap extract andorra.osm.pbf',
      countryOf,
    }));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const build = (blockAreas: number, sink: AreaSink, marginM?: number, workers = 0) =>
    buildFromFile({
      ...(marginM === undefined ? {} : { marginM }),
      osmFile: ANDORRA,
      demDir: DEM,
      sink,
      handTraced: [],
      countryOf: async () => countryOf,
      workers,
      blockAreas,
      tmpDir: dir,
    });

  it.each([
    ['one block of 2°', 8],
    ['a block per area, each read with its 30 km margin', 1],
  ])('finds what discovery over the whole extract finds: %s', async (_, blockAreas) => {
    const { sink, areas } = collecting();
    const summary = await build(blockAreas, sink);
    if (blockAreas === 1) perArea = areas;
    const tiled = areas.flatMap((area) => area.segments);
    expect(whole.length).toBeGreaterThan(0);
    expect(tiled.map(fingerprint).sort()).toEqual(whole.map(fingerprint).sort());
    expect(summary.segments).toBe(whole.length);
    // Every segment is filed under the area of its start, each area once.
    for (const area of areas)
      for (const s of area.segments) expect(areaKeyOf(s.polyline[0] ?? { lat: 90, lon: 0 })).toBe(area.key);
    expect(new Set(areas.map((a) => a.key)).size).toBe(areas.length);
    if (blockAreas === 1) expect(summary.blocks).toBe(areas.length);
  });

  it('gives the same areas, in the same order, from two worker threads', async () => {
    const inline = { areas: perArea };
    const threads = collecting();
    await build(1, threads.sink, undefined, 2);
    expect(threads.areas.map((a) => a.key)).toEqual(inline.areas.map((a) => a.key));
    expect(threads.areas.flatMap((a) => a.segments).map((s) => s.id)).toEqual(
      inline.areas.flatMap((a) => a.segments).map((s) => s.id),
    );
    expect(
      threads.areas
        .flatMap((a) => a.segments)
        .map(fingerprint)
        .sort(),
    ).toEqual(whole.map(fingerprint).sort());
  });

  it('keeps climbs whole that cross an area edge (the case the margin is for)', () => {
    const areas = perArea;
    const crossing = areas
      .flatMap((area) => area.segments)
      .filter((s) => new Set(s.polyline.map((p) => areaKeyOf(p))).size > 1);
    // Andorra has some: the test proves nothing without them.
    expect(crossing.length).toBeGreaterThan(0);
    const wholeFingerprints = new Set(whole.map(fingerprint));
    for (const s of crossing) expect(wholeFingerprints.has(fingerprint(s))).toBe(true);
  });

  it('would lose or cut them without the margin (so the test above can fail)', async () => {
    const { sink, areas } = collecting();
    await build(1, sink, 0);
    const tiled = areas
      .flatMap((area) => area.segments)
      .map(fingerprint)
      .sort();
    expect(tiled).not.toEqual(whole.map(fingerprint).sort());
  });

  it('writes a GeoJSON file feature by feature, byte for byte what the whole-string formatter writes', async () => {
    const path = join(dir, 'streamed.geojson');
    const writer = await openFeatureCollection(path);
    const features = whole.map(segmentToFeature);
    for (const feature of features) await writer.write(feature);
    await writer.close();
    expect(readFileSync(path, 'utf8')).toBe(formatFeatureCollection(features));
    const empty = await openFeatureCollection(join(dir, 'empty.geojson'));
    await empty.close();
    expect(readFileSync(join(dir, 'empty.geojson'), 'utf8')).toBe(formatFeatureCollection([]));
  });

  it('stops when its sink fails and a second run with the finished areas skips them', async () => {
    const first: BuiltArea[] = [];
    let writes = 0;
    const failing: AreaSink = {
      finished: async () => new Set(),
      area: async (area) => {
        if (++writes === 3) throw new Error('power cut');
        first.push(area);
        return area.segments.length;
      },
    };
    await expect(build(1, failing)).rejects.toThrow('power cut');
    const done = new Set(first.map((a) => a.key));
    const second: BuiltArea[] = [];
    const summary = await build(1, {
      finished: async (keys) => new Set(keys.filter((key) => done.has(key))),
      area: async (area) => {
        second.push(area);
        return area.segments.length;
      },
    });
    expect(summary.skippedAreas).toBe(done.size);
    expect(second.map((a) => a.key).filter((key) => done.has(key))).toEqual([]);
    const resumed = [...first, ...second]
      .flatMap((a) => a.segments)
      .map(fingerprint)
      .sort();
    expect(resumed).toEqual(whole.map(fingerprint).sort());
  });
});
