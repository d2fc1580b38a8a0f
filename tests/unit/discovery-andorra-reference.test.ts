/**
 * The climbs discovered from the shipped Andorra extract, held to what cyclists publish about the same
 * roads (tests/fixtures/discovery/andorra-climbs.md, read here, not copied into the test), and read for
 * noise the way a rider would: no lanes posing as climbs, no two segments on the same road, no two
 * names alike.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { LatLon } from '../../src/core/bearing.ts';
import { initialBearing } from '../../src/core/bearing.ts';
import { greatCircleM } from '../../src/core/distance.ts';
import { densify } from '../../src/core/discovery/road-samples.ts';
import type { OsmExtract } from '../../src/core/discovery/osm-types.ts';
import { hgtElevationSource } from '../../src/data/discovery/hgt-elevation.ts';
import { readOsmFile } from '../../src/data/discovery/osm-file.ts';
import { lazyGazetteer } from '../../src/data/geocoding/gazetteer.ts';
import { loadEmbeddedSegments } from '../../src/data/segments/load.ts';
import type { Segment } from '../../src/data/segments/types.ts';

/** One row of the published table. */
interface Published {
  readonly row: number;
  readonly climb: string;
  readonly startTown: string;
  readonly topM: number | null;
  readonly lengthKm: number;
  readonly gainM: number;
}

/** Figures as the table writes them: "1,378", "~5", "—". */
const figure = (text: string): number | null => {
  const value = Number(text.replace(/[~,\s]/g, '').replace(/\(.*$/, ''));
  return text.trim() === '—' || !Number.isFinite(value) ? null : value;
};

function readTable(): Published[] {
  const text = readFileSync(new URL('../fixtures/discovery/andorra-climbs.md', import.meta.url), 'utf8');
  return text
    .split('\n')
    .filter((line) => /^\|\s*\d+\s*\|/.test(line))
    .map((line) => {
      const cells = line.split('|').map((cell) => cell.trim());
      const start = (cells[3] ?? '').split('→')[0] ?? '';
      return {
        row: Number(cells[1]),
        climb: cells[2] ?? '',
        startTown: start.replace(/\(.*\)/, '').trim(),
        topM: figure(cells[4] ?? '—'),
        lengthKm: figure(cells[5] ?? '') ?? Number.NaN,
        gainM: figure(cells[6] ?? '') ?? Number.NaN,
      };
    });
}

/** A published figure and ours agree within this share. */
const WITHIN = 0.15;
/** A climb starts "in or next to" its town when its start lies this close to the town's point. */
const START_REACH_M = 1_500;
/** Our top lies this close to the published top height. */
const TOP_WITHIN_M = 60;

const within = (ours: number, published: number) => Math.abs(ours / published - 1) <= WITHIN;
/** Net rise: what guides call a climb's gain (start to top), from the published grade and length. */
const netRiseM = (s: Segment) => (s.averageGradePct / 100) * s.distanceM;

/** Each row matched to at most one climb and each climb to at most one row (augmenting paths). */
function matchRows(fits: readonly (readonly number[])[]): Map<number, number> {
  const owner = new Map<number, number>();
  const tryRow = (row: number, seen: Set<number>): boolean => {
    for (const climb of fits[row] ?? []) {
      if (seen.has(climb)) continue;
      seen.add(climb);
      const held = owner.get(climb);
      if (held === undefined || tryRow(held, seen)) {
        owner.set(climb, row);
        return true;
      }
    }
    return false;
  };
  fits.forEach((_, row) => tryRow(row, new Set()));
  return new Map([...owner].map(([climb, row]) => [row, climb]));
}

/** Metres from p to the leg a–b on a local plane (legs are short). */
function toLegM(p: LatLon, a: LatLon, b: LatLon): number {
  const k = Math.cos((p.lat * Math.PI) / 180);
  const [ax, ay, bx, by, px, py] = [a.lon * k, a.lat, b.lon * k, b.lat, p.lon * k, p.lat];
  const [dx, dy] = [bx - ax, by - ay];
  const t =
    dx === 0 && dy === 0
      ? 0
      : Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)));
  return greatCircleM(p, { lat: ay + t * dy, lon: (ax + t * dx) / k });
}

/** A segment's line every 25 m, each point with the way it runs there. */
function pointsAlong(segment: Segment): { point: LatLon; heading: number }[] {
  const samples = densify(segment.polyline, 25);
  return samples
    .slice(0, -1)
    .map((point, i) => ({ point, heading: initialBearing(point, samples[i + 1] as LatLon) }));
}

const turn = (a: number, b: number) => {
  const d = Math.abs(a - b) % 360;
  return d > 180 ? 360 - d : d;
};

