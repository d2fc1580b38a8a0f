import { around } from 'geokdbush';
import KDBush from 'kdbush';
import type { LatLon } from '../bearing.ts';
import { greatCircleM } from '../distance.ts';
import { groupDigits } from '../group-digits.ts';
import type { OsmNode } from './osm-types.ts';
import type { RoadKind } from './road-kind.ts';

/**
 * Names a rider recognises, from what the map says around a segment: the
 * pass, ski station or hamlet at a climb's top, the settlement at its foot,
 * the road it follows. Points are looked up through a spatial index
 * (kdbush), built once per area, so naming costs a few lookups per segment
 * whatever the number of named points. Pure.
 */

/** What a named point is, as naming weighs it. */
export type PlaceKind =
  | 'pass'
  | 'saddle'
  | 'peak'
  | 'station'
  | 'ski-area'
  | 'viewpoint'
  | 'city'
  | 'town'
  | 'village'
  | 'hamlet'
  | 'locality';

export interface NamedPlace extends LatLon {
  readonly name: string;
  readonly kind: PlaceKind;
  /** The map links it to Wikidata or Wikipedia. */
  readonly wiki: boolean;
}

/** A place found for a segment, with how far it lies from the point asked about. */
export interface PlaceMatch {
  readonly place: NamedPlace;
  readonly distanceM: number;
}

/**
 * How far a settlement reaches from its point, metres: a climb starting this
 * close starts in it. A town's point is its centre, and its streets run a
 * kilometre or two; a hamlet is a few houses.
 */
export const SETTLEMENT_RADIUS_M: Readonly<Partial<Record<PlaceKind, number>>> = {
  city: 4_000,
  town: 1_500,
  village: 700,
  hamlet: 300,
};

/** A settlement names a segment's end when the end lies within this many of its radii. */
export const SETTLEMENT_REACH = 3;

/** A pass or saddle this close to a climb's top names it ("Coll d'Ordino"). */
export const PASS_REACH_M = 500;
/** A ski station, viewpoint, locality or hamlet this close to a top names it. */
export const TOP_PLACE_REACH_M = 600;
/** A peak names a top only when the road reaches it (a summit road), this close. */
export const PEAK_REACH_M = 250;
/**
 * A ski area's point is the middle of its pistes, often a kilometre or two
 * from the car park where its road ends (Arcalís: 1.6 km); a climb that ends
 * at its road's end is named by a ski area this close.
 */
export const SKI_AREA_REACH_M = 2_000;
/**
 * A street's name says where it leads only when the map has a place or peak
 * of that name this close to the top ("Carrer del Cortals" climbs to the
 * Cortals, 2.4 km on): otherwise it honours someone, as most streets do.
 */
export const STREET_PLACE_REACH_M = 3_000;

/** A named point's kind from its OSM tags; null for a point that names nothing here. */
export function placeKind(tags: Readonly<Record<string, string>>): PlaceKind | null {
  if (tags['mountain_pass'] === 'yes') return 'pass';
  if (tags['natural'] === 'saddle') return 'saddle';
  if (tags['natural'] === 'peak') return 'peak';
  if (tags['aerialway'] === 'station') return 'station';
  if (tags['sport'] === 'skiing' || tags['landuse'] === 'winter_sports') return 'ski-area';
  if (tags['tourism'] === 'viewpoint') return 'viewpoint';
  const place = tags['place'];
  if (place === 'city' || place === 'town' || place === 'village' || place === 'hamlet') return place;
  if (place === 'locality') return 'locality';
  return null;
}

/** The named points of an extract as places; nodes without a name or a kind are skipped. */
export function placesOf(nodes: Iterable<OsmNode>): NamedPlace[] {
  const places: NamedPlace[] = [];
  for (const node of nodes) {
    const tags = node.tags;
    const name = tags?.['name']?.trim();
    const kind = tags ? placeKind(tags) : null;
    if (!tags || !name || kind === null) continue;
    const wiki = tags['wikidata'] !== undefined || tags['wikipedia'] !== undefined;
    places.push({ name, kind, lat: node.lat, lon: node.lon, wiki });
  }
  return places;
}

/** Two points of one settlement from two sources lie this close at most. */
export const SAME_PLACE_M = 3_000;

/**
 * The map's own places, then those `others` adds that the map lacks: a place
 * of another source named like one of the map's within {@link SAME_PLACE_M}
 * is the same place, and the map's spelling and point win ("La Massana", not
 * the place list's "la Massana").
 */
export function withOtherPlaces(own: readonly NamedPlace[], others: readonly NamedPlace[]): NamedPlace[] {
  const key = (name: string) => name.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
  const byName = new Map<string, NamedPlace[]>();
  for (const place of own) byName.set(key(place.name), [...(byName.get(key(place.name)) ?? []), place]);
  const missing = others.filter(
    (other) =>
      !(byName.get(key(other.name)) ?? []).some((place) => greatCircleM(place, other) <= SAME_PLACE_M),
  );
  return [...own, ...missing];
}

