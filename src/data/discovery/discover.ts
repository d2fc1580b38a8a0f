/**
 * Segment discovery for one area: OpenStreetMap roads joined into chains,
 * heights sampled along them, the climb rule and the stretch rule applied,
 * and each result named, ranked and given its provenance. Pure but for the
 * elevation source it is handed; the OSM extract is read by the caller. A
 * failure of the elevation source throws before anything is returned, so a
 * caller never stores half an area.
 */
import type { LatLon } from '../../core/bearing.ts';
import { initialBearing } from '../../core/bearing.ts';
import {
  findClimbs,
  reverseProfile,
  smoothProfile,
  CLIMB_RULE,
  MAX_GRADE_RUN_M,
  type ClimbSpan,
  type Profile,
} from '../../core/discovery/climb-rule.ts';
import type { OsmExtract, OsmNode, OsmWay } from '../../core/discovery/osm-types.ts';
import { chainRoads, type RoadChain } from '../../core/discovery/road-chains.ts';
import { densify, thin, type RoadSample } from '../../core/discovery/road-samples.ts';
import { NETWORK_POINTS, rankReasons, rankScore, type RankBasis } from '../../core/discovery/segment-rank.ts';
import {
  climbName,
  footPlace,
  roadLabel,
  stretchName,
  topFeature,
} from '../../core/discovery/segment-name.ts';
import { splitByDirection } from '../../core/discovery/stretches.ts';
import { roundHalfAway } from '../../core/round.ts';
import { routeShape } from '../../core/route/route-shape.ts';
import { simplifyRoute } from '../../core/route/route-simplify.ts';
import type { ElevationSource } from './types.ts';
import type { Segment, SegmentProvenance } from '../segments/types.ts';
import { headingWord, sideWord } from './discovery-words.ts';
import { slugify } from '../segments/slug.ts';

/** Heights every 50 m: about two posts of the 90 m elevation models per sample, enough for a 100 m grade. */
export const SAMPLE_STEP_M = 50;
/** The first, coarse look at a road: one height every 500 m. */
export const COARSE_SPACING_M = 500;
/** A road whose coarse heights vary by less than this cannot hold a 50 m climb; it is not sampled finely. */
export const COARSE_RELIEF_M = 35;
/** A flat or rolling stretch is at least this long, and shorter than the longest a rider judges as one. */
export const STRETCH_MIN_M = 3_000;
export const STRETCH_MAX_M = 15_000;
/** Steeper than this on average, a stretch is a climb (or a descent), not a flat or rolling road. */
export const STRETCH_MAX_GRADE_PCT = 3;
/** Road classes whose long named roads give stretches even off a signed cycle route. */
const STRETCH_CLASSES = new Set(['primary', 'secondary', 'tertiary', 'unclassified']);
/** A stored line keeps the road's points that matter to within this, metres. */
export const POLYLINE_TOLERANCE_M = 3;
/** Ranks under this are the hand-traced catalog's editorial ones; discovered ranks follow (see rankOf). */
export const DISCOVERED_RANK_BASE = 1_000;

type Provenance = SegmentProvenance;

/** A segment as discovery makes it: every optional field of a catalog entry is known. */
export interface DiscoveredSegment extends Segment {
  readonly kind: 'climb' | 'stretch';
  readonly maxGradePct: number;
  readonly provenance: Provenance;
  readonly rankedBy: string;
}

export interface DiscoverOptions {
  readonly osmSource: string;
  /** ISO country code of a point (the segment's start). */
  readonly countryOf: (point: LatLon) => string;
  readonly signal?: AbortSignal;
}

export interface DiscoveryCounts {
  readonly chains: number;
  readonly sampledChains: number;
  readonly heights: number;
}

interface ChainProfile {
  readonly chain: RoadChain;
  readonly samples: readonly RoadSample[];
  readonly heights: readonly number[];
}

/**
 * The extract without its tunnels: an elevation model gives the hill above a
 * tunnel, not the road in it, so a road through one would show a climb that
 * no rider rides (Monaco's tunnel to the N7 read 157 m of "climbing"). A
 * chain ends at a tunnel instead.
 */
function withoutTunnels(extract: OsmExtract): OsmExtract {
  const open = extract.ways.filter((way) => (way.tags['tunnel'] ?? 'no') === 'no');
  return open.length === extract.ways.length ? extract : { ...extract, ways: open };
}

/** 1,000 + 100 × (20 − score): a stable global order across areas, without renumbering the catalog. */
export function rankOf(score: number): number {
  return DISCOVERED_RANK_BASE + Math.max(0, Math.round((20 - score) * 100));
}

