import type { LatLon } from '../bearing.ts';
import { greatCircleM } from '../distance.ts';
import type { OsmNode } from './osm-types.ts';

/** A pass, saddle or peak this close to a climb's top names the climb ("Coll d'Ordino"). */
export const TOP_FEATURE_REACH_M = 400;
/** A village or town this close to a climb's foot names where it starts ("from Ordino"). */
export const FOOT_PLACE_REACH_M = 4_000;

/** How strongly a tag says "this is what riders call the top": a road pass first, a peak last. */
function featureWeight(tags: Readonly<Record<string, string>>): number {
  if (tags['mountain_pass'] === 'yes') return 3;
  if (tags['natural'] === 'saddle') return 2;
  if (tags['natural'] === 'peak') return 1;
  return 0;
}

/** Bigger places name a foot before hamlets beside it: "from Ordino", not "from Sornàs". */
const PLACE_WEIGHT: Readonly<Record<string, number>> = { city: 4, town: 3, village: 2, hamlet: 1 };

export interface NamedPoint {
  readonly name: string;
  readonly node: OsmNode;
  readonly distanceM: number;
}

function nameOf(node: OsmNode): string | null {
  const name = node.tags?.['name']?.trim();
  return name === undefined || name === '' ? null : name;
}

/** The pass, saddle or peak that names a top: the strongest kind within reach, then the nearest. */
export function topFeature(top: LatLon, nodes: Iterable<OsmNode>): NamedPoint | null {
  let best: (NamedPoint & { weight: number }) | null = null;
  for (const node of nodes) {
    const weight = node.tags ? featureWeight(node.tags) : 0;
    const name = nameOf(node);
    if (weight === 0 || name === null) continue;
    const distanceM = greatCircleM(top, node);
    if (distanceM > TOP_FEATURE_REACH_M) continue;
    if (best === null || weight > best.weight || (weight === best.weight && distanceM < best.distanceM)) {
      best = { name, node, distanceM, weight };
    }
  }
  return best && { name: best.name, node: best.node, distanceM: best.distanceM };
}

/**
 * The place that names a foot: within reach, a larger place beats a smaller
 * one unless the smaller is four times nearer (a hamlet at the first hairpin
 * is where riders start; a town 3 km off is not).
 */
export function footPlace(foot: LatLon, nodes: Iterable<OsmNode>): NamedPoint | null {
  let best: (NamedPoint & { score: number }) | null = null;
  for (const node of nodes) {
    const weight = PLACE_WEIGHT[node.tags?.['place'] ?? ''] ?? 0;
    const name = nameOf(node);
    if (weight === 0 || name === null) continue;
    const distanceM = greatCircleM(foot, node);
    if (distanceM > FOOT_PLACE_REACH_M) continue;
    // Each step of place size is worth a fourfold distance.
    const score = weight * Math.log(4) - Math.log(Math.max(distanceM, 50));
    if (best === null || score > best.score) best = { name, node, distanceM, score };
  }
  return best && { name: best.name, node: best.node, distanceM: best.distanceM };
}

/**
 * The road as a name uses it: its number when it has one ("CG-3", short and
 * what signs and maps show), else its name. The name, when both exist, is
 * an alias (see `roadAlias`).
 */
export function roadLabel(name: string | null, ref: string | null): string | null {
  return ref ?? name;
}

export interface ClimbNaming {
  readonly top: NamedPoint | null;
  readonly foot: NamedPoint | null;
  readonly road: string | null;
  /** Height of the top, metres, for a climb with nothing else to name it. */
  readonly topElevationM: number;
}

/**
 * A climb's name from what the map says: the feature at the top and the
 * locality at the bottom ("Coll d'Ordino from Ordino"), else the road
 * ("CG-3 climb from La Massana", "CG-3 climb to 1,980 m"). Both sides of one
 * pass thus get distinct names when their feet differ.
 */
export function climbName({ top, foot, road, topElevationM }: ClimbNaming): string {
  const from = foot ? ` from ${foot.name}` : '';
  if (top) return `${top.name}${from}`;
  const what = road ? `${road} climb` : 'Climb';
  return foot ? `${what}${from}` : `${what} to ${Math.round(topElevationM).toLocaleString('en-GB')} m`;
}

/**
 * A flat or rolling stretch's name: the road, the way it runs and where it
 * starts ("EV8, eastbound from Girona"); each direction is its own segment.
 */
export function stretchName(road: string | null, heading: string, from: NamedPoint | null): string {
  return `${road ?? 'Road'}, ${heading}${from ? ` from ${from.name}` : ''}`;
}