/** Named places in a spatial index, for naming many segments of one area. */
export class PlaceIndex {
  private readonly places: readonly NamedPlace[];
  private readonly index: KDBush | null;

  constructor(places: readonly NamedPlace[]) {
    this.places = places;
    if (places.length === 0) {
      this.index = null;
      return;
    }
    const index = new KDBush(places.length);
    for (const place of places) index.add(place.lon, place.lat);
    index.finish();
    this.index = index;
  }

  /** Places within `radiusM` of `point` whose kind is one of `kinds`, nearest first. */
  near(point: LatLon, radiusM: number, kinds: ReadonlySet<PlaceKind>, limit = Infinity): PlaceMatch[] {
    if (!this.index) return [];
    const ids = around(this.index, point.lon, point.lat, limit, radiusM / 1000, (id) =>
      kinds.has((this.places[id] as NamedPlace).kind),
    );
    return ids.map((id) => {
      const place = this.places[id] as NamedPlace;
      return { place, distanceM: greatCircleM(point, place) };
    });
  }
}

const KINDS: Readonly<Partial<Record<PlaceKind, ReadonlySet<PlaceKind>>>> = {
  city: new Set(['city']),
  town: new Set(['town']),
  village: new Set(['village']),
  hamlet: new Set(['hamlet']),
};
const PASSES: ReadonlySet<PlaceKind> = new Set(['pass', 'saddle']);
const TOP_PLACES: ReadonlySet<PlaceKind> = new Set([
  'station',
  'ski-area',
  'viewpoint',
  'locality',
  'hamlet',
  'village',
]);
const PEAKS: ReadonlySet<PlaceKind> = new Set(['peak']);
const SKI_AREAS: ReadonlySet<PlaceKind> = new Set(['ski-area']);
const ANY_PLACE: ReadonlySet<PlaceKind> = new Set([...PASSES, ...TOP_PLACES, ...PEAKS, 'city', 'town']);

/**
 * The settlement a point lies in or next to: the one nearest in its own
 * radii ({@link SETTLEMENT_RADIUS_M}), so a climb starting in a town's
 * streets is "from" the town, not from a hamlet whose point happens to be
 * nearer, and one starting at a village's edge is from the village, not
 * from the big town 2.5 km off. Null beyond {@link SETTLEMENT_REACH} radii
 * of every settlement.
 */
export function settlementAt(index: PlaceIndex, point: LatLon, reach = SETTLEMENT_REACH): PlaceMatch | null {
  let best: { match: PlaceMatch; ratio: number } | null = null;
  // One query per kind, each as far as that kind reaches: a city's 12 km would list every hamlet.
  for (const [kind, radius = 1] of Object.entries(SETTLEMENT_RADIUS_M) as [PlaceKind, number][]) {
    const [nearest] = index.near(point, radius * reach, KINDS[kind] as ReadonlySet<PlaceKind>, 1);
    if (!nearest) continue;
    const ratio = nearest.distanceM / radius;
    if (best === null || ratio < best.ratio) best = { match: nearest, ratio };
  }
  return best?.match ?? null;
}

/** The settlement `point` lies in (within one radius), if any: where a segment starting there starts. */
export function settlementIn(index: PlaceIndex, point: LatLon): PlaceMatch | null {
  return settlementAt(index, point, 1);
}

/** True when `point` lies within one radius of the settlement: the segment starts in it. */
export function isIn(match: PlaceMatch | null): boolean {
  return match !== null && match.distanceM <= (SETTLEMENT_RADIUS_M[match.place.kind] ?? 0);
}

/**
 * The place that names a climb's top: a pass or saddle within
 * {@link PASS_REACH_M} (a pass before a saddle, then the nearest); else a ski
 * or lift station, ski area, viewpoint, locality, hamlet or village within
 * {@link TOP_PLACE_REACH_M}; else a peak the road reaches. Null when the map
 * names nothing there.
 */
export function topPlace(index: PlaceIndex, top: LatLon): PlaceMatch | null {
  const passes = index.near(top, PASS_REACH_M, PASSES);
  const pass = passes.find((m) => m.place.kind === 'pass') ?? passes[0];
  if (pass) return pass;
  const place = index.near(top, TOP_PLACE_REACH_M, TOP_PLACES)[0];
  if (place) return place;
  return index.near(top, PEAK_REACH_M, PEAKS)[0] ?? null;
}

/** The ski area within {@link SKI_AREA_REACH_M} of a top where the road ends, which the road serves. */
export function skiAreaNear(index: PlaceIndex, top: LatLon): PlaceMatch | null {
  return index.near(top, SKI_AREA_REACH_M, SKI_AREAS)[0] ?? null;
}

/** "Carrer del Cortals" → "Cortals": what follows a road name's first word and its joiner. */
const NAMED_AFTER = /^\S+ (?:de la |de les |dels |del |de l'|d'|de |du |des |di |della )(.+)$/iu;

