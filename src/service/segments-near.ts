/**
 * Find segments near a place: the use case behind `find_tailwind_segments`
 * and `GET /v1/segments`. The place search (`place.ts`), the segments around
 * it and the points their forecast is read at (`segments-around.ts`), and the
 * hours judged (`segment-forecast.ts`): the very same steps for both
 * surfaces, so they list the same segments in the same order with the same
 * windows. Each listed segment comes with what the answers say of it (where
 * it lies, its wind), so a surface reads no segment geometry, zone or window
 * rule itself. Each surface shapes the result its own way (the tool cuts it
 * to an assistant's byte budget and adds the headings of an empty place and
 * the ensemble; the REST list is bounded by its `limit` alone: decision 0035).
 */
import type { LatLon } from '../core/bearing.ts';
import { COMPASS_POINTS, type CompassPoint } from '../core/compass.ts';
import type { ForecastHourSet } from '../data/forecast/hour-set.ts';
import type { Geocoder } from '../data/geocoding/types.ts';
import {
  windOnLegs,
  windOnSegment,
  type SegmentWind,
  type WindOptions,
} from '../data/segments/segment-window.ts';
import type { NearbySegment } from '../data/segments/types.ts';
import { timeZoneAt } from '../data/time-zone/zone-at.ts';
import { resolvePlace, type PlaceInput, type PlaceResolution } from './place.ts';
import { readForecast, type ForecastParts, type ForecastRead } from './segment-forecast.ts';
import {
  locationOf,
  segmentsAroundPlace,
  type AroundAsked,
  type AroundParts,
  type PlaceSegments,
  type SegmentLocation,
} from './segments-around.ts';

/** What the search reads: the catalog (with discovery), the place search, the forecast and the clock. */
export interface SegmentsNearParts extends AroundParts, ForecastParts {
  readonly geocoder: Geocoder;
}

/** The place and the segments around it, before any weather. */
export interface PlaceFound extends PlaceResolution {
  readonly near: PlaceSegments;
  /** The zone at the point searched around. */
  readonly timeZone: string;
}

/**
 * The place asked for and the segments around it. Throws the family's
 * `place_not_found` (with suggestions) or `place_search_unavailable`.
 */
export async function placeSegments(
  input: PlaceInput,
  asked: AroundAsked,
  parts: SegmentsNearParts,
): Promise<PlaceFound> {
  const resolution = await resolvePlace(input, parts);
  const near = await segmentsAroundPlace(resolution.place, asked, parts);
  return { ...resolution, near, timeZone: timeZoneAt(near.point) };
}

/** One listed segment, where it lies, and its wind as `windOnSegment` judges it (null without a forecast there). */
export interface ListedSegment extends NearbySegment {
  readonly location: SegmentLocation;
  readonly wind: SegmentWind | null;
}

/**
 * The segments listed near a place (`near.listed`), each with where it lies
 * and its wind judged on `sets`: the hours read at `near.forecastPoints`, in
 * that order (none: no wind). The tool reads the forecast itself, beside the
 * ensemble, and judges through here; the REST list through {@link segmentsNear}.
 */
export function listedWinds(
  near: Pick<PlaceSegments, 'listed'>,
  sets: readonly (ForecastHourSet | null)[],
  options: WindOptions,
): ListedSegment[] {
  return near.listed.map((nearby, i) => ({
    ...nearby,
    location: locationOf(nearby.segment),
    wind: windOnSegment(nearby.segment, sets[i] ?? null, options),
  }));
}

/** The segments near a place with their wind, or the outage that kept the wind away. */
export interface SegmentsNear extends PlaceFound {
  readonly forecast: ForecastRead;
  readonly listed: readonly ListedSegment[];
}

/**
 * The segments near a place or a point, each with its wind: the list
 * answers without the wind when the forecast cannot be read (`forecast`
 * says why), since the segments, their lines and figures need no weather.
 */
export async function segmentsNear(
  input: PlaceInput,
  asked: AroundAsked & WindOptions,
  parts: SegmentsNearParts,
): Promise<SegmentsNear> {
  const found = await placeSegments(input, asked, parts);
  const forecast = await readForecast(parts, found.near.forecastPoints);
  return { ...found, forecast, listed: listedWinds(found.near, forecast.judged?.sets ?? [], asked) };
}

/** The wind on a straight road leaving a place on one heading. */
export interface HeadingWind {
  readonly heading: CompassPoint;
  /** Degrees from north: 0 for N, 45 for NE, … 315 for NW. */
  readonly bearingDeg: number;
  readonly wind: SegmentWind | null;
}

/**
 * For a place with no catalog segment near: the wind on a straight road
 * leaving it towards each of the eight compass points, judged on the hours
 * and daylight at the place itself (`hourSet`: the hours read at its point,
 * the last of `near.forecastPoints`), read in the place's zone. A rider
 * picks real roads that head roughly that way; these are directions, never
 * segments.
 */
export function headingWinds(
  point: LatLon,
  hourSet: ForecastHourSet | null,
  options: WindOptions,
): { readonly timeZone: string; readonly headings: readonly HeadingWind[] } {
  return {
    timeZone: timeZoneAt(point),
    headings: COMPASS_POINTS.map((heading, i) => ({
      heading,
      bearingDeg: i * 45,
      wind: windOnLegs([{ bearingDeg: i * 45, weight: 1 }], point, hourSet?.hours ?? null, options),
    })),
  };
}
