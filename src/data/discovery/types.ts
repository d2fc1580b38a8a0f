import type { LatLon } from '../../core/bearing.ts';
import type { BBox, OsmExtract } from '../../core/discovery/osm-types.ts';

/** Where road data comes from: an Overpass instance online, an `.osm.pbf` / `.osm[.gz]` file offline. */
export interface OsmSource {
  /** Plain words for provenance, e.g. "Overpass API (https://overpass-api.de/api/interpreter)". */
  readonly label: string;
  /** The rideable roads, their nodes, named points and bicycle routes inside `bbox`; throws `DiscoveryError`. */
  extract(bbox: BBox, signal?: AbortSignal): Promise<OsmExtract>;
}

/** Where heights come from: Open-Meteo's Elevation API online, SRTM `.hgt` tiles offline. */
export interface ElevationSource {
  /** Plain words for provenance, e.g. "Copernicus DEM GLO-90 via Open-Meteo". */
  readonly label: string;
  /** Heights in metres above sea level, one per point in the same order; batches requests itself; throws `DiscoveryError`. */
  elevations(points: readonly LatLon[], signal?: AbortSignal): Promise<number[]>;
}
