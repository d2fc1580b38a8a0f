import type { BBox } from '../../core/discovery/osm-types.ts';
import type { TownsIn } from '../geocoding/gazetteer-towns.ts';
import type { CountryOf } from '../geocoding/nearest-country.ts';
import { segmentToFeature } from '../segments/geojson.ts';
import type { Segment } from '../segments/types.ts';
import { discoverSegments } from './discover.ts';
import { withMargin } from './build-blocks.ts';
import type { AreaDiscoverer } from './live-catalog.ts';
import { adoptHandTraced } from './one-catalog.ts';
import type { ElevationSource, OsmSource } from './types.ts';

/**
 * How far past its own edges an area's roads are read on demand: a climb
 * that starts in the area and runs on across its edge comes out whole when
 * it ends within this of the edge. The file build reads 30 km
 * (`BLOCK_MARGIN_M`); a query to a public Overpass instance is kept to about
 * three and a half times the area's own size.
 */
export const AREA_MARGIN_M = 10_000;

/**
 * One area's discovery as the live catalog runs it: the roads from the OSM
 * source, read {@link AREA_MARGIN_M} past the area's edges, the climbs and
 * stretches found on them, the hand-traced climbs among them adopted, each as
 * the GeoJSON feature the store keeps. Segments are kept only where they
 * start inside the area, so neighbouring areas never both claim a road that
 * crosses their border. Where starts are named, the offline place list's
 * towns stand beside the map's own points (`townsIn`).
 */
export function areaDiscoverer(deps: {
  osm: OsmSource;
  elevation: ElevationSource;
  countryOf: () => Promise<CountryOf>;
  townsIn?: () => Promise<TownsIn>;
  handTraced: () => readonly Segment[];
}): AreaDiscoverer {
  return async (bbox: BBox, signal: AbortSignal) => {
    const read = withMargin(bbox, AREA_MARGIN_M);
    const [extract, countryOf, townsIn] = await Promise.all([
      deps.osm.extract(read, signal),
      deps.countryOf(),
      deps.townsIn?.(),
    ]);
    const { segments } = await discoverSegments(extract, deps.elevation, {
      osmSource: deps.osm.label,
      countryOf,
      ...(townsIn ? { places: townsIn(read) } : {}),
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
