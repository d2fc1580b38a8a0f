import type { LatLon } from '../../core/bearing.ts';
import type { EnsembleSample } from '../../core/ensemble-chance.ts';

/**
 * The ensemble models this service can ask for. Members include the
 * unperturbed control run. Both are global, 0.25°, run every 6 hours and
 * cover the 3-day horizon with room to spare; the table is small on purpose:
 * a model is added here only once its member count and horizon are checked.
 */
export const ENSEMBLE_MODELS = {
  /** ECMWF IFS 0.25° ensemble: control + 50 perturbed members, 15 days (3-hourly, interpolated to hourly). */
  ecmwf_ifs025: { label: 'ECMWF IFS 0.25° ensemble', members: 51, metaDomain: 'ecmwf_ifs025_ensemble' },
  /** NCEP GEFS 0.25°: control + 30 perturbed members, 10 days; the documented fallback. */
  gfs025: { label: 'NCEP GEFS 0.25° ensemble', members: 31, metaDomain: 'ncep_gefs025' },
} as const;

export type EnsembleModelId = keyof typeof ENSEMBLE_MODELS;

/**
 * Hours asked per location: the 72-hour horizon plus 12, so an entry cached
 * for its model run (a new one every 6 hours, published some hours later)
 * still covers the horizon from any hour it is served in. Here, not in
 * `open-meteo-ensemble.ts`, so the demo ensemble reads it without loading Open-Meteo's client.
 */
export const ENSEMBLE_FETCH_HOURS = 84;

/** Which ensemble an answer is built on; `demo` is synthetic and always says so. */
export type EnsembleSourceId = 'open-meteo' | 'demo';

/** The demo ensemble's model name: it imitates the 51 members of the default model, nothing more. */
export const DEMO_ENSEMBLE_MODEL = 'demo';

/**
 * Every hour of the ensemble at one location that passed validation: each of
 * the model's members has a possible speed and direction. An hour missing a
 * member is not here (it is counted in `unusableHours`): it has no
 * probability rather than one from fewer members.
 */
export interface EnsembleSeries {
  readonly point: LatLon;
  readonly model: string;
  readonly members: number;
  /** When the model run started (Unix s), as the provider states it; null when it could not be learned. */
  readonly runAt: number | null;
  /** When the data was obtained (Unix s). */
  readonly fetchedAt: number;
  /** Served from an older run because the source failed. */
  readonly stale: boolean;
  readonly hours: readonly EnsembleSample[];
  readonly unusableHours: number;
}

/** What one upstream request cost, as the provider counts it. */
export interface EnsembleRequest {
  readonly model: string;
  readonly locations: number;
  /** Open-Meteo's weight: calls this request counts as (see `ensembleRequestWeight`). */
  readonly weight: number;
}

/**
 * An ensemble provider; answers many points at once, in the order asked
 * (null = no usable members there). Throws `ForecastError` when no answer
 * can be given at all.
 */
export interface EnsembleSource {
  readonly id: EnsembleSourceId;
  readonly model: string;
  readonly members: number;
  /** The current model run (Unix s), or null when unknown; cached by the source. */
  currentRun(): Promise<number | null>;
  hourly(points: readonly LatLon[]): Promise<readonly (EnsembleSeries | null)[]>;
}

/**
 * Open-Meteo counts a request as more than one call when it is heavy: by our
 * reading of its documentation, each location counts max(1, variables ÷ 10)
 * calls, an ensemble's members multiplying its variables, times the share of
 * 14 days asked beyond the first fortnight. Two variables on 51 members are
 * thus 10.2 calls per location. An estimate for counting and logging, not a
 * bill: the provider's own count is authoritative.
 */
export function ensembleRequestWeight(
  locations: number,
  variables: number,
  members: number,
  hours: number,
): number {
  const perLocation = Math.max(1, (variables * members) / 10) * Math.max(1, hours / (14 * 24));
  return Math.round(locations * perLocation * 10) / 10;
}
