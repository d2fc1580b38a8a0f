/**
 * Where an answer about a place is: a name or coordinates turned into one
 * point, for both surfaces (`find_tailwind_segments`, `GET /v1/segments`).
 * A name that finds nothing, or a place search that fails, is a
 * `ServiceError` (`place_not_found` with its suggestions,
 * `place_search_unavailable` with the search's own words).
 */
import { greatCircleM } from '../core/distance.ts';
import { MAX_ALTERNATIVES } from '../core/place-list-bounds.ts';
import { lakeNames } from '../data/geocoding/lakes.ts';
import type { Geocoder, Place, PlaceKind } from '../data/geocoding/types.ts';
import { foldName } from '../data/names.ts';
import { endOf, startOf } from '../data/segments/segment-geometry.ts';
import type { SegmentCatalog } from '../data/segments/types.ts';
import { ServiceError } from './service-error.ts';

/** What a place is asked by: a name, or coordinates. */
export interface PlaceInput {
  readonly place?: string | undefined;
  readonly latitude?: number | undefined;
  readonly longitude?: number | undefined;
}

/** What the place search reads. */
export interface PlaceParts {
  readonly catalog: SegmentCatalog;
  readonly geocoder: Geocoder;
}

export interface PlaceCandidate {
  name: string;
  country_code: string;
  latitude: number;
  longitude: number;
  population: number | null;
  region: string | null;
  kind: PlaceKind;
}

/** The place an answer is about, in the tools' field names (`ResolvedPlaceSchema`). */
export interface ResolvedPlace {
  name: string;
  country_code: string | null;
  latitude: number;
  longitude: number;
  resolved_by: 'coordinates' | 'segment' | Geocoder['id'];
  query: string | null;
  region: string | null;
  area: { kind: Exclude<PlaceKind, 'town'>; radius_m: number } | null;
  ambiguous: boolean;
  alternatives: PlaceCandidate[];
}

export interface PlaceResolution {
  readonly place: ResolvedPlace;
  /** The credit the place source asks for, or null. */
  readonly credit: string | null;
}

const CREDITS = {
  gazetteer: 'Place and region names from GeoNames (geonames.org), CC BY 4.0',
  'open-meteo': 'Place search by Open-Meteo.com geocoding, data from GeoNames (CC BY 4.0)',
} as const;

function candidate(place: Place) {
  return {
    name: `${place.name}, ${place.countryCode}`,
    country_code: place.countryCode,
    latitude: place.lat,
    longitude: place.lon,
    population: place.population,
    region: place.region ?? null,
    kind: place.kind ?? 'town',
  };
}

function areaOf(place: Place) {
  if (place.kind === undefined || place.kind === 'town') return null;
  return { kind: place.kind, radius_m: place.radiusM ?? 0 };
}

/**
 * A town whose own name is exactly a segment's name or alias, and that has
 * this many people, is what the name means rather than the climb (a rider
 * asking for "Lagos" means one of the cities, not the Lagos de Covadonga):
 * the same bar an island or region clears before towns (see the gazetteer's
 * AREA_OUTRANKS_TOWNS_BELOW). A name that found the segment only with its
 * pass word changed ("Port Angeles" is no pass) yields to a town of that
 * own name of any size.
 */
export const TOWN_OUTRANKS_SEGMENT_FROM = 100_000;

/**
 * Turns the tool's input into one point to search around. Coordinates are
 * taken as given. A name is looked up first among segment names and aliases
 * (a rider asking for "Alpe d'Huez" means the climb; see findSegmentByName
 * for qualified and pass-word spellings), then in the geocoder, whose first
 * answer wins (its ranking prefers what a cyclist means: see the geocoder)
 * and whose others come back as alternatives. The segment goes first unless
 * a town holds the name (TOWN_OUTRANKS_SEGMENT_FROM).
 */
