/**
 * Segment discovery, as stages a rider would recognise, each in its own
 * file. This is the one place that lists them, in order:
 *
 * | stage                | file(s)                                                    |
 * | -------------------- | ---------------------------------------------------------- |
 * | read                 | `overpass.ts` (online), `osm-file.ts` / `osm-blocks.ts` (files) |
 * | select               | `osm-selection.ts` (`selectedAs`), applied by the reader as it reads |
 * | road graph           | `road-graph.ts`, `road-strokes.ts`, `stretch-paths.ts` (route paths) |
 * | heights              | `road-heights.ts` over an `ElevationSource` (Open-Meteo, SRTM tiles) |
 * | climbs and stretches | `climb-paths.ts`, `climb-steepening.ts`, `stretch-paths.ts` |
 * | names and rank       | `segment-naming.ts` (names, choice, rank)                   |
 * | ids and provenance   | `segment-records.ts`                                       |
 * | store                | `area-discoverer.ts` (on demand), `discover-files.ts` (a region) |
 *
 * Read, select and store are the caller's: a country's file is read in
 * blocks and a Overpass answer at once, but both hand the same extract to
 * the stages here, so online and offline find the same segments. Pure but
 * for the elevation source it is handed; a failure of that source throws
 * before anything is returned, so a caller never stores half an area.
 */
import { performance } from 'node:perf_hooks';
import { climbsOnGraph, type PathClimb } from '../../core/discovery/climb-paths.ts';
import { fromWhereItSteepens } from '../../core/discovery/climb-steepening.ts';
import { foundOn, type FoundSegment } from '../../core/discovery/found-segment.ts';
import type { OsmExtract } from '../../core/discovery/osm-types.ts';
import { buildRoadGraph } from '../../core/discovery/road-graph.ts';
import { buildStrokes } from '../../core/discovery/road-strokes.ts';
import { PlaceIndex, placesOf, withOtherPlaces, type NamedPlace } from '../../core/discovery/segment-name.ts';
import { mapFactsOf, nameAndChoose } from '../../core/discovery/segment-naming.ts';
import { cycleRoutePaths, mainRoadPaths, stretchesAlong } from '../../core/discovery/stretch-paths.ts';
import { roadHeights } from './road-heights.ts';
import { recordsOf, type DiscoveredSegment, type RecordSource } from './segment-records.ts';
import type { ElevationSource } from './types.ts';

/** The stages `discoverSegments` runs itself, in order, as `onStage` names them. */
export const TIMED_STAGES = [
  'road graph',
  'heights',
  'climbs and stretches',
  'names and rank',
  'ids and provenance',
] as const;
export type TimedStage = (typeof TIMED_STAGES)[number];

export interface DiscoverOptions extends RecordSource {
  /**
   * Settlements known besides the extract's own place points (the gazetteer's
   * towns, say), for naming where a segment starts when the map has no point
   * for the town it starts in.
   */
  readonly places?: readonly NamedPlace[];
  readonly signal?: AbortSignal;
  /** Told each stage's wall time as it ends, for the bench and an operator's progress. */
  readonly onStage?: (stage: TimedStage, ms: number) => void;
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

/** The climb as a found segment: its own part of the path it was found on. */
function climbSegment(climb: PathClimb): FoundSegment {
  const { startIndex, endIndex, ...figures } = climb.span;
  return foundOn(climb.profile, startIndex, endIndex, 'climb', figures);
}

/**
 * Discovers the climbs and stretches of one extract, whose ways the reader
 * has already selected. Returns them with a global rank, ids unique within
 * the result, and the counts of what was read and kept.
 */
export async function discoverSegments(
  extract: OsmExtract,
  elevation: ElevationSource,
  options: DiscoverOptions,
): Promise<{ segments: DiscoveredSegment[]; counts: DiscoveryCounts }> {
  let mark = performance.now();
  const stageEnds = (stage: TimedStage) => {
    const now = performance.now();
    options.onStage?.(stage, now - mark);
    mark = now;
  };

  const graph = buildRoadGraph(extract);
  const strokes = buildStrokes(graph);
  const stretchPaths = [...cycleRoutePaths(graph, extract.relations), ...mainRoadPaths(graph, strokes)];
  stageEnds('road graph');

  const { sampled, sampledStrokes, heights } = await roadHeights(
    graph,
    strokes,
    stretchPaths,
    elevation,
    options.signal,
  );
  stageEnds('heights');

  const places = new PlaceIndex(withOtherPlaces(placesOf(extract.nodes.values()), options.places ?? []));
  const climbs = climbsOnGraph(graph, strokes, sampled).map((climb) => fromWhereItSteepens(climb, places));
  const stretches = stretchesAlong(graph, stretchPaths, sampled);
  stageEnds('climbs and stretches');

  const named = nameAndChoose([...climbs.map(climbSegment), ...stretches], {
    graph,
    places,
    ...mapFactsOf(extract),
  });
  stageEnds('names and rank');

  const segments = recordsOf(named, extract, elevation, options);
  stageEnds('ids and provenance');

  const climbCount = segments.filter((s) => s.kind === 'climb').length;
  return {
    segments,
    counts: {
      chains: strokes.length,
      sampledChains: sampledStrokes,
      heights,
      climbs: climbCount,
      stretches: segments.length - climbCount,
    },
  };
}