/** Letters only, lower case, without accents: how two spellings of one place are compared. */
const plain = (name: string) =>
  name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/^(?:els?|les?|la|l'|los|las)\s+/u, '');

/**
 * The place a street at a climb's top is named after, when the map has a
 * place or peak of that name within {@link STREET_PLACE_REACH_M} of the top:
 * then the street leads there, and riders call the climb by it. Null for a
 * street named after anything else.
 */
export function placeNamedByStreet(index: PlaceIndex, roadName: string, top: LatLon): string | null {
  const rest = NAMED_AFTER.exec(roadName.trim())?.[1];
  if (rest === undefined) return null;
  const wanted = plain(rest);
  const match = index.near(top, STREET_PLACE_REACH_M, ANY_PLACE).find((m) => plain(m.place.name) === wanted);
  return match?.place.name ?? null;
}

/**
 * Road names that say where a road leads ("Carretera de la Rabassa", "Route
 * du Col", "Strada per Livigno"): the destination is what riders call the
 * climb. Street names ("Carrer de Joan Maragall", "Avenue de la Gare") are
 * left alone: they honour people and places, they do not lead there.
 */
const LEADS_TO =
  /^(?:carretera|carrera|camí|cami|camino|chemin|route|ruta|strada|estrada)(?: secundaria| general)? (per |de la |de les |dels |del |de l'|d'|de |du |des |di |della |al |a )(.+)$/iu;

/** The articles kept from the road's name, capitalised: "de la Comella" → "La Comella". */
const ARTICLE: Readonly<Record<string, string>> = {
  'de la ': 'La ',
  'de les ': 'Les ',
  'dels ': 'Els ',
  'del ': 'El ',
};

/** Where a road's name says it leads ("Carretera de la Rabassa" → "La Rabassa"); null when it does not say. */
export function destinationOf(roadName: string): string | null {
  const match = LEADS_TO.exec(roadName.trim());
  if (!match) return null;
  const joiner = (match[1] ?? '').toLowerCase();
  const rest = (match[2] ?? '').trim();
  if (rest === '' || !/\p{Lu}/u.test(rest[0] ?? '')) return null;
  return `${ARTICLE[joiner] ?? ''}${rest}`;
}

/** What names a climb's top, best first (see {@link climbName}). */
export interface ClimbNaming {
  readonly top: PlaceMatch | null;
  /** The road at the top. */
  readonly road: RoadKind;
  readonly foot: PlaceMatch | null;
  /** Height of the top, metres, for a climb with nothing else to name it. */
  readonly topElevationM: number;
  /** A place the top road's name leads to that the map confirms nearby ({@link placeNamedByStreet}). */
  readonly streetPlace?: string | null;
  /** For a climb that ends where its road ends: the ski area the road serves ({@link skiAreaNear}). */
  readonly skiArea?: PlaceMatch | null;
}

/**
 * A climb's name: what its top is called, then where it starts. "Coll
 * d'Ordino from Canillo" (the pass), "La Rabassa from Sant Julià de Lòria"
 * (the road's name says where it leads), "Cortals from Encamp" (a street
 * named after a place the map has up there), "Vallnord: Sector Arcalis from
 * el Serrat" (the ski area a dead-end road serves), "CS-111 climb from Fontaneda" (the
 * road's number), "Climb to 1,980 m from Erts" (nothing names it). A climb
 * with no settlement near its foot is named by its top alone.
 */
export function climbName({
  top,
  road,
  foot,
  topElevationM,
  streetPlace = null,
  skiArea = null,
}: ClimbNaming): string {
  const from = foot ? ` from ${foot.place.name}` : '';
  const destination =
    (road.name === null ? null : destinationOf(road.name)) ?? streetPlace ?? skiArea?.place.name ?? null;
  // A climb from a village to its own upper houses is not named "Certers from Certers".
  const topName = top && top.place.name !== foot?.place.name ? top.place.name : null;
  const what =
    topName ??
    (destination !== foot?.place.name ? destination : null) ??
    (road.ref !== null
      ? `${road.ref} climb`
      : road.name !== null
        ? `${road.name} climb`
        : `Climb to ${groupDigits(Math.round(topElevationM))} m`);
  return `${what}${from}`;
}

/**
 * A flat or rolling stretch's name: its route or road, and its ends
 * ("Main-Radweg, Bayreuth → Kulmbach"); with the same place at both ends or
 * a place at one end only, the way it runs and that place ("EV8, eastbound
 * from Girona", "B 85, southbound to Kulmbach").
 */
export function stretchName(
  road: string,
  from: PlaceMatch | null,
  to: PlaceMatch | null,
  heading: string,
): string {
  if (from && to && from.place.name !== to.place.name)
    return `${road}, ${from.place.name} → ${to.place.name}`;
  const start = from ?? to;
  return `${road}, ${heading}${start ? ` from ${start.place.name}` : ''}`;
}