export async function resolvePlace(input: PlaceInput, context: PlaceParts): Promise<PlaceResolution> {
  if (input.place === undefined) {
    const latitude = input.latitude ?? 0;
    const longitude = input.longitude ?? 0;
    const name = `${latitude.toFixed(4)}, ${longitude.toFixed(4)}`;
    const place = { name, country_code: null, latitude, longitude, resolved_by: 'coordinates' as const };
    return {
      place: { ...place, query: null, region: null, area: null, ambiguous: false, alternatives: [] },
      credit: null,
    };
  }
  const query = input.place;
  // Loaded with the first name query: a call by coordinates never compiles the qualifier reader.
  const { findSegmentByName } = await import('./segment-by-name.ts');
  const named = findSegmentByName(query, context.catalog);
  const places = await context.geocoder
    .search(query, MAX_ALTERNATIVES.ambiguous + 1)
    .catch((error: unknown) => {
      if (named) return [];
      throw new ServiceError(
        'place_search_unavailable',
        error instanceof Error ? error.message : 'The place search failed; pass latitude and longitude.',
        { cause: error instanceof Error ? error.message : String(error) },
      );
    });
  const segment = named !== null && !townHoldsName(places[0], query, named.exact) ? named.segment : null;
  if (segment) {
    // A climb asked for by its top's name ("Port d'Envalira") is searched around its top, not its foot.
    const start = named?.namesTop === true ? endOf(segment) : startOf(segment);
    return {
      place: {
        name: segment.name,
        country_code: segment.countryCode,
        latitude: start.lat,
        longitude: start.lon,
        resolved_by: 'segment',
        query,
        region: null,
        area: null,
        ambiguous: false,
        alternatives: places.slice(0, MAX_ALTERNATIVES.clear).map(candidate),
      },
      credit: places.length > 0 ? CREDITS[context.geocoder.id] : null,
    };
  }
  const [best, ...rest] = places;
  if (!best) throw await placeNotFound(query, context);
  // "Other places with this name" never lists the place chosen again: the town of a name and the
  // region or parish of the same name around it ("Andorra la Vella") are one place to a rider.
  const others = rest.filter((other) => !samePlace(best, other));
  return {
    place: {
      name: `${best.name}, ${best.countryCode}`,
      country_code: best.countryCode,
      latitude: best.lat,
      longitude: best.lon,
      resolved_by: context.geocoder.id,
      query,
      region: best.region ?? null,
      area: areaOf(best),
      ambiguous: best.ambiguous === true,
      alternatives: others
        .slice(0, best.ambiguous === true ? MAX_ALTERNATIVES.ambiguous : MAX_ALTERNATIVES.clear)
        .map(candidate),
    },
    credit: CREDITS[context.geocoder.id],
  };
}

/** Places this close under one name and country are the same place to a rider, whatever their kinds. */
const SAME_PLACE_M = 30_000;

function samePlace(a: Place, b: Place): boolean {
  return (
    a.countryCode === b.countryCode &&
    foldName(a.name) === foldName(b.name) &&
    greatCircleM({ lat: a.lat, lon: a.lon }, { lat: b.lat, lon: b.lon }) < SAME_PLACE_M
  );
}

/** Whether the geocoder's first place is a town whose own name the query is, large enough to keep it. */
function townHoldsName(best: Place | undefined, query: string, exact: boolean): boolean {
  if (best === undefined || (best.kind ?? 'town') !== 'town') return false;
  const own =
    foldName(best.name) === foldName(query.slice(0, query.includes(',') ? query.indexOf(',') : undefined));
  return own && (!exact || (best.population ?? 0) >= TOWN_OUTRANKS_SEGMENT_FROM);
}

/** How many names a place_not_found suggests (as many as its "Did you mean"). */
const SUGGESTIONS = 5;

/** No place of the name: the words say what to try, and the suggestions travel beside them. */
async function placeNotFound(query: string, context: PlaceParts): Promise<ServiceError> {
  const suggestions = await context.geocoder.suggest(query, SUGGESTIONS).catch(() => []);
  const hint = suggestions.length > 0 ? ` Did you mean: ${suggestions.map((s) => `"${s}"`).join(', ')}?` : '';
  // The gazetteer answers a first-level region typed alone (the build adds one row per region); a
  // geocoder that does not know it (Open-Meteo) still gets this hint. The region table (0.6 MB) loads
  // here, not with the tool: a call by coordinates never needs it.
  const { findRegions } = await import('../data/geocoding/regions.ts');
  const regions = findRegions(query).filter((region) => foldName(region.name) === foldName(query));
  const region = regions
    .slice(0, 3)
    .map((r) => `${r.name} (${r.countryCode})`)
    .join(', ');
  const asRegion =
    region === ''
      ? ''
      : ` "${query}" is a region: ${region}; name a town in it, e.g. "Town, ${regions[0]?.name ?? query}".`;
  const asLake =
    lakeNames(foldName(query)).length > 0
      ? ` "${query}" reads as a lake: lakes are found through the towns on them or named after them, and none was; name a town on its shore.`
      : '';
  const message =
    `No place named "${query}" was found.${asRegion}${asLake}${hint} ` +
    'Try a nearby town with at least 1,000 inhabitants, add a first-level region or country ' +
    '("Name, Region" or "Name, CC"; counties and départements are not known), ' +
    'or pass latitude and longitude instead.';
  return new ServiceError('place_not_found', message, { suggestions });
}
