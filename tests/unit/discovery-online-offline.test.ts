/**
 * The same rules online and offline: the Andorra extract read through Overpass (its wire format, from a
 * double serving the shipped file) and heights read through Open-Meteo's elevation API (a double
 * serving the shipped SRTM tile) give the same climbs and stretches as the file reader and the tile
 * read directly, but for a segment tipped by rounding. Only the readers differ; every stage after them is
 * shared.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LatLon } from '../../src/core/bearing.ts';
import { greatCircleM } from '../../src/core/distance.ts';
import type { OsmExtract } from '../../src/core/discovery/osm-types.ts';
import { discoverSegments } from '../../src/data/discovery/discover.ts';
import type { DiscoveredSegment } from '../../src/data/discovery/segment-records.ts';
import { hgtElevationSource } from '../../src/data/discovery/hgt-elevation.ts';
import { openMeteoElevationSource } from '../../src/data/discovery/open-meteo-elevation.ts';
import { readOsmFile } from '../../src/data/discovery/osm-file.ts';
import { overpassSource } from '../../src/data/discovery/overpass.ts';
import { startElevationDouble, type ElevationDouble } from '../support/elevation-double.ts';
import { startOverpassDouble, type OverpassDouble } from '../support/overpass-double.ts';

const options = { osmSource: 'Andorra', countryOf: () => 'AD' };

describe('discovery online and offline', () => {
  let file: OsmExtract;
  let overpass: OverpassDouble;
  let elevation: ElevationDouble;

  beforeAll(async () => {
    file = await readOsmFile('seed/osm/andorra.osm.pbf');
    [overpass, elevation] = await Promise.all([startOverpassDouble(file), startElevationDouble('seed/dem')]);
  });
  afterAll(() => Promise.all([overpass.close(), elevation.close()]));

  it('finds the same Andorra climbs and stretches through Overpass and the elevation API as from the files', async () => {
    const offline = await discoverSegments(file, hgtElevationSource('seed/dem'), options);
    const online = await discoverSegments(
      await overpassSource({ url: overpass.url }).extract(file.bbox),
      openMeteoElevationSource({ url: elevation.url }),
      options,
    );
    expect(overpass.requests()).toBeGreaterThan(0);
    expect(elevation.requests()).toBeGreaterThan(0);
    const climbs = (list: readonly DiscoveredSegment[]) => list.filter((s) => s.kind === 'climb');
    expect(climbs(offline.segments).length).toBeGreaterThanOrEqual(20);
    expect(Math.abs(online.segments.length - offline.segments.length)).toBeLessThanOrEqual(1);
    let sameName = 0;
    let same = 0;
    for (const ours of offline.segments) {
      // The same segment: same kind, start and end within a sample or two of each other.
      const theirs = online.segments.find(
        (s) =>
          s.kind === ours.kind &&
          greatCircleM(s.polyline[0] as LatLon, ours.polyline[0] as LatLon) < 150 &&
          greatCircleM(s.polyline.at(-1) as LatLon, ours.polyline.at(-1) as LatLon) < 150,
      );
      if (!theirs) continue;
      same += 1;
      if (theirs.name === ours.name) sameName += 1;
      // The API answers heights to a tenth of a metre, the tile in whole metres: figures agree closely.
      expect(Math.abs(theirs.distanceM - ours.distanceM), ours.name).toBeLessThanOrEqual(
        0.02 * ours.distanceM + 50,
      );
      expect(Math.abs(theirs.elevationGainM - ours.elevationGainM), ours.name).toBeLessThanOrEqual(
        0.03 * ours.elevationGainM + 5,
      );
    }
    // Heights to a tenth of a metre against whole metres can tip a borderline junction (whether a
    // climb goes on down another road) one way or the other; every other segment is the same, and so
    // is its name.
    expect(same).toBeGreaterThanOrEqual(offline.segments.length - 2);
    expect(sameName).toBeGreaterThanOrEqual(same - 1);
  });
});
