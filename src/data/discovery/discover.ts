/**
 * Segment discovery for one area, as the stages a rider would recognise,
 * each in its own file and listed here in order:
 *
 * 1. select: the ways a road bike rides (`rideable-way.ts`), applied once,
 *    by the reader that fills the extract (Overpass or an OSM file) as it
 *    reads, so a country's paths and driveways are never held in memory;
 * 2. road graph: ways cut at junctions, roundabouts and detailed junctions
 *    contracted, short tunnels kept (`road-graph.ts`), and the roads a rider
 *    follows through it (`road-strokes.ts`);
 * 3. heights: the elevation source read along the roads that can hold a
 *    climb or a stretch (`road-heights.ts`);
 * 4. climbs and stretches: the climb rule along each road, climbs carried on
 *    where the road goes on rising (`climb-paths.ts`) and started where the
 *    road leaves the valley (`climb-steepening.ts`), flat and rolling
 *    stretches along cycle routes and main roads (`stretch-paths.ts`);
 * 5. names and rank: named from the map, noise and near-copies dropped
 *    (`segment-naming.ts`, `segment-choice.ts`, `segment-rank.ts`);
 * 6. ids and provenance: here, at the end.
 *
 * Storing the result (on demand per area, or as GeoJSON from files) is the
 * caller's. Pure but for the elevation source it is handed; a failure of
 * that source throws before anything is returned, so a caller never stores
 * half an area.
 */
import type { LatLon } from '../../core/bearing.ts';
import { climbsOnGraph, type PathClimb } from '../../core/discovery/climb-paths.ts';
import { fromWhereItSteepens } from '../../core/discovery/climb-steepening.ts';
import { foundOn, type FoundSegment } from '../../core/discovery/found-segment.ts';
import type { OsmExtract } from '../../core/discovery/osm-types.ts';
import { buildRoadGraph } from '../../core/discovery/road-graph.ts';
import { buildStrokes } from '../../core/discovery/road-strokes.ts';
import { PlaceIndex, placesOf, withOtherPlaces, type NamedPlace } from '../../core/discovery/segment-name.ts';
import { nameAndChoose, type NamedSegment } from '../../core/discovery/segment-naming.ts';
import { rankReasons, rankScore } from '../../core/discovery/segment-rank.ts';
import {
  cycleRoutePaths,
  CYCLE_NETWORKS,
  mainRoadPaths,
  stretchesAlong,
} from '../../core/discovery/stretch-paths.ts';
import { roundHalfAway } from '../../core/round.ts';
import { simplifyRoute } from '../../core/route/route-simplify.ts';
import type { Segment, SegmentProvenance } from '../segments/types.ts';
import { slugify } from '../segments/slug.ts';
import { roadHeights } from './road-heights.ts';
import type { ElevationSource } from './types.ts';

/** A stored line keeps the road's points that matter to within this, metres. */
export const POLYLINE_TOLERANCE_M = 3;
/** Ranks under this are the hand-traced catalog's editorial ones; discovered ranks follow (see rankOf). */
export const DISCOVERED_RANK_BASE = 1_000;

/** A segment as discovery makes it: every optional field of a catalog entry is known. */
export interface DiscoveredSegment extends Segment {
  readonly kind: 'climb' | 'stretch';
  readonly maxGradePct: number;
  readonly provenance: SegmentProvenance;
  readonly rankedBy: string;
}

export interface DiscoverOptions {
  readonly osmSource: string;
  /** ISO country code of a point (the segment's start). */
  readonly countryOf: (point: LatLon) => string;
  /**
   * Settlements known besides the extract's own place points (the gazetteer's
   * towns, say), for naming where a segment starts when the map has no point
   * for the town it starts in.
   */
  readonly places?: readonly NamedPlace[];
  readonly signal?: AbortSignal;
}

export interface DiscoveryCounts {
  /** Roads followed (strokes of the road graph, each direction its own). */
  readonly chains: number;
  /** Roads read finely (with relief enough to hold a climb, or a stretch candidate). */
  readonly sampledChains: number;
  /** Heights asked of the elevation source. */
  readonly heights: number;
  /** Segments kept, by kind. */
  readonly climbs: number;
  readonly stretches: number;
}

/** 1,000 + 100 × (20 − score): a stable global order across areas, without renumbering the catalog. */
export function rankOf(score: number): number {
  return DISCOVERED_RANK_BASE + Math.max(0, Math.round((20 - score) * 100));
}

/** The best signed cycle network each way lies on (`icn` > `ncn` > `rcn` > `lcn`). */
function networkByWay(extract: OsmExtract): Map<number, string> {
  const best = new Map<number, string>();
  for (const relation of extract.relations) {
    const network = relation.tags['network'] ?? '';
    if (relation.tags['route'] !== 'bicycle' || !CYCLE_NETWORKS.includes(network)) continue;
    for (const member of relation.members) {
      if (member.type !== 'way') continue;
      const held = best.get(member.ref);
      if (held === undefined || CYCLE_NETWORKS.indexOf(network) < CYCLE_NETWORKS.indexOf(held)) {
        best.set(member.ref, network);
      }
    }
  }
  return best;
}

