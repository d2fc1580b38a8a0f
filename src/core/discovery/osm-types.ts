/**
 * The part of OpenStreetMap that segment discovery reads, in the shape both
 * Overpass's `[out:json]` answer and an `.osm.pbf` / `.osm` file reduce to:
 * nodes with coordinates, ways as node lists, relations as member lists, each
 * with its tags. Declared in core because the road and climb rules read it;
 * the readers that fill it live in `src/data/discovery`.
 */

/** OSM tags as key → value. */
export type OsmTags = Readonly<Record<string, string>>;

export interface OsmNode {
  readonly id: number;
  readonly lat: number;
  readonly lon: number;
  /** Only tagged nodes carry tags (passes, peaks, places); plain way nodes have none. */
  readonly tags?: OsmTags;
}

export interface OsmWay {
  readonly id: number;
  /** Node ids in the way's drawing order. */
  readonly nodes: readonly number[];
  readonly tags: OsmTags;
}

export interface OsmMember {
  readonly type: 'node' | 'way' | 'relation';
  readonly ref: number;
  readonly role: string;
}

export interface OsmRelation {
  readonly id: number;
  readonly members: readonly OsmMember[];
  readonly tags: OsmTags;
}

/** South, west, north and east edges in decimal degrees; west > east crosses the antimeridian. */
export interface BBox {
  readonly south: number;
  readonly west: number;
  readonly north: number;
  readonly east: number;
}

/**
 * What one area's read returns: the road ways (only those `isRideableRoad`
 * keeps: the reader applies the rule as it reads), every node they use, the
 * tagged nodes that name things (mountain passes, saddles, peaks, places) and
 * the signed bicycle route relations.
 */
export interface OsmExtract {
  readonly bbox: BBox;
  readonly nodes: ReadonlyMap<number, OsmNode>;
  readonly ways: readonly OsmWay[];
  readonly relations: readonly OsmRelation[];
  /** The data's timestamp (Overpass `osm3s.timestamp_osm_base`, a file's header or newest element), ISO 8601; null when unknown. */
  readonly timestamp: string | null;
}
