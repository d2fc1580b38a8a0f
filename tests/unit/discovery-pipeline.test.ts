import { describe, expect, it } from 'vitest';
import type { LatLon } from '../../src/core/bearing.ts';
import type { OsmExtract, OsmNode, OsmWay } from '../../src/core/discovery/osm-types.ts';
import { routeShape } from '../../src/core/route/route-shape.ts';
import { discoverSegments, TIMED_STAGES } from '../../src/data/discovery/discover.ts';
import type { ElevationSource } from '../../src/data/discovery/types.ts';

/** A made-up area south of the equator: roads drawn point by point, heights from a formula. */
function extractOf(
  roads: { id: number; tags: Record<string, string>; points: LatLon[] }[],
  named: OsmNode[] = [],
): OsmExtract {
  const nodes = new Map<number, OsmNode>(named.map((n) => [n.id, n]));
  let next = 1_000_000;
  const ways: OsmWay[] = roads.map((road) => ({
    id: road.id,
    tags: road.tags,
    nodes: road.points.map((p) => {
      const id = (next += 1);
      nodes.set(id, { id, lat: p.lat, lon: p.lon });
      return id;
    }),
  }));
  return {
    bbox: { south: -34, west: 18, north: -33, east: 19 },
    nodes,
    ways,
    relations: [],
    timestamp: '2026-11-01T00:00:00Z',
  };
}

function heights(formula: (p: LatLon) => number): ElevationSource & { asked: () => number } {
  let asked = 0;
  return {
    label: 'formula',
    asked: () => asked,
    elevations: async (points) => {
      asked += points.length;
      return points.map(formula);
    },
  };
}

/** A straight line of `n` points `stepDeg` apart in latitude and/or longitude from `from`. */
const line = (from: LatLon, n: number, dLat: number, dLon: number): LatLon[] =>
  Array.from({ length: n }, (_, i) => ({ lat: from.lat + i * dLat, lon: from.lon + i * dLon }));

const options = { osmSource: 'made up', countryOf: () => 'ZA' };

