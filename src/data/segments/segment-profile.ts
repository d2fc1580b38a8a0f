import { LRUCache } from 'lru-cache';
import { evenSamples } from '../../core/profile-samples.ts';
import { roundHalfAway } from '../../core/round.ts';
import { DiscoveryError } from '../discovery/discovery-error.ts';
import type { ElevationSource } from '../discovery/types.ts';
import type { Segment } from './types.ts';

/** One point of a profile: km from the start (0.01) and metres above sea level (whole). */
export interface ProfilePoint {
  readonly distanceKm: number;
  readonly elevationM: number;
}

/** A segment's heights along its road, or why there are none (the answer goes on without them). */
export type SegmentProfile =
  | { readonly points: readonly ProfilePoint[]; readonly reason?: undefined }
  | { readonly points: null; readonly reason: string };

export interface SegmentProfiles {
  /** Never rejects: a failed lookup is a profile with no points and the reason. */
  profileOf(segment: Segment): Promise<SegmentProfile>;
}

export interface SegmentProfilesOptions {
  /** Most heights per profile, evenly spaced along the line (the REST schema's limit). */
  readonly samples: number;
  /** Profiles kept; each is about 120 pairs of numbers. */
  readonly max?: number;
  /** How long one lookup may take before the answer goes on without heights. */
  readonly timeoutMs?: number;
}

/** Every segment of the embedded catalog and more: a profile is a few KB at most. */
const DEFAULT_MAX = 2_000;

/** The forecast's own time-out: the profile is looked up beside it and must not hold the answer longer. */
const DEFAULT_TIMEOUT_MS = 4_000;

/**
 * Failures that say something about the line, not the moment: no tile or a
 * refused request will fail the same way again, so they are kept like a
 * profile; a busy, slow or unreachable service is asked again next time.
 */
const LASTING: ReadonlySet<string> = new Set(['refused', 'malformed']);

/**
 * Elevation profiles of catalog segments, read from `elevation` at an even
 * spacing along the line (`evenSamples`) and kept per segment id in a bounded
 * LRU: an id's line never changes, so a profile once read is read for good,
 * and two requests at once share one lookup.
 */
export function createSegmentProfiles(
  elevation: ElevationSource,
  options: SegmentProfilesOptions,
): SegmentProfiles {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const cache = new LRUCache<string, Promise<SegmentProfile>>({ max: options.max ?? DEFAULT_MAX });

  async function lookUp(segment: Segment): Promise<{ profile: SegmentProfile; keep: boolean }> {
    const samples = evenSamples(segment.polyline, options.samples);
    try {
      const heights = await elevation.elevations(samples, AbortSignal.timeout(timeoutMs));
      const points = samples.map((sample, i) => ({
        distanceKm: roundHalfAway(sample.distanceM / 1000, 2),
        elevationM: roundHalfAway(heights[i] ?? Number.NaN, 0),
      }));
      if (points.length < 2 || !points.every((p) => Number.isFinite(p.elevationM))) {
        return {
          profile: { points: null, reason: 'The height model answered no usable heights.' },
          keep: true,
        };
      }
      return { profile: { points }, keep: true };
    } catch (error) {
      const lasting = error instanceof DiscoveryError && LASTING.has(error.failure);
      const reason = error instanceof Error ? error.message : String(error);
      return { profile: { points: null, reason }, keep: lasting };
    }
  }

  return {
    profileOf(segment) {
      const kept = cache.get(segment.id);
      if (kept) return kept;
      const pending = lookUp(segment).then(({ profile, keep }) => {
        if (!keep && cache.get(segment.id) === pending) cache.delete(segment.id);
        return profile;
      });
      cache.set(segment.id, pending);
      return pending;
    },
  };
}