/** Heights for many roads at once: one call to the source, which batches its own requests. */
async function heightsFor(
  groups: readonly (readonly RoadSample[])[],
  elevation: ElevationSource,
  signal: AbortSignal | undefined,
): Promise<number[][]> {
  const all = await elevation.elevations(groups.flat(), signal);
  const out: number[][] = [];
  let at = 0;
  for (const group of groups) {
    out.push(all.slice(at, at + group.length));
    at += group.length;
  }
  return out;
}

function relief(heights: readonly number[]): number {
  return heights.length === 0 ? 0 : Math.max(...heights) - Math.min(...heights);
}

function isStretchRoad(
  chain: RoadChain,
  ways: ReadonlyMap<number, OsmWay>,
  networks: ReadonlyMap<number, string>,
) {
  if (chain.wayIds.some((id) => networks.has(id))) return true;
  const highway = ways.get(chain.wayIds[0] ?? -1)?.tags['highway'] ?? '';
  return (chain.name !== null || chain.ref !== null) && STRETCH_CLASSES.has(highway.replace(/_link$/, ''));
}

/** Signed cycle route networks, best first (the order `NETWORK_POINTS` scores them in). */
const NETWORK_ORDER = Object.keys(NETWORK_POINTS);

/** The best signed cycle network each way lies on (`icn` > `ncn` > `rcn` > `lcn`). */
function networkByWay(extract: OsmExtract): Map<number, string> {
  const best = new Map<number, string>();
  for (const relation of extract.relations) {
    const network = relation.tags['network'] ?? '';
    if (relation.tags['route'] !== 'bicycle' || !NETWORK_ORDER.includes(network)) continue;
    for (const member of relation.members) {
      if (member.type !== 'way') continue;
      const held = best.get(member.ref);
      if (held === undefined || NETWORK_ORDER.indexOf(network) < NETWORK_ORDER.indexOf(held))
        best.set(member.ref, network);
    }
  }
  return best;
}

function bestNetwork(wayIds: readonly number[], networks: ReadonlyMap<number, string>): string | null {
  let best: string | null = null;
  for (const id of wayIds) {
    const network = networks.get(id);
    if (
      network !== undefined &&
      (best === null || NETWORK_ORDER.indexOf(network) < NETWORK_ORDER.indexOf(best))
    )
      best = network;
  }
  return best;
}

const hasWiki = (tags: Readonly<Record<string, string>> | undefined) =>
  tags !== undefined && (tags['wikidata'] !== undefined || tags['wikipedia'] !== undefined);

const round1 = (value: number) => roundHalfAway(value, 1);

/** The samples of a span in riding order: forward spans as sampled, reverse ones back to front. */
function spanSamples(samples: readonly RoadSample[], span: ClimbSpan, reversed: boolean): RoadSample[] {
  if (!reversed) return samples.slice(span.startIndex, span.endIndex + 1);
  const n = samples.length;
  return samples.slice(n - 1 - span.endIndex, n - span.startIndex).reverse();
}

/**
 * Discovers the climbs and stretches of one extract. Returns them unranked
 * against other areas but with a global rank (`rankOf`), ids unique within
 * the result, and the counts of what was read.
 */
export async function discoverSegments(
  extract: OsmExtract,
  elevation: ElevationSource,
  options: DiscoverOptions,
): Promise<{ segments: DiscoveredSegment[]; counts: DiscoveryCounts }> {
  const ways = new Map(extract.ways.map((way) => [way.id, way]));
  const networks = networkByWay(extract);
  const named: OsmNode[] = [...extract.nodes.values()].filter((node) => node.tags?.['name'] !== undefined);
  const chains = chainRoads(withoutTunnels(extract)).filter((chain) => chain.points.length >= 2);
  const dense = chains.map((chain) => densify(chain.points, SAMPLE_STEP_M));
  const long = dense.map((samples) => (samples.at(-1)?.distanceM ?? 0) >= CLIMB_RULE.minLengthM);

  // Coarse pass: which long roads have relief enough to hold a climb.
  const coarseIdx = chains.flatMap((_, i) => (long[i] ? [i] : []));
  const coarse = await heightsFor(
    coarseIdx.map((i) => thin(dense[i] ?? [], COARSE_SPACING_M)),
    elevation,
    options.signal,
  );
  const fineIdx = coarseIdx.filter(
    (i, k) =>
      relief(coarse[k] ?? []) >= COARSE_RELIEF_M || isStretchRoad(chains[i] as RoadChain, ways, networks),
  );
  const fine = await heightsFor(
    fineIdx.map((i) => dense[i] ?? []),
    elevation,
    options.signal,
  );
  const profiles: ChainProfile[] = fineIdx.map((i, k) => ({
    chain: chains[i] as RoadChain,
    samples: dense[i] ?? [],
    heights: fine[k] ?? [],
  }));

  const context = { ways, networks, named, extract, elevation, options };
  // A road that comes back near where it started (a hairpin loop above a village) is no segment a
  // wind can be judged on as one direction, and an alert on it could never fire: left out, as own loops are.
  const found = profiles
    .flatMap((profile) => [
      ...climbsOf(profile, context),
      ...(isStretchRoad(profile.chain, ways, networks) ? stretchesOf(profile, context) : []),
    ])
    .filter((segment) => routeShape(segment.polyline).shape === 'point_to_point');
  const heights = coarse.reduce((n, h) => n + h.length, 0) + fine.reduce((n, h) => n + h.length, 0);
  return {
    segments: withUniqueIds(found),
    counts: { chains: chains.length, sampledChains: fineIdx.length, heights },
  };
}

