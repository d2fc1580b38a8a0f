import * as z from 'zod';
import { initialBearing } from '../core/bearing.ts';
import { compassPoint } from '../core/compass.ts';
import { ignoredDirectionHint, isRuleProblem, resolveDirection } from '../core/direction.ts';
import { PLANS, TRIAL_DAYS, TRIAL_HOW_TO_START } from '../core/plans.ts';
import { TAILWIND_FORMULA, windComponents } from '../core/wind.ts';
import { API_VERSION, SERVICE_VERSION } from '../core/service-facts.ts';
import { CACHE } from './headers.ts';
import { openApiDocument } from './openapi.ts';
import { defineEndpoint, type Endpoint } from './operation.ts';
import { PlansResultSchema, type PlansResult } from './schemas/plan-schemas.ts';
import { BearingQuerySchema, TailwindQuerySchema } from './schemas/query-schemas.ts';
import {
  BearingResultSchema,
  HealthSchema,
  TailwindResultSchema,
  type BearingResult,
  type Health,
  type TailwindResult,
} from './schemas/results.ts';

/** The optional `hint` member: present only with a text, so most answers stay as they were. */
function withHint(hint: string | undefined): { hint?: string } {
  return hint === undefined ? {} : { hint };
}

const tailwind = defineEndpoint({
  operationId: 'calculateTailwind',
  summary: 'Tailwind or headwind along a segment',
  description:
    'Splits the wind into the component along the direction of travel (positive = tailwind) ' +
    'and the crosswind. Give the direction as segment_bearing_deg or as four coordinates; ' +
    'when all four coordinates are sent they win and the bearing is computed from them. ' +
    "A direction parameter that was sent but not used is named in the answer's hint.",
  tag: 'Wind',
  query: TailwindQuerySchema,
  result: TailwindResultSchema,
  cache: CACHE.calculation,
  run(query): TailwindResult {
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
});

const bearing = defineEndpoint({
  operationId: 'calculateBearing',
  summary: 'Initial great-circle bearing between two points',
  description:
    'Bearing from start towards end, in [0, 360) rounded to 0.01, with its 8-point compass direction.',
  tag: 'Wind',
  query: BearingQuerySchema,
  result: BearingResultSchema,
  cache: CACHE.calculation,
  run(query): BearingResult {
    const degrees = initialBearing(
      { lat: query.start_lat, lon: query.start_lon },
      { lat: query.end_lat, lon: query.end_lon },
    );
    return { bearing_deg: degrees, compass: compassPoint(degrees) };
  },
});

const plans = defineEndpoint({
  operationId: 'listPlans',
  summary: 'Plans, prices and the free trial',
  description: 'The Free plan and the three Pro plans with EUR and USD display prices.',
  tag: 'Plans',
  result: PlansResultSchema,
  cache: CACHE.catalog,
  run: (_query, { urls }): PlansResult => ({
    plans: PLANS,
    trial: { days: TRIAL_DAYS, how_to_start: TRIAL_HOW_TO_START },
    pricing_url: urls.pricing,
  }),
});

const health = defineEndpoint({
  operationId: 'getHealth',
  summary: 'Service health',
  description:
    'Answers `ok` whenever the API serves requests, with the service and API versions and each data ' +
    'source: live or demo, where from, and whether it answered lately. Never cached.',
  tag: 'Service',
  result: HealthSchema,
  cache: CACHE.none,
  run: (_query, { sources }): Health => ({
    status: 'ok',
    version: SERVICE_VERSION,
    api_version: API_VERSION,
    ...(sources ? { sources: [...sources()] } : {}),
  }),
});

const openapi = defineEndpoint({
  operationId: 'getOpenApiSpec',
  summary: 'This OpenAPI 3.1 description',
  description: 'Generated from the same schemas that validate requests and shape responses.',
  tag: 'Service',
  result: z.looseObject({ openapi: z.string() }).meta({ description: 'An OpenAPI 3.1 document.' }),
  cache: CACHE.catalog,
  run: (_query, { urls }) => ({ ...openApiDocument(ENDPOINTS, urls) }),
});

/** Every endpoint of the REST API by path; the handler and the OpenAPI document read this. */
export const ENDPOINTS: Readonly<Record<string, Endpoint>> = {
  '/v1/tailwind': tailwind,
  '/v1/bearing': bearing,
  '/v1/plans': plans,
  '/health': health,
  '/openapi.json': openapi,
} as Record<string, Endpoint>;
