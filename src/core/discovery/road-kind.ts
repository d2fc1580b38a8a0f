import type { OsmTags } from './osm-types.ts';

/**
 * What kind of road a way is, as discovery reads it: its number, name and
 * class, and which way a bicycle may ride it. Pure.
 */

/** What kind of road an edge is, as the continuation rule reads it. */
export interface RoadKind {
  /** The first road number of `ref` (the one a sign shows first); null when there is none. */
  readonly ref: string | null;
  readonly name: string | null;
  /** The `highway` value without `_link`. */
  readonly highway: string;
  /** Class rank, higher for bigger roads ({@link CLASS_RANK}). */
  readonly rank: number;
  /** A `_link` ramp: a short connector that takes the class of the road it serves. */
  readonly link: boolean;
}

/**
 * Class ranks: the continuation rule keeps a rider on a road of the same or a
 * higher class. Residential streets and cycleways share a rank: both are the
 * small roads a village is crossed on.
 */
export const CLASS_RANK: Readonly<Record<string, number>> = {
  trunk: 7,
  primary: 6,
  secondary: 5,
  tertiary: 4,
  unclassified: 3,
  residential: 2,
  cycleway: 2,
  service: 1,
  track: 1,
};

/** What a way is called and numbered: its first road number (a `ref` without a digit is none) and its name. */
export function roadKind(tags: OsmTags): RoadKind {
  const first = tags.ref?.split(';')[0]?.trim() ?? '';
  const highway = (tags.highway ?? '').replace(/_link$/, '');
  return {
    ref: /\d/.test(first) ? first : null,
    name: tags.name?.trim() || null,
    highway,
    rank: CLASS_RANK[highway] ?? 0,
    link: (tags.highway ?? '').endsWith('_link'),
  };
}

/**
 * Which ways a bicycle may ride, from the way's tags: `oneway=yes|true|1`
 * forward only, `-1|reverse` backward only, a roundabout forward only;
 * `oneway:bicycle=no` or a contraflow cycle lane (`cycleway=opposite…`)
 * lifts the restriction for bicycles.
 */
export function bicycleDirections(tags: OsmTags): { forward: boolean; backward: boolean } {
  const both = { forward: true, backward: true };
  if (tags['oneway:bicycle'] === 'no' || (tags.cycleway ?? '').startsWith('opposite')) return both;
  const oneway = tags['oneway:bicycle'] ?? tags.oneway;
  if (oneway === 'yes' || oneway === 'true' || oneway === '1') return { forward: true, backward: false };
  if (oneway === '-1' || oneway === 'reverse') return { forward: false, backward: true };
  if (oneway === undefined && (tags.junction === 'roundabout' || tags.junction === 'circular')) {
    return { forward: true, backward: false };
  }
  return both;
}
