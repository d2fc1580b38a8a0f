/**
 * Get a segment: the use case behind `GET /v1/segments/{id}`. A catalog
 * segment by id (discovered ones loaded on demand), its heights along the
 * road and its wind hour by hour. A rider's own segment is private: its id
 * answers as any unknown one and is never looked up.
 */
import { isOwnSegmentId } from '../core/rider-rules.ts';
import type { LiveCatalog } from '../data/discovery/live-catalog.ts';
import { isOwnSegment } from '../data/segments/owned-segment.ts';
import { forecastPointOf } from '../data/segments/segment-geometry.ts';
import type { SegmentProfile, SegmentProfiles } from '../data/segments/segment-profile.ts';
import { windOnSegment, type SegmentWind, type WindOptions } from '../data/segments/segment-window.ts';
import type { Segment, SegmentCatalog } from '../data/segments/types.ts';
import { readForecast, type ForecastParts, type ForecastRead } from './segment-forecast.ts';
import { locationOf, type SegmentLocation } from './segments-around.ts';
import { ServiceError } from './service-error.ts';

/** What the lookup reads: the catalog (with discovery), the forecast, the clock, the elevation profiles. */
export interface CatalogSegmentParts extends ForecastParts {
  readonly catalog: SegmentCatalog;
  readonly discovery?: Pick<LiveCatalog, 'load'> | undefined;
  /** Loaded with the first segment asked for; without it every profile is null. */
  readonly profiles?: (() => Promise<SegmentProfiles>) | undefined;
}

/** One catalog segment, where it lies, its profile, and its wind or why there is none. */
export interface CatalogSegment {
  readonly segment: Segment;
  readonly location: SegmentLocation;
  readonly profile: SegmentProfile;
  readonly forecast: ForecastRead;
  readonly wind: SegmentWind | null;
}

const NO_PROFILES: SegmentProfile = { points: null, reason: 'No elevation source is configured.' };

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The segment's profile; a source that fails to load is no profile, never a failed answer. */
async function profileOf(parts: CatalogSegmentParts, segment: Segment): Promise<SegmentProfile> {
  if (!parts.profiles) return NO_PROFILES;
  try {
    return await (await parts.profiles()).profileOf(segment);
  } catch (error) {
    return { points: null, reason: messageOf(error) };
  }
}

/** The catalog's segment of `id`, or undefined (an own segment's id included). */
export async function catalogSegmentOf(id: string, parts: CatalogSegmentParts): Promise<Segment | undefined> {
  if (isOwnSegmentId(id)) return undefined;
  await parts.discovery?.load([id]);
  const found = parts.catalog.get(id);
  return found && !isOwnSegment(found) ? found : undefined;
}

/**
 * The segment with its profile and wind. The segment answers without the
 * wind when the forecast cannot be read: its map, figures and profile need
 * none, and `forecast.outage` says why. Throws `unknown_segment`.
 */
export async function catalogSegment(
  id: string,
  options: WindOptions,
  parts: CatalogSegmentParts,
): Promise<CatalogSegment> {
  const segment = await catalogSegmentOf(id, parts);
  if (!segment) throw new ServiceError('unknown_segment', `No catalog segment has the id "${id}".`, { id });
  // Looked up beside the forecast, so the heights add no wait of their own.
  const profile = profileOf(parts, segment);
  const forecast = await readForecast(parts, [forecastPointOf(segment)]);
  const wind = windOnSegment(segment, forecast.judged?.sets[0] ?? null, options);
  return { segment, location: locationOf(segment), profile: await profile, forecast, wind };
}
