/**
 * What the map module draws, in the API's own shapes so a page passes an
 * answer's fields straight through: a line is GeoJSON order, [lon, lat].
 */

/** One position as GeoJSON and the API write it: longitude first. */
export type LonLat = readonly [lon: number, lat: number];

/** One line on the map: a segment, or a route. */
export interface MapLine {
  /** The positions in riding order, at least two. */
  readonly coordinates: readonly LonLat[];
  /** The name read out for the line and shown at its start marker's tooltip. */
  readonly name: string;
  /**
   * Signed along-track wind (km/h, + pushes) per part: `values[i]` colours the
   * part from `coordinates[i]` to `coordinates[i + 1]`, so it has one entry
   * fewer than `coordinates`; a single entry colours the whole line. Absent,
   * the line is drawn in the neutral colour.
   */
  readonly values?: readonly number[];
  /** A loop ends where it starts: one "start and finish" marker, and arrows show which way round. Absent, decided by the ends' distance. */
  readonly loop?: boolean;
  /**
   * A short text for the start marker instead of "Start" (the list map numbers
   * its segments as the list beside it does). Markers are never links: lines
   * that start together would stack their targets; the page's own list links.
   */
  readonly badge?: string;
}

/** The whole drawing. */
export interface SegmentMapInput {
  readonly lines: readonly MapLine[];
  /**
   * Km marks, direction arrows and start/finish markers: on for a map of one
   * line, off for an overview of many, where they would crowd each other out.
   */
  readonly details: boolean;
  /** The place a list was searched around, marked with its name so a rider sees where "near" is from. */
  readonly place?: { readonly position: LonLat; readonly name: string };
}