describe('the climbs discovered in Andorra, against the published table', () => {
  let climbs: Segment[];
  let found: Segment[];
  let extract: OsmExtract;
  const table = readTable();

  beforeAll(async () => {
    found = loadEmbeddedSegments().filter((s) => s.provenance?.osmSource.includes('andorra.osm.pbf'));
    climbs = found.filter((s) => s.kind === 'climb');
    extract = await readOsmFile('seed/osm/andorra.osm.pbf');
  });

  /** Where a town is: its place point in the extract, else the gazetteer's (Pas de la Casa has no point in 2013). */
  async function townPoint(name: string): Promise<LatLon> {
    const wanted = name.toLowerCase().replace(/^(the|les|el|la) /, '');
    for (const node of extract.nodes.values()) {
      const own = node.tags?.['name']?.toLowerCase().replace(/^(les|el|la) /, '');
      if (node.tags?.['place'] && own === wanted) return node;
    }
    const [place] = await lazyGazetteer().search(`${name}, AD`, 1);
    if (!place) throw new Error(`no point for ${name}`);
    return place;
  }

  it('reads all 14 rows of the table', () => {
    expect(table.map((row) => row.row)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]);
    for (const row of table) {
      expect(row.lengthKm, row.climb).toBeGreaterThan(0);
      expect(row.gainM, row.climb).toBeGreaterThan(0);
    }
  });

  it('finds at least 12 of the 14 climb-sides as one segment each, Envalira from Andorra la Vella and Coll d’Ordino from Canillo among them', async () => {
    const tile = hgtElevationSource('seed/dem');
    const tops = await tile.elevations(climbs.map((s) => s.polyline.at(-1) as LatLon));
    const fits: number[][] = [];
    for (const row of table) {
      const town = await townPoint(row.startTown);
      fits.push(
        climbs.flatMap((s, i) => {
          const fit =
            within(s.distanceM / 1000, row.lengthKm) &&
            within(netRiseM(s), row.gainM) &&
            greatCircleM(s.polyline[0] as LatLon, town) <= START_REACH_M &&
            (row.topM === null || Math.abs((tops[i] ?? 0) - row.topM) <= TOP_WITHIN_M);
          return fit ? [i] : [];
        }),
      );
    }
    const matched = matchRows(fits);
    const missing = table.filter((_, row) => !matched.has(row)).map((row) => row.climb);
    expect(matched.size, `missing: ${missing.join('; ')}`).toBeGreaterThanOrEqual(12);
    const rowOf = (climb: string) => table.findIndex((row) => row.climb === climb);
    expect(matched.has(rowOf('Port d\u2019Envalira from Andorra la Vella'.replace('\u2019', "'")))).toBe(
      true,
    );
    expect(matched.has(rowOf("Coll d'Ordino from Canillo"))).toBe(true);
  });

  it('puts no segment mostly on residential streets, lanes or service roads', () => {
    const ways = new Map(extract.ways.map((way) => [way.id, way]));
    for (const segment of found) {
      const own = (segment.provenance?.osmWayIds ?? []).flatMap((id) => {
        const way = ways.get(id);
        const points = way?.nodes.flatMap((n) => extract.nodes.get(n) ?? []) ?? [];
        return way ? [{ highway: way.tags['highway'] ?? '', points }] : [];
      });
      let minor = 0;
      let all = 0;
      for (const { point } of pointsAlong(segment)) {
        let best = { d: Infinity, highway: '' };
        for (const way of own) {
          for (let k = 1; k < way.points.length; k++) {
            const d = toLegM(point, way.points[k - 1] as LatLon, way.points[k] as LatLon);
            if (d < best.d) best = { d, highway: way.highway };
          }
        }
        all += 1;
        if (['residential', 'service', 'track', 'living_street'].includes(best.highway)) minor += 1;
      }
      expect(minor / all, `${segment.name}: share on minor roads`).toBeLessThanOrEqual(0.5);
    }
  });

  it('has no two segments sharing more than half their length in the same direction, but for climbs to one top from two towns', () => {
    // Points in cells of about 30 m, so each point is compared with its neighbours only.
    const CELL = 0.0003;
    const cellOf = (p: LatLon) => `${Math.floor(p.lat / CELL)}:${Math.floor(p.lon / CELL)}`;
    const along = found.map((segment) => {
      const points = pointsAlong(segment);
      const cells = new Map<string, typeof points>();
      for (const entry of points)
        cells.set(cellOf(entry.point), [...(cells.get(cellOf(entry.point)) ?? []), entry]);
      return { segment, points, cells };
    });
    const near = (cells: Map<string, { point: LatLon; heading: number }[]>, p: LatLon) => {
      const [row, col] = [Math.floor(p.lat / CELL), Math.floor(p.lon / CELL)];
      return [-1, 0, 1].flatMap((dr) =>
        [-1, 0, 1].flatMap((dc) => cells.get(`${row + dr}:${col + dc}`) ?? []),
      );
    };
    for (const [i, a] of along.entries()) {
      for (const b of along.slice(i + 1)) {
        const shared = a.points.filter(({ point, heading }) =>
          near(b.cells, point).some(
            (q) => greatCircleM(point, q.point) <= 20 && turn(heading, q.heading) <= 45,
          ),
        ).length;
        const shorter = Math.min(a.points.length, b.points.length);
        if (shared <= shorter / 2) continue;
        // Allowed only for two climbs to the same top whose names say different towns.
        const topsMeet =
          greatCircleM(a.segment.polyline.at(-1) as LatLon, b.segment.polyline.at(-1) as LatLon) <= 300;
        const fromA = a.segment.name.split(' from ')[1]?.split(' via ')[0];
        const fromB = b.segment.name.split(' from ')[1]?.split(' via ')[0];
        expect(
          a.segment.kind === 'climb' && b.segment.kind === 'climb' && topsMeet && fromA !== fromB,
          `${a.segment.name} and ${b.segment.name} share ${shared} of ${shorter} points`,
        ).toBe(true);
      }
    }
  });

  it('gives every segment a name of its own', () => {
    const names = found.map((s) => s.name);
    expect(new Set(names).size).toBe(names.length);
  });
});