interface Context {
  readonly ways: ReadonlyMap<number, OsmWay>;
  readonly networks: ReadonlyMap<number, string>;
  readonly named: readonly OsmNode[];
  readonly extract: OsmExtract;
  readonly elevation: ElevationSource;
  readonly options: DiscoverOptions;
}

function provenanceOf(chain: RoadChain, context: Context): Provenance {
  return {
    osmWayIds: chain.wayIds,
    osmTimestamp: context.extract.timestamp,
    osmSource: context.options.osmSource,
    elevationSource: context.elevation.label,
  };
}

function sourceText(kind: 'climb' | 'stretch', provenance: Provenance, rankedBy: string): string {
  const date = provenance.osmTimestamp ? `, data of ${provenance.osmTimestamp.slice(0, 10)}` : '';
  const rule =
    kind === 'climb'
      ? `climb rule: at least ${CLIMB_RULE.minLengthM / 1000} km, ${CLIMB_RULE.minGainM} m gained, ${CLIMB_RULE.minAverageGradePct} % on average`
      : `a stretch of one overall direction, under ${STRETCH_MAX_GRADE_PCT} % on average`;
  return (
    `Discovered by wind-on-segment from OpenStreetMap (© OpenStreetMap contributors, ODbL${date}; ` +
    `${provenance.osmSource}, ways ${provenance.osmWayIds.slice(0, 8).join(', ')}${provenance.osmWayIds.length > 8 ? ', …' : ''}) ` +
    `with heights from ${provenance.elevationSource}; ${rule}. Ranked by ${rankedBy}; no ride counts.`
  );
}

function profileOf(samples: readonly RoadSample[], heights: readonly number[]): Profile {
  return { distanceM: samples.map((s) => s.distanceM), elevationM: heights };
}

function climbsOf(profile: ChainProfile, context: Context): DiscoveredSegment[] {
  const { chain, samples, heights } = profile;
  const forward = profileOf(samples, heights);
  const spans = [
    ...findClimbs(forward).map((span) => ({ span, reversed: false })),
    ...findClimbs(reverseProfile(forward)).map((span) => ({ span, reversed: true })),
  ];
  const road = roadLabel(chain.name, chain.ref);
  const network = bestNetwork(chain.wayIds, context.networks);
  return spans.map(({ span, reversed }) => {
    const line = spanSamples(samples, span, reversed);
    const foot = line[0] as RoadSample;
    const topPoint = line.at(-1) as RoadSample;
    const top = topFeature(topPoint, context.named);
    const topHeight = reversed
      ? (heights[heights.length - 1 - span.endIndex] ?? 0)
      : (heights[span.endIndex] ?? 0);
    const name = climbName({ top, foot: footPlace(foot, context.named), road, topElevationM: topHeight });
    const basis: RankBasis = {
      network,
      namedPass: top?.node.tags?.['mountain_pass'] === 'yes',
      wiki: hasWiki(top?.node.tags) || chain.wayIds.some((id) => hasWiki(context.ways.get(id)?.tags)),
      sizeM: (span.gainM * span.averageGradePct) / 100,
    };
    return segmentFrom('climb', name, line, span, chain, basis, context, top ? [top.name] : []);
  });
}

function stretchesOf(profile: ChainProfile, context: Context): DiscoveredSegment[] {
  const { chain, samples } = profile;
  // Measured on the smoothed profile, as the climb rule measures climbs: raw DEM steps are noise.
  const heights = smoothProfile(profileOf(samples, profile.heights), CLIMB_RULE.smoothingM).elevationM;
  const n = samples.length;
  const total = samples.at(-1)?.distanceM ?? 0;
  // The same road ridden the other way: samples back to front, distances from the other end.
  const backSamples = samples.map((_, i) => {
    const s = samples[n - 1 - i] as RoadSample;
    return { ...s, distanceM: total - s.distanceM };
  });
  const backHeights = [...heights].reverse();
  const parts = splitByDirection(samples, { minLengthM: STRETCH_MIN_M, maxLengthM: STRETCH_MAX_M });
  const road = roadLabel(chain.name, chain.ref);
  const basis: RankBasis = {
    network: bestNetwork(chain.wayIds, context.networks),
    namedPass: false,
    wiki: false,
    sizeM: 0,
  };
  const out: DiscoveredSegment[] = [];
  for (const part of parts) {
    const forward = spanFigures(samples, heights, part.startIndex, part.endIndex);
    if (Math.abs(forward.averageGradePct) >= STRETCH_MAX_GRADE_PCT) continue;
    const back = spanFigures(backSamples, backHeights, n - 1 - part.endIndex, n - 1 - part.startIndex);
    for (const [span, reversed] of [
      [forward, false],
      [back, true],
    ] as const) {
      const line = spanSamples(samples, span, reversed);
      const heading = headingWord(initialBearing(line[0] as LatLon, line.at(-1) as LatLon));
      const name = stretchName(road, heading, footPlace(line[0] as LatLon, context.named));
      out.push(segmentFrom('stretch', name, line, span, chain, basis, context, []));
    }
  }
  return out;
}

