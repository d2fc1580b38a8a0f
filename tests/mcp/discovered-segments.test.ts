/**
 * Offline, as `npm start` runs by default: the segments discovered from the shipped Andorra extract are
 * real climbs on the real road. Each answer is checked against the data it came from: every point of a
 * climb lies on a road of the OSM extract, and its gain and grade agree with the SRTM tile under it.
 */
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LatLon } from '../../src/core/bearing.ts';
import { greatCircleM } from '../../src/core/distance.ts';
import { isRideableRoad } from '../../src/core/discovery/rideable-way.ts';
import { hgtElevationSource } from '../../src/data/discovery/hgt-elevation.ts';
import { readOsmFile } from '../../src/data/discovery/osm-file.ts';
import { FindTailwindSegmentsOutputSchema } from '../../src/mcp/schemas/find.ts';
import { GetSegmentOutputSchema } from '../../src/mcp/schemas/segment.ts';
import { connectClient, inProcessFetch } from '../support/mcp-client.ts';
import { TEST_MCP_URL, testEndpoint } from '../support/mcp-deps.ts';

/** Metres from a point to the segment a–b, on a local plane (legs are short). */
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

describe('segments discovered from the shipped Andorra extract', () => {
  let client: Client;
  let legs: [LatLon, LatLon][];

  beforeAll(async () => {
    client = await connectClient(TEST_MCP_URL, '2025', inProcessFetch(testEndpoint()));
    const extract = await readOsmFile('seed/osm/andorra.osm.pbf');
    legs = extract.ways
      .filter((way) => isRideableRoad(way.tags))
      .flatMap((way) =>
        way.nodes.slice(1).flatMap((id, i): [LatLon, LatLon][] => {
          const a = extract.nodes.get(way.nodes[i] ?? -1);
          const b = extract.nodes.get(id);
          return a && b ? [[a, b]] : [];
        }),
      );
  });
  afterAll(() => client.close());

  it('answers at least five real climbs near Andorra la Vella, passes from both sides among them', async () => {
    const result = await client.callTool({
      name: 'find_tailwind_segments',
      arguments: { place: 'Andorra la Vella', limit: 10 },
    });
    const data = FindTailwindSegmentsOutputSchema.parse(result.structuredContent);
    expect(data.segments.length).toBeGreaterThanOrEqual(5);
    expect(data.attribution.join('\n')).toMatch(/© OpenStreetMap contributors, ODbL/);
    expect(data.mapping).toBeUndefined();
    const names = data.segments.map((s) => s.name);
    // A pass is climbed from two sides: two climbs to one named top.
    const tops = names.map((name) => name.split(' from ')[0]);
    expect(tops.some((top, i) => tops.indexOf(top) !== i)).toBe(true);
    const ranks = data.segments.map((s) => s.popularity_rank);
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
  });

  it('puts every point of each climb on a road of the extract, with gain and grade from the tile', async () => {
    const found = FindTailwindSegmentsOutputSchema.parse(
      (
        await client.callTool({
          name: 'find_tailwind_segments',
          arguments: { place: 'Andorra la Vella', limit: 10 },
        })
      ).structuredContent,
    );
    const tile = hgtElevationSource('seed/dem');
    for (const listed of found.segments) {
      const answer = await client.callTool({ name: 'get_segment', arguments: { segment_id: listed.id } });
      const { segment } = GetSegmentOutputSchema.parse(answer.structuredContent);
      expect(segment.license).toBe('ODbL-1.0');
      expect(segment.source).toMatch(/OpenStreetMap/);
      const points = segment.polyline.map(([lat = 0, lon = 0]) => ({ lat, lon }));
      // The legs near the climb (about a kilometre around it) are enough to measure from.
      const lats = points.map((p) => p.lat);
      const lons = points.map((p) => p.lon);
      const [s, n, w, e] = [
        Math.min(...lats) - 0.01,
        Math.max(...lats) + 0.01,
        Math.min(...lons) - 0.01,
        Math.max(...lons) + 0.01,
      ];
      const near = legs.filter(([a, b]) =>
        [a, b].some((p) => p.lat >= s && p.lat <= n && p.lon >= w && p.lon <= e),
      );
      for (const point of points) {
        const offM = Math.min(...near.map(([a, b]) => toLegM(point, a, b)));
        expect(offM, `${segment.id} at ${point.lat},${point.lon}`).toBeLessThan(3);
      }
      const [foot = 0, top = 0] = await tile.elevations([points[0] as LatLon, points.at(-1) as LatLon]);
      const riseM = top - foot;
      // The answer's figures are measured on the smoothed profile, the tile's at two posts: within 30 m.
      expect(Math.abs(riseM - (segment.average_grade_pct / 100) * segment.distance_m)).toBeLessThan(30);
      expect(segment.elevation_gain_m).toBeGreaterThanOrEqual(riseM - 30);
      expect(segment.average_grade_pct).toBeGreaterThanOrEqual(3);
    }
  });
});
