import { mkdtempSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app/app.ts';
import { readSettings } from '../../src/app/settings.ts';
import type { LatLon } from '../../src/core/bearing.ts';
import { createSegmentCatalog } from '../../src/data/segments/catalog.ts';
import { generateSegments, generateSegmentStream } from '../support/synthetic-segments.ts';
import { formatFeatureCollection, segmentToFeature } from '../../src/data/segments/geojson.ts';
import { loadEmbeddedSegments, loadHandTracedSegments } from '../../src/data/segments/load.ts';
import { openSegmentCatalog } from '../../src/data/segments/open-catalog.ts';
import { indexPathFor, packCatalogFile } from '../../src/data/segments/pack-file.ts';
import { writePackedCatalog } from '../../src/data/segments/pack.ts';
import { openPackedCatalog, type PackedSegmentCatalog } from '../../src/data/segments/packed-catalog.ts';
import { HEADER_BYTES, PACKED_FORMAT_VERSION, SECTIONS } from '../../src/data/segments/packed-format.ts';
import type { Segment } from '../../src/data/segments/types.ts';

const DIR = mkdtempSync(join(tmpdir(), 'wos-packed-'));
const opened: PackedSegmentCatalog[] = [];
afterAll(() => opened.forEach((catalog) => catalog.close()));

function open(path: string): PackedSegmentCatalog {
  const catalog = openPackedCatalog(path);
  opened.push(catalog);
  return catalog;
}

const round5 = (value: number) => Math.round(value * 1e5) / 1e5;
const wrapLon = (lon: number) => round5(((((lon + 180) % 360) + 360) % 360) - 180);

/**
 * Generated road shapes moved to where catalogs break: across the
 * antimeridian (Fiji, Chukotka), near both poles (Svalbard, the Antarctic
 * plateau) and the southern hemisphere, with tied ranks, shared names and
 * aliases, so order, tie-breaks and name lookups all get exercised.
 */
function edgeSegments(count: number): Segment[] {
  const places: LatLon[] = [
    { lat: -17.8, lon: 179.9 },
    { lat: -17.8, lon: -179.95 },
    { lat: 65.5, lon: 179.99 },
    { lat: 78.2, lon: 15.6 },
    { lat: 86.5, lon: -40 },
    { lat: -85, lon: 100 },
    { lat: -41.3, lon: 174.8 },
  ];
  return generateSegments(count, 99).map((shape, n) => {
    const place = places[n % places.length] ?? { lat: 0, lon: 0 };
    const first = shape.polyline[0] ?? place;
    const jitter = ((n * 7919) % 1000) / 1000 - 0.5;
    const polyline = shape.polyline.map((p) => ({
      lat: round5(Math.max(-89.9, Math.min(89.9, p.lat - first.lat + place.lat + jitter * 0.3))),
      lon: wrapLon(p.lon - first.lon + place.lon + jitter * 0.6),
    }));
    return {
      ...shape,
      id: `edge-${n}`,
      name: n % 5 === 0 ? 'Shared Climb' : `Edge ${n}`,
      aliases: n % 3 === 0 ? [`Côte ${n % 4}`] : [],
      polyline,
      popularityRank: 1 + (n % 13), // many ties: the id then decides
    };
  });
}

const SEGMENTS = [...generateSegments(2500, 7), ...edgeSegments(700)];
const PATH = join(DIR, 'catalog.segidx');
writePackedCatalog(PATH, SEGMENTS);
const reference = createSegmentCatalog(SEGMENTS);
const packed = open(PATH);
const starts = SEGMENTS.map((s) => s.polyline[0] ?? { lat: 0, lon: 0 });

describe('the packed catalog', () => {
  it('answers near() exactly as the GeoJSON catalog does: ids, order, distances and segments', () => {
    const nearAStart = fc
      .record({
        index: fc.nat({ max: SEGMENTS.length - 1 }),
        dLat: fc.double({ min: -1.5, max: 1.5, noNaN: true }),
        dLon: fc.double({ min: -3, max: 3, noNaN: true }),
      })
      .map(({ index, dLat, dLon }) => {
        const s = starts[index] ?? { lat: 0, lon: 0 };
        return { lat: Math.max(-90, Math.min(90, s.lat + dLat)), lon: wrapLon(s.lon + dLon) };
      });
    const anywhere = fc.record({
      lat: fc.double({ min: -90, max: 90, noNaN: true }),
      lon: fc.double({ min: -180, max: 180, noNaN: true }),
    });
    const poles = fc.record({
      lat: fc.oneof(
        fc.double({ min: 84, max: 90, noNaN: true }),
        fc.double({ min: -90, max: -84, noNaN: true }),
      ),
      lon: fc.double({ min: -180, max: 180, noNaN: true }),
    });
    fc.assert(
      fc.property(
        fc.oneof(nearAStart, anywhere, poles),
        fc.oneof(fc.double({ min: 0, max: 300_000, noNaN: true }), fc.constant(0)),
        fc.integer({ min: 1, max: 80 }),
        (point, radiusM, limit) => {
          const expected = reference.near(point, radiusM, limit);
          const actual = packed.near(point, radiusM, limit);
          expect(actual.map((n) => [n.segment.id, n.distanceM])).toEqual(
            expected.map((n) => [n.segment.id, n.distanceM]),
          );
          expect(actual).toEqual(expected);
        },
      ),
      { numRuns: 500 },
    );
    // The property must have seen answers across the antimeridian, not only empty ones.
    const fiji = packed.near({ lat: -17.8, lon: 180 }, 100_000, 50);
    expect(fiji.some((n) => (n.segment.polyline[0]?.lon ?? 0) > 0)).toBe(true);
    expect(fiji.some((n) => (n.segment.polyline[0]?.lon ?? 0) < 0)).toBe(true);
  });

  it('answers nearest() exactly as the GeoJSON catalog does, at any distance', () => {
    fc.assert(
      fc.property(
        fc.record({
          lat: fc.double({ min: -90, max: 90, noNaN: true }),
          lon: fc.double({ min: -180, max: 180, noNaN: true }),
        }),
        fc.integer({ min: -1, max: 40 }),
        (point, limit) => {
          const actual = packed.nearest(point, limit);
          expect(actual).toEqual(reference.nearest(point, limit));
          expect(actual).toHaveLength(Math.max(0, limit));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('gets every segment by id as the GeoJSON catalog does, and nothing else', () => {
    expect(packed.size).toBe(SEGMENTS.length);
    fc.assert(
      fc.property(fc.nat({ max: SEGMENTS.length - 1 }), (index) => {
        const id = SEGMENTS[index]?.id ?? '';
        expect(packed.get(id)).toEqual(reference.get(id));
      }),
      { numRuns: 300 },
    );
    for (const id of ['', 'synthetic-0', 'synthetic-2501', 'edge-', 'zzz', 'Synthetic-1'])
      expect(packed.get(id)).toBeUndefined();
    // A segment touched twice is one object, so its legs are computed once.
    expect(packed.get('edge-3')).toBe(packed.get('edge-3'));
  });

  it('finds by name and alias in the same order, folding case and accents', () => {
    const queries = [
      'shared climb',
      'SHARED-CLIMB',
      'cote 1',
      'Côte 2',
      'Synthetic segment 42',
      'edge 7',
      'x',
      '',
    ];
    for (const query of queries)
      expect(
        packed.findByName(query).map((s) => s.id),
        query,
      ).toEqual(reference.findByName(query).map((s) => s.id));
    expect(packed.findByName('shared climb')).toHaveLength(140);
  });

  it('holds the embedded catalog and an empty one', async () => {
    const embeddedPath = join(DIR, 'embedded.segidx');
    const report = packCatalogFile(
      new URL('../../src/data/segments/catalog.geojson', import.meta.url).pathname,
      embeddedPath,
    );
    const embedded = open(embeddedPath);
    const geojson = createSegmentCatalog(loadHandTracedSegments());
    expect(report.segments).toBe(geojson.size);
    expect(embedded.near({ lat: 45.0548, lon: 6.0337 }, 25_000, 20)).toEqual(
      geojson.near({ lat: 45.0548, lon: 6.0337 }, 25_000, 20),
    );
    expect(embedded.findByName("L'ALPE D'HUEZ")).toEqual(geojson.findByName("L'ALPE D'HUEZ"));
    // The whole embedded catalog, as a Vercel bundle packs it: discovered entries keep their optional fields.
    const allPath = join(DIR, 'all.segidx');
    const all = loadEmbeddedSegments();
    writePackedCatalog(allPath, all);
    const packedAll = open(allPath);
    const discovered = all.filter((s) => s.provenance !== undefined);
    expect(discovered.length).toBeGreaterThan(0);
    for (const segment of [...discovered, ...all.slice(0, 3)])
      expect(packedAll.get(segment.id)).toEqual(segment);
    const emptyPath = join(DIR, 'empty.segidx');
    writePackedCatalog(emptyPath, []);
    const empty = await openSegmentCatalog(emptyPath);
    expect([empty.size, empty.near({ lat: 0, lon: 0 }, 1e7, 10), empty.get('x')]).toEqual([0, [], undefined]);
  });
});

describe('packing', () => {
  it('refuses invalid or duplicate segments, listing each, and writes nothing', () => {
    const [a, b] = generateSegments(2, 3);
    if (a === undefined || b === undefined) throw new Error('generator gave too few');
    const bad = { ...b, countryCode: 'france', polyline: [b.polyline[0] ?? { lat: 0, lon: 0 }] };
    const out = join(DIR, 'refused.segidx');
    expect(() => writePackedCatalog(out, [a, bad, a])).toThrow(
      /segment 1 \(id "synthetic-2"\) geometry\.coordinates: a segment needs at least 2 points[\s\S]*segment 1 \(id "synthetic-2"\) properties\.country: must be an ISO[\s\S]*segment 2 \(id "synthetic-1"\): duplicate id, already used by segment 0/,
    );
    expect(() => statSync(out)).toThrow(/ENOENT/);
  });

  it('packs a line-delimited catalog (one Feature per line) exactly as the same FeatureCollection', () => {
    const segments = generateSegments(300, 11);
    const lines = join(DIR, 'big.geojsonl');
    writeFileSync(lines, segments.map((s) => `\u001e${JSON.stringify(segmentToFeature(s))}\n`).join(''));
    const collection = join(DIR, 'big.geojson');
    writeFileSync(collection, formatFeatureCollection(segments.map(segmentToFeature)));
    packCatalogFile(lines);
    packCatalogFile(collection, join(DIR, 'from-collection.segidx'));
    expect(readFileSync(indexPathFor(lines))).toEqual(readFileSync(join(DIR, 'from-collection.segidx')));

    writeFileSync(
      lines,
      `${JSON.stringify(segmentToFeature(segments[0] as Segment))}\n{"type":"Feature"}\nnot json\n`,
    );
    expect(() => packCatalogFile(lines, join(DIR, 'bad-lines.segidx'))).toThrow(
      /Not packed: invalid catalog .*big\.geojsonl:\n {2}- line 2 geometry: [^\n]+\n[\s\S]*line 3: not JSON/,
    );
  });

  it('streams a generated catalog: the stream and the array are the same segments', () => {
    expect([...generateSegmentStream(50, 5)]).toEqual(generateSegments(50, 5));
  });
});

/** A fresh copy of the packed test catalog to damage. */
function copy(name: string): string {
  const path = join(DIR, name);
  writeFileSync(path, readFileSync(PATH));
  return path;
}

function sectionOffset(path: string, name: string): number {
  const header = new DataView(readFileSync(path).buffer);
  const i = SECTIONS.findIndex(([section]) => section === name);
  return header.getFloat64(48 + i * 16, true);
}

function patch(path: string, at: number, bytes: Uint8Array): void {
  const data = readFileSync(path);
  data.set(bytes, at);
  writeFileSync(path, data);
}

describe('a damaged index stops start-up with the file and the problem', () => {
  const startUp = (path: string) => openSegmentCatalog(path);

  it('names a truncated file', async () => {
    const path = copy('truncated.segidx');
    truncateSync(path, statSync(path).size - 1000);
    await expect(startUp(path)).rejects.toThrow(
      new RegExp(`^Segment index ${path}: truncated: \\d+ bytes of the \\d+ its header announces$`),
    );
    truncateSync(path, 100);
    await expect(startUp(path)).rejects.toThrow(
      `Segment index ${path}: truncated: 100 bytes, shorter than its ${HEADER_BYTES}-byte header`,
    );
  });

  it('names another format version and says how to re-pack', async () => {
    const path = copy('version.segidx');
    const version = new Uint8Array(4);
    new DataView(version.buffer).setUint32(0, PACKED_FORMAT_VERSION + 1, true);
    patch(path, 8, version);
    await expect(startUp(path)).rejects.toThrow(
      `Segment index ${path}: format version ${PACKED_FORMAT_VERSION + 1}, but this server reads version ${PACKED_FORMAT_VERSION}; re-pack it`,
    );
  });

  it('names corruption in the header, in the columns and in a polyline', async () => {
    const header = copy('header.segidx');
    patch(header, 20, new Uint8Array([0xff]));
    await expect(startUp(header)).rejects.toThrow(`Segment index ${header}: corrupt header (CRC mismatch)`);

    const columns = copy('columns.segidx');
    patch(columns, sectionOffset(columns, 'ranks') + 8 * 17, new Uint8Array([0x40]));
    await expect(startUp(columns)).rejects.toThrow(
      `Segment index ${columns}: corrupt (CRC mismatch in the index columns)`,
    );

    const kd = copy('kdbush.segidx');
    patch(kd, sectionOffset(kd, 'kdbush') + 100, new Uint8Array([0x13, 0x37]));
    await expect(startUp(kd)).rejects.toThrow(`Segment index ${kd}: corrupt (CRC mismatch`);

    // Polylines stay on disk: the damage shows when a query first reads that segment.
    const points = copy('points.segidx');
    patch(points, sectionOffset(points, 'points') + 16 * 3, new Uint8Array([0x00, 0x01, 0x02]));
    const catalog = open(points);
    expect(() => catalog.get('synthetic-1')).toThrow(
      `Segment index ${points}: corrupt polyline of segment "synthetic-1" (CRC mismatch)`,
    );
    expect(catalog.get('synthetic-2')?.polyline).toEqual(reference.get('synthetic-2')?.polyline);
  });

  it('names a file that is not an index, or a table that points outside the file', async () => {
    const other = join(DIR, 'other.segidx');
    writeFileSync(other, 'WOSSEG??not really');
    expect(() => openPackedCatalog(other)).toThrow(`Segment index ${other}: not a packed segment index`);
    expect(() => openPackedCatalog(join(DIR, 'missing.segidx'))).toThrow(
      /^Segment index .*missing\.segidx: cannot be read: ENOENT/,
    );

    const table = copy('table.segidx');
    const data = readFileSync(table);
    const view = new DataView(data.buffer, data.byteOffset);
    view.setFloat64(48 + 16 * 2, 12, true); // "distances" now starts at byte 12, inside the header
    view.setUint32(HEADER_BYTES - 8, crc32(data.subarray(0, HEADER_BYTES - 8)), true);
    writeFileSync(table, data);
    await expect(startUp(table)).rejects.toThrow(
      `Segment index ${table}: section "distances" lies outside the file or overlaps another`,
    );
  });

  it('reaches the server: the composition root refuses to build the MCP data', async () => {
    const path = copy('app.segidx');
    truncateSync(path, 4096);
    const app = createApp(readSettings({ WOS_SEGMENTS_FILE: path }));
    await expect(app.data()).rejects.toThrow(`Segment index ${path}: truncated`);
  });
});