describe('discoverSegments on made-up roads', () => {
  it('finds a ramp as a climb from its foot, named from the pass at the top and the village at the foot', async () => {
    // 3 km due north rising 6 %, then flat.
    const road = line({ lat: -33.5, lon: 18.5 }, 61, 0.0009, 0);
    const top = road[33] as LatLon;
    const extract = extractOf(
      [{ id: 1, tags: { highway: 'secondary', ref: 'R44', surface: 'asphalt' }, points: road }],
      [
        {
          id: 1,
          lat: top.lat,
          lon: top.lon,
          tags: { mountain_pass: 'yes', name: 'Sir Lowry', wikidata: 'Q1' },
        },
        { id: 2, lat: -33.501, lon: 18.501, tags: { place: 'village', name: 'Voet' } },
      ],
    );
    const rise = (p: LatLon) => 100 + Math.min(Math.max(p.lat + 33.5, 0), 0.0297) * 111_195 * 0.06;
    const { segments } = await discoverSegments(extract, heights(rise), options);
    const climbs = segments.filter((s) => s.kind === 'climb');
    expect(climbs.map((s) => s.name)).toEqual(['Sir Lowry from Voet']);
    const [climb] = climbs;
    expect(climb?.distanceM).toBeGreaterThan(3000);
    expect(climb?.distanceM).toBeLessThan(3500);
    expect(climb?.averageGradePct).toBeGreaterThan(5);
    expect(climb?.rankedBy).toBe('named pass, Wikidata, climb size');
    expect(climb?.id).toBe('za-sir-lowry-from-voet');
    expect(climb?.license).toBe('ODbL-1.0');
    expect(climb?.provenance).toMatchObject({ osmWayIds: [1], osmTimestamp: '2026-11-01T00:00:00Z' });
  });

  it('runs its stages in the listed order and tells each one as it ends', async () => {
    const road = line({ lat: -33.5, lon: 18.5 }, 61, 0.0009, 0);
    const extract = extractOf([{ id: 1, tags: { highway: 'secondary', ref: 'R44' }, points: road }]);
    const told: { stage: string; ms: number }[] = [];
    const started = performance.now();
    await discoverSegments(
      extract,
      heights((p) => 100 + (p.lat + 33.5) * 111_195 * 0.06),
      { ...options, onStage: (stage, ms) => told.push({ stage, ms }) },
    );
    const wall = performance.now() - started;
    expect(told.map((t) => t.stage)).toEqual([...TIMED_STAGES]);
    for (const { ms } of told) expect(ms).toBeGreaterThanOrEqual(0);
    expect(told.reduce((sum, t) => sum + t.ms, 0)).toBeLessThanOrEqual(wall + 1);
  });

  it('gives a long flat named road a stretch each way, each a straight line of one direction', async () => {
    // 8 km east, then 6 km north: an L, flat.
    const east = line({ lat: -33.8, lon: 18.2 }, 81, 0, 0.00108);
    const north = line(east.at(-1) as LatLon, 61, 0.0009, 0).slice(1);
    const extract = extractOf([
      { id: 7, tags: { highway: 'tertiary', name: 'Kusweg' }, points: [...east, ...north] },
    ]);
    const { segments } = await discoverSegments(
      extract,
      heights(() => 20),
      options,
    );
    const names = segments.map((s) => s.name).sort();
    expect(names).toEqual([
      'Kusweg, eastbound',
      'Kusweg, northbound',
      'Kusweg, southbound',
      'Kusweg, westbound',
    ]);
    for (const s of segments) {
      expect(s.kind).toBe('stretch');
      expect(routeShape(s.polyline).shape).toBe('point_to_point');
      expect(Math.abs(s.averageGradePct)).toBeLessThan(3);
    }
  });

  it('ranks a stretch on a signed cycle route by its best network, and says so', async () => {
    const road = line({ lat: -33.7, lon: 18.4 }, 61, 0, 0.00108);
    const extract = extractOf([{ id: 21, tags: { highway: 'unclassified', name: 'Langpad' }, points: road }]);
    const member = (network: string) => ({
      id: network === 'lcn' ? 1 : 2,
      tags: { type: 'route', route: 'bicycle', network },
      members: [{ type: 'way' as const, ref: 21, role: '' }],
    });
    const onRoutes = { ...extract, relations: [member('lcn'), member('ncn')] };
    const { segments } = await discoverSegments(
      onRoutes,
      heights(() => 30),
      options,
    );
    const plain = await discoverSegments(
      extract,
      heights(() => 30),
      options,
    );
    expect(segments.length).toBe(2);
    for (const s of segments) expect(s.rankedBy).toBe('ncn cycle route');
    expect(Math.max(...segments.map((s) => s.popularityRank))).toBeLessThan(
      Math.min(...plain.segments.map((s) => s.popularityRank)),
    );
  });

  it('reads no heights along a tunnel and finds no climb through it', async () => {
    const road = line({ lat: -33.2, lon: 18.8 }, 41, 0.0009, 0);
    const extract = extractOf([
      { id: 9, tags: { highway: 'primary', ref: 'N1', tunnel: 'yes' }, points: road },
    ]);
    const source = heights((p) => 100 + (p.lat + 33.2) * 111_195 * 0.08);
    const { segments } = await discoverSegments(extract, source, options);
    expect(segments).toEqual([]);
    expect(source.asked()).toBe(0);
  });

  it('reads only a coarse profile of a flat road that is no stretch candidate', async () => {
    const road = line({ lat: -33.4, lon: 18.3 }, 41, 0.0009, 0);
    const extract = extractOf([
      { id: 11, tags: { highway: 'residential', name: 'Dorpstraat' }, points: road },
    ]);
    const source = heights(() => 5);
    expect((await discoverSegments(extract, source, options)).segments).toEqual([]);
    // About 4 km read every 500 m: under a dozen heights, not the 80 a 50 m reading would take.
    expect(source.asked()).toBeLessThan(12);
  });

  it('finds a hairpin climb whole, though its ends lie close: a climb is never a loop', async () => {
    // Eight 800 m legs up a slope, turning back at each hairpin: 6.4 km, ends 400 m apart.
    const points: LatLon[] = [];
    for (let leg = 0; leg < 8; leg++) {
      const west = leg % 2 === 0;
      const lat = -33.3 + leg * 0.0005;
      for (let k = 0; k <= 20; k++) points.push({ lat, lon: 18.9 + (west ? k : 20 - k) * 0.00043 });
    }
    const extract = extractOf([{ id: 31, tags: { highway: 'secondary', ref: 'R301' }, points }]);
    // The height rises along the road: 7 % over 6.4 km.
    const along = new Map(points.map((p, i) => [`${p.lat},${p.lon}`, i]));
    const rise = (p: LatLon) => {
      const i = along.get(`${p.lat},${p.lon}`);
      if (i !== undefined) return 300 + i * 40 * 0.07;
      const leg = Math.round((p.lat + 33.3) / 0.0005);
      const k = (p.lon - 18.9) / 0.00043;
      return 300 + (leg * 21 + (leg % 2 === 0 ? k : 20 - k)) * 40 * 0.07;
    };
    const { segments } = await discoverSegments(extract, heights(rise), options);
    const climbs = segments.filter((s) => s.kind === 'climb');
    expect(climbs).toHaveLength(1);
    expect(climbs[0]?.distanceM).toBeGreaterThan(6000);
    expect(routeShape(climbs[0]?.polyline ?? []).endsApartM).toBeLessThan(1000);
  });

  it('carries a climb through a short tunnel, heights drawn between the portals, and through a roundabout and a number change', async () => {
    // Due north: 2 km of R61, a 300 m tunnel under a ridge, 1 km more, a roundabout, 2 km of R62; 6 % all along.
    const north = (from: LatLon, n: number) => line(from, n, 0.0009, 0);
    const a = north({ lat: -33.9, lon: 18.1 }, 21);
    const tunnel = north(a.at(-1) as LatLon, 4);
    const b = north(tunnel.at(-1) as LatLon, 11);
    const ring = (centre: LatLon) =>
      [0, 1, 2, 3, 0].map((k) => ({
        lat: centre.lat + 0.00018 * Math.cos((k * Math.PI) / 2) * -1,
        lon: centre.lon + 0.00018 * Math.sin((k * Math.PI) / 2),
      }));
    const last = b.at(-1) as LatLon;
    const centre = { lat: last.lat + 0.00018, lon: last.lon };
    const round = ring(centre);
    const c = north({ lat: centre.lat + 0.00018, lon: centre.lon }, 23);
    const extract = extractOf([
      { id: 41, tags: { highway: 'primary', ref: 'R61' }, points: a },
      { id: 42, tags: { highway: 'primary', ref: 'R61', tunnel: 'yes' }, points: tunnel },
      { id: 43, tags: { highway: 'primary', ref: 'R61' }, points: [...b.slice(0, -1), round[0] as LatLon] },
      { id: 44, tags: { highway: 'primary', junction: 'roundabout' }, points: round },
      { id: 45, tags: { highway: 'primary', ref: 'R62' }, points: [round[2] as LatLon, ...c.slice(1)] },
    ]);
    // Ways share nodes by position in this fixture only when their points are the same objects: join them.
    const byPosition = new Map<string, number>();
    const ways = extract.ways.map((way) => ({
      ...way,
      nodes: way.nodes.map((id) => {
        const node = extract.nodes.get(id) as { lat: number; lon: number };
        const key = `${node.lat.toFixed(7)},${node.lon.toFixed(7)}`;
        if (!byPosition.has(key)) byPosition.set(key, id);
        return byPosition.get(key) as number;
      }),
    }));
    const ridge = (p: LatLon) => {
      const rampM = (p.lat + 33.9) * 111_195;
      const overTunnel = p.lat > (a.at(-1) as LatLon).lat && p.lat < (tunnel.at(-1) as LatLon).lat;
      return 200 + rampM * 0.06 + (overTunnel ? 150 : 0);
    };
    const { segments } = await discoverSegments({ ...extract, ways }, heights(ridge), options);
    const climbs = segments.filter((s) => s.kind === 'climb');
    expect(climbs).toHaveLength(1);
    const [climb] = climbs;
    // One climb from the foot to the top, over 5 km at 6 %, not the ridge above the tunnel.
    expect(climb?.distanceM).toBeGreaterThan(5000);
    expect(climb?.averageGradePct).toBeGreaterThan(5.5);
    expect(climb?.averageGradePct).toBeLessThan(6.5);
    expect(climb?.elevationGainM).toBeLessThan((climb?.distanceM ?? 0) * 0.07);
    expect(climb?.provenance.osmWayIds).toEqual([41, 42, 43, 45]);
  });

  it('finds the same top from two valleys as two climbs', async () => {
    // A pass road west to east: 4 km up at 6 %, then 3 km down at 8 %.
    const road = line({ lat: -33.1, lon: 18.2 }, 81, 0, 0.00108);
    const extract = extractOf([{ id: 51, tags: { highway: 'secondary', ref: 'R51' }, points: road }]);
    const pass = (p: LatLon) => {
      const m = (p.lon - 18.2) * 111_195 * Math.cos((33.1 * Math.PI) / 180);
      return m <= 4000 ? 500 + m * 0.06 : 740 - (m - 4000) * 0.08;
    };
    const { segments } = await discoverSegments(extract, heights(pass), options);
    const climbs = segments.filter((s) => s.kind === 'climb');
    expect(climbs).toHaveLength(2);
    const tops = climbs.map((s) => s.polyline.at(-1) as LatLon);
    expect(Math.abs((tops[0]?.lon ?? 0) - (tops[1]?.lon ?? 0))).toBeLessThan(0.003);
  });

  it('passes an elevation failure on, so nothing half-built is returned', async () => {
    const road = line({ lat: -33.6, lon: 18.6 }, 41, 0.0009, 0);
    const extract = extractOf([{ id: 12, tags: { highway: 'secondary', ref: 'R3' }, points: road }]);
    const failing: ElevationSource = { label: 'down', elevations: () => Promise.reject(new Error('down')) };
    await expect(discoverSegments(extract, failing, options)).rejects.toThrow('down');
  });
});
