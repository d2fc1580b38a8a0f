/**
 * Flat and rolling stretches on real data with signed cycle routes: the area north of Bayreuth
 * (tests/fixtures/discovery/bayreuth), where the Main valley carries international, national, regional
 * and local routes. A stretch is where a wind decides a ride: one overall direction, 2 to 15 km, under
 * 3 % either way, each direction its own segment, named from the route it follows.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { initialBearing, type LatLon } from '../../src/core/bearing.ts';
import { greatCircleM } from '../../src/core/distance.ts';
import { densify } from '../../src/core/discovery/road-samples.ts';
import { STRETCH_MAX_M, STRETCH_MIN_M } from '../../src/core/discovery/stretch-paths.ts';
import { MAX_DEVIATION_DEG, MIN_STRAIGHTNESS } from '../../src/core/discovery/stretches.ts';
import { discoverSegments } from '../../src/data/discovery/discover.ts';
import type { DiscoveredSegment } from '../../src/data/discovery/segment-records.ts';
import { hgtElevationSource } from '../../src/data/discovery/hgt-elevation.ts';
import { readOsmFile } from '../../src/data/discovery/osm-file.ts';

const FIXTURE = 'tests/fixtures/discovery/bayreuth';

const turn = (a: number, b: number) => {
  const d = Math.abs(a - b) % 360;
  return d > 180 ? 360 - d : d;
};

describe('stretches north of Bayreuth', () => {
  let stretches: DiscoveredSegment[];
  let routeNames: Set<string>;

  beforeAll(async () => {
    const extract = await readOsmFile(`${FIXTURE}/north-bayreuth-roads.osm.gz`);
    routeNames = new Set(
      extract.relations.filter((r) => r.tags['route'] === 'bicycle').flatMap((r) => r.tags['name'] ?? []),
    );
    const { segments } = await discoverSegments(extract, hgtElevationSource(FIXTURE), {
      osmSource: 'north-bayreuth-roads.osm.gz',
      countryOf: () => 'DE',
    });
    stretches = segments.filter((s) => s.kind === 'stretch');
  });

  it('finds stretches along the signed cycle routes, each named from its route, each direction its own', () => {
    const onRoutes = stretches.filter((s) => routeNames.has(s.name.split(', ')[0] ?? ''));
    expect(onRoutes.length).toBeGreaterThanOrEqual(4);
    // The Main valley path carries EuroVelo 4, the Burgen-Radweg and others: named by one, the rest as aliases.
    expect(onRoutes.some((s) => s.rankedBy === 'icn cycle route')).toBe(true);
    expect(onRoutes.flatMap((s) => s.aliases)).toEqual(expect.arrayContaining(['Main-Radweg']));
    // Both directions of a route's stretch: another stretch the opposite way along the same road.
    const near = (a: DiscoveredSegment, b: DiscoveredSegment) => {
      const line = densify(b.polyline, 25);
      const points = densify(a.polyline, 100);
      const on = points.filter((p) => line.some((q) => greatCircleM(p, q) <= 30)).length;
      return on >= 0.7 * points.length;
    };
    const bearing = (s: DiscoveredSegment) =>
      initialBearing(s.polyline[0] as LatLon, s.polyline.at(-1) as LatLon);
    const pairs = onRoutes.filter((a) =>
      onRoutes.some((b) => b !== a && turn(bearing(a), bearing(b)) >= 135 && near(a, b)),
    );
    expect(pairs.length).toBeGreaterThanOrEqual(4);
    const names = stretches.map((s) => s.name);
    expect(new Set(names).size).toBe(names.length);
  });

  it('finds stretches along the main roads too, ranked after those on routes', () => {
    const mainRoads = stretches.filter((s) => s.rankedBy === 'road class');
    expect(mainRoads.length).toBeGreaterThanOrEqual(2);
    const onRoutes = stretches.filter((s) => s.rankedBy.endsWith('cycle route'));
    expect(Math.max(...onRoutes.map((s) => s.popularityRank))).toBeLessThan(
      Math.min(...mainRoads.map((s) => s.popularityRank)),
    );
  });

  it('gives each stretch one overall direction, 2 to 15 km and under 3 % either way', () => {
    expect(stretches.length).toBeGreaterThanOrEqual(8);
    for (const s of stretches) {
      expect(s.distanceM, s.name).toBeGreaterThanOrEqual(STRETCH_MIN_M * 0.98);
      expect(s.distanceM, s.name).toBeLessThanOrEqual(STRETCH_MAX_M);
      expect(Math.abs(s.averageGradePct), s.name).toBeLessThan(3);
      const start = s.polyline[0] as LatLon;
      const end = s.polyline.at(-1) as LatLon;
      // Straight enough either way round: the ends far apart, no point far off the line between them.
      expect(greatCircleM(start, end), s.name).toBeGreaterThanOrEqual(MIN_STRAIGHTNESS * s.distanceM * 0.97);
      const overall = initialBearing(start, end);
      for (const point of densify(s.polyline, 100)) {
        const fromStart = greatCircleM(start, point);
        const offM = fromStart * Math.sin((turn(initialBearing(start, point), overall) * Math.PI) / 180);
        expect(offM, s.name).toBeLessThanOrEqual(Math.tan((MAX_DEVIATION_DEG * Math.PI) / 180) * s.distanceM);
      }
    }
  });
});
