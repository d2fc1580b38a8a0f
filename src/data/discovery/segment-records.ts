/**
 * Stage 6 of discovery, ids and provenance: a named segment becomes a
 * catalog record, its line thinned to the points that matter, its figures
 * rounded as the catalog gives them, its rank placed after the hand-traced
 * ones, and the sentence and fields that say how it was made. Ids are
 * unique within one area here; across areas and refreshes `stable-ids.ts`
 * keeps them.
 */
import type { LatLon } from '../../core/bearing.ts';
import type { NamedSegment } from '../../core/discovery/segment-naming.ts';
import { rankReasons, rankScore } from '../../core/discovery/segment-rank.ts';
import type { OsmExtract } from '../../core/discovery/osm-types.ts';
import { roundHalfAway } from '../../core/round.ts';
import { simplifyRoute } from '../../core/route/route-simplify.ts';
import type { Segment, SegmentProvenance } from '../segments/types.ts';
import { slugify } from '../segments/slug.ts';
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

/** 1,000 + 100 × (20 − score): a stable global order across areas, without renumbering the catalog. */
export function rankOf(score: number): number {
  return DISCOVERED_RANK_BASE + Math.max(0, Math.round((20 - score) * 100));
}

/** What a record says of where it came from besides its own line. */
export interface RecordSource {
  readonly osmSource: string;
  /** ISO country code of a point (the segment's start). */
  readonly countryOf: (point: LatLon) => string;
}

/** The area's named segments as catalog records with ids unique among them. */
export function recordsOf(
  named: readonly NamedSegment[],
  extract: OsmExtract,
  elevation: ElevationSource,
  source: RecordSource,
): DiscoveredSegment[] {
  return withUniqueIds(named.map((segment) => recordOf(segment, extract, elevation, source)));
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
  options: RecordSource,
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
