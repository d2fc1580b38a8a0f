/**
 * What each synchronous endpoint answers, apart from its schemas: its cache policy and the work it
 * does on a query already read. `endpoints.ts` defines each endpoint from these and its schemas
 * (which type the work, validate odd queries and describe it in the OpenAPI document); the route
 * table (`routes.ts`) answers a valid plain query with them alone, so the REST function's first
 * `/v1/tailwind` loads no zod (decision 0045). Only types come from the schemas here.
 */
import { initialBearing } from '../core/bearing.ts';
import { compassPoint } from '../core/compass.ts';
import { ignoredDirectionHint, isRuleProblem, resolveDirection } from '../core/direction.ts';
import { PLANS, TRIAL_DAYS, TRIAL_HOW_TO_START } from '../core/plans.ts';
import { API_VERSION, SERVICE_VERSION } from '../core/service-facts.ts';
import { TAILWIND_FORMULA, windComponents } from '../core/wind.ts';
import { CACHE, type CachePolicy } from './headers.ts';
import type { EndpointContext } from './operation.ts';
import type { PlansResult } from './schemas/plan-schemas.ts';
import type { BearingQuery, TailwindQuery } from './schemas/query-schemas.ts';
import type { BearingResult, Health, TailwindResult } from './schemas/results.ts';

/** A synchronous endpoint's answer: its cache policy and its work on the query its schema reads. */
export interface SyncAnswer<Q = never, R = unknown> {
  readonly cache: CachePolicy;
  readonly run: (query: Q, context: EndpointContext) => R;
}

/** The optional `hint` member: present only with a text, so most answers stay as they were. */
function withHint(hint: string | undefined): { hint?: string } {
  return hint === undefined ? {} : { hint };
}

export const TAILWIND_ANSWER: SyncAnswer<TailwindQuery, TailwindResult> = {
  cache: CACHE.calculation,
  run(query) {
    const direction = resolveDirection(query);
    // The schema has already refused a query whose direction is a problem.
    if (isRuleProblem(direction)) throw new Error(`unvalidated direction: ${direction.detail}`);
    const bearingDeg = direction.bearingDeg;
    const wind = windComponents({
      speedKmh: query.wind_speed_kmh,
      directionDeg: query.wind_direction_deg,
      bearingDeg,
    });
    return {
      signed_tailwind_kmh: wind.signedKmh,
      crosswind_kmh: wind.crosswindKmh,
      effect: wind.effect,
      segment_bearing_deg: bearingDeg,
      wind_speed_kmh: query.wind_speed_kmh,
      wind_direction_deg: query.wind_direction_deg,
      formula: TAILWIND_FORMULA,
      ...withHint(ignoredDirectionHint(query)),
    };
  },
};

export const BEARING_ANSWER: SyncAnswer<BearingQuery, BearingResult> = {
  cache: CACHE.calculation,
  run(query) {
    const degrees = initialBearing(
      { lat: query.start_lat, lon: query.start_lon },
      { lat: query.end_lat, lon: query.end_lon },
    );
    return { bearing_deg: degrees, compass: compassPoint(degrees) };
  },
};

export const PLANS_ANSWER: SyncAnswer<unknown, PlansResult> = {
  cache: CACHE.catalog,
  run: (_query, { urls }) => ({
    plans: PLANS,
    trial: { days: TRIAL_DAYS, how_to_start: TRIAL_HOW_TO_START },
    pricing_url: urls.pricing,
  }),
};

export const HEALTH_ANSWER: SyncAnswer<unknown, Health> = {
  cache: CACHE.none,
  run: (_query, { sources }) => ({
    status: 'ok',
    version: SERVICE_VERSION,
    api_version: API_VERSION,
    ...(sources ? { sources: [...sources()] } : {}),
  }),
};

/**
 * The answers a route may give without its endpoint's schemas, by path. `/openapi.json` is not
 * among them: its document is made from every endpoint's schemas, which load with its first request.
 */
export const SYNC_ANSWERS: Readonly<Record<string, SyncAnswer<never>>> = {
  '/v1/tailwind': TAILWIND_ANSWER,
  '/v1/bearing': BEARING_ANSWER,
  '/v1/plans': PLANS_ANSWER,
  '/health': HEALTH_ANSWER,
};
