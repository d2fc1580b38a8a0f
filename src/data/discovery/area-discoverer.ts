import type { BBox } from '../../core/discovery/osm-types.ts';
import type { CountryOf } from '../geocoding/nearest-country.ts';
import { segmentToFeature } from '../segments/geojson.ts';
import type { Segment } from '../segments/types.ts';
import { discoverSegments } from './discover.ts';
import type { AreaDiscoverer } from './live-catalog.ts';
import { adoptHandTraced } from './one-catalog.ts';
import type { ElevationSource, OsmSource } from './types.ts';

/**
 * One area's discovery as the live catalog runs it: the roads from the OSM
 * source, the climbs and stretches found on them, the hand-traced climbs
 * among them adopted, each as the GeoJSON feature the store keeps. Segments
 * are kept only where they start inside the area, so neighbouring areas never
 * both claim a road that crosses their border.
 */
export function areaDiscoverer(deps: {
  osm: OsmSource;
  elevation: ElevationSource;
  countryOf: () => Promise<CountryOf>;
  handTraced: () => readonly Segment[];
}): AreaDiscoverer {
  return async (bbox: BBox, signal: AbortSignal) => {
    const [extract, countryOf] = await Promise.all([deps.osm.extract(bbox, signal), deps.countryOf()]);
    const { segments } = await discoverSegments(extract, deps.elevation, {
      osmSource: deps.osm.label,
      countryOf,
      signal,
    });
    const inside = segments.filter(({ polyline: [start] }) => start !== undefined && startsIn(start, bbox));
    const { segments: adopted } = adoptHandTraced(deps.handTraced(), inside);
    return {
      osmTimestamp: extract.timestamp,
      features: adopted.map((segment) => ({
        id: segment.id,
        feature: JSON.stringify(segmentToFeature(segment)),
      })),
    };
  };
}

function startsIn(point: { lat: number; lon: number }, bbox: BBox): boolean {
  const inLon =
    bbox.west <= bbox.east
      ? point.lon >= bbox.west && point.lon < bbox.east
      : point.lon >= bbox.west || point.lon < bbox.east;
  return point.lat >= bbox.south && point.lat < bbox.north && inLon;
}