/** The climb as a found segment: its own part of the path it was found on. */
function climbSegment(climb: PathClimb): FoundSegment {
  const { startIndex, endIndex, ...figures } = climb.span;
  return foundOn(climb.profile, startIndex, endIndex, 'climb', figures);
}

/**
 * Discovers the climbs and stretches of one extract. Returns them with a
 * global rank (`rankOf`), ids unique within the result, and the counts of
 * what was read and kept.
 */
export async function discoverSegments(
  extract: OsmExtract,
  elevation: ElevationSource,
  options: DiscoverOptions,
): Promise<{ segments: DiscoveredSegment[]; counts: DiscoveryCounts }> {
  // 1. select: done by the reader that made the extract (the ways are the rideable ones)
  // 2. road graph
  const graph = buildRoadGraph(extract);
  const strokes = buildStrokes(graph);
  const routes = cycleRoutePaths(graph, extract.relations);
  const mainRoads = mainRoadPaths(graph, strokes);
  // 3. heights
  const { sampled, sampledStrokes, heights } = await roadHeights(
    graph,
    strokes,
    [...routes, ...mainRoads],
    elevation,
    options.signal,
  );
  // 4. climbs and stretches
  const places = new PlaceIndex(withOtherPlaces(placesOf(extract.nodes.values()), options.places ?? []));
  const climbs = climbsOnGraph(graph, strokes, sampled).map((climb) => fromWhereItSteepens(climb, places));
  const stretches = stretchesAlong(graph, [...routes, ...mainRoads], sampled);
  // 5. names and rank
  const wikiWays = new Set(
    extract.ways
      .filter((way) => way.tags['wikidata'] !== undefined || way.tags['wikipedia'] !== undefined)
      .map((way) => way.id),
  );
  const named = nameAndChoose([...climbs.map(climbSegment), ...stretches], {
    graph,
    places,
    networks: networkByWay(extract),
    wikiWays,
  });
  // 6. ids and provenance
  const segments = withUniqueIds(named.map((segment) => recordOf(segment, extract, elevation, options)));
  return {
    segments,
    counts: {
      chains: strokes.length,
      sampledChains: sampledStrokes,
      heights,
      climbs: segments.filter((s) => s.kind === 'climb').length,
      stretches: segments.filter((s) => s.kind === 'stretch').length,
    },
  };
}

const round1 = (value: number) => roundHalfAway(value, 1);

/**
 * The one sentence a rider reads about where a discovered segment comes
 * from; the way ids, the rule and the files are in `provenance` and
 * `rankedBy`, for whoever wants them.
 */
function sourceText(provenance: SegmentProvenance): string {
  const year = provenance.osmTimestamp ? ` of ${provenance.osmTimestamp.slice(0, 4)}` : '';
  return (
    `Found by wind-on-segment in OpenStreetMap data${year} (© OpenStreetMap contributors, ODbL 1.0) ` +
    `with heights from ${provenance.elevationSource}.`
  );
}

function recordOf(
  segment: NamedSegment,
  extract: OsmExtract,
  elevation: ElevationSource,
  options: DiscoverOptions,
): DiscoveredSegment {
  const { found } = segment;
  const start = found.samples[0] as LatLon;
  const provenance: SegmentProvenance = {
    osmWayIds: segment.wayIds,
    osmTimestamp: extract.timestamp,
    osmSource: options.osmSource,
    elevationSource: elevation.label,
  };
  const countryCode = options.countryOf(start);
  return {
    id: slugify(countryCode, segment.name),
    kind: found.kind,
    name: segment.name,
    aliases: segment.aliases.filter((alias) => alias !== segment.name),
    countryCode,
    // Points within 3 m of the line through their neighbours go: what is kept is still points of the road.
    polyline: simplifyRoute(found.samples, POLYLINE_TOLERANCE_M).map(({ lat, lon }) => ({
      lat: roundHalfAway(lat, 6),
      lon: roundHalfAway(lon, 6),
    })),
    distanceM: Math.round(found.figures.lengthM),
    averageGradePct: round1(found.figures.averageGradePct),
    elevationGainM: Math.round(found.figures.gainM),
    maxGradePct: round1(found.figures.maxGradePct),
    popularityRank: rankOf(rankScore(segment.basis)),
    source: sourceText(provenance),
    license: 'ODbL-1.0',
    provenance,
    rankedBy: rankReasons(segment.basis),
  };
}

/** Ids are slugs of country and name; a second segment of the same slug gets its first way's id added. */
function withUniqueIds(found: readonly DiscoveredSegment[]): DiscoveredSegment[] {
  const ordered = [...found].sort(
    (a, b) => a.popularityRank - b.popularityRank || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
  );
  const seen = new Set<string>();
  return ordered.map((segment) => {
    let id = segment.id;
    if (seen.has(id)) id = `${id}-w${segment.provenance.osmWayIds[0] ?? 0}`;
    for (let n = 2; seen.has(id); n++) id = `${segment.id}-${n}`;
    seen.add(id);
    return id === segment.id ? segment : { ...segment, id };
  });
}