/** Length, gain, net rise and grades of samples `from`..`to` of a profile, as the climb rule reports a span. */
function spanFigures(
  samples: readonly RoadSample[],
  heights: readonly number[],
  from: number,
  to: number,
): ClimbSpan {
  let gainM = 0;
  let maxGradePct = 0;
  for (let i = from + 1; i <= to; i++) {
    const rise = (heights[i] ?? 0) - (heights[i - 1] ?? 0);
    if (rise > 0) gainM += rise;
  }
  // Steepest run, as the climb rule measures it.
  for (let i = from, j = from; i <= to; i++) {
    while (j <= to && (samples[j]?.distanceM ?? 0) - (samples[i]?.distanceM ?? 0) < MAX_GRADE_RUN_M) j++;
    if (j > to) break;
    const run = (samples[j]?.distanceM ?? 0) - (samples[i]?.distanceM ?? 0);
    maxGradePct = Math.max(maxGradePct, (((heights[j] ?? 0) - (heights[i] ?? 0)) / run) * 100);
  }
  const lengthM = (samples[to]?.distanceM ?? 0) - (samples[from]?.distanceM ?? 0);
  const netRiseM = (heights[to] ?? 0) - (heights[from] ?? 0);
  return {
    startIndex: from,
    endIndex: to,
    lengthM,
    gainM,
    netRiseM,
    averageGradePct: lengthM > 0 ? (netRiseM / lengthM) * 100 : 0,
    maxGradePct,
  };
}

function segmentFrom(
  kind: 'climb' | 'stretch',
  name: string,
  line: readonly RoadSample[],
  span: ClimbSpan,
  chain: RoadChain,
  basis: RankBasis,
  context: Context,
  aliases: readonly string[],
): DiscoveredSegment {
  const start = line[0] as RoadSample;
  const provenance = provenanceOf(chain, context);
  const rankedBy = rankReasons(basis);
  const countryCode = context.options.countryOf(start);
  return {
    id: slugify(countryCode, name),
    kind,
    name,
    aliases: aliases.filter((alias) => alias !== name),
    countryCode,
    // Points within 3 m of the line through their neighbours go: what is kept is still points of the road.
    polyline: simplifyRoute(line, POLYLINE_TOLERANCE_M).map(({ lat, lon }) => ({
      lat: roundHalfAway(lat, 6),
      lon: roundHalfAway(lon, 6),
    })),
    distanceM: Math.round(span.lengthM),
    averageGradePct: round1(span.averageGradePct),
    elevationGainM: Math.round(span.gainM),
    maxGradePct: round1(span.maxGradePct),
    popularityRank: rankOf(rankScore(basis)),
    source: sourceText(kind, provenance, rankedBy),
    license: 'ODbL-1.0',
    provenance,
    rankedBy,
  };
}

/**
 * Two segments of one name (both sides of a pass that share a nearest
 * village, two climbs of one road from one town) are told apart by the side
 * they climb or the way they run: "Port d'Envalira from Grau Roig (east side)".
 */
function withDistinctNames(found: readonly DiscoveredSegment[]): DiscoveredSegment[] {
  const count = new Map<string, number>();
  for (const segment of found) count.set(segment.name, (count.get(segment.name) ?? 0) + 1);
  return found.map((segment) => {
    if ((count.get(segment.name) ?? 0) < 2) return segment;
    const start = segment.polyline[0] as LatLon;
    const end = segment.polyline.at(-1) as LatLon;
    const qualifier =
      segment.kind === 'climb'
        ? `${sideWord(initialBearing(end, start))} side`
        : headingWord(initialBearing(start, end));
    const name = `${segment.name} (${qualifier})`;
    return { ...segment, name, id: slugify(segment.countryCode, name) };
  });
}

/** Ids are slugs of country and name; a second segment of the same name gets its first way's id added. */
function withUniqueIds(found: readonly DiscoveredSegment[]): DiscoveredSegment[] {
  const ordered = [...withDistinctNames(found)].sort(
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
