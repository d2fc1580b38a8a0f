/**
 * The synchronous endpoints' definitions: each one's schemas (which validate odd queries, word every
 * problem and make the OpenAPI document) around its answer (`sync-answers.ts`). The REST function
 * loads them with the first request its route table cannot answer alone (decision 0045).
 */
import * as z from 'zod';
import { CACHE } from './headers.ts';
import { openApiDocument } from './openapi.ts';
import { defineEndpoint, type Endpoint } from './operation.ts';
import { PlansResultSchema } from './schemas/plan-schemas.ts';
import { BearingQuerySchema, TailwindQuerySchema } from './schemas/query-schemas.ts';
import { BearingResultSchema, HealthSchema, TailwindResultSchema } from './schemas/results.ts';
import { BEARING_ANSWER, HEALTH_ANSWER, PLANS_ANSWER, TAILWIND_ANSWER } from './sync-answers.ts';

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
  ...TAILWIND_ANSWER,
});

const bearing = defineEndpoint({
  operationId: 'calculateBearing',
  summary: 'Initial great-circle bearing between two points',
  description:
    'Bearing from start towards end, in [0, 360) rounded to 0.01, with its 8-point compass direction.',
  tag: 'Wind',
  query: BearingQuerySchema,
  result: BearingResultSchema,
  ...BEARING_ANSWER,
});

const plans = defineEndpoint({
  operationId: 'listPlans',
  summary: 'Plans, prices and the free trial',
  description: 'The Free plan and the three Pro plans with EUR and USD display prices.',
  tag: 'Plans',
  result: PlansResultSchema,
  ...PLANS_ANSWER,
});

const health = defineEndpoint({
  operationId: 'getHealth',
  summary: 'Service health',
  description:
    'Answers `ok` whenever the API serves requests, with the service and API versions and each data ' +
    'source: live or demo, where from, and whether it answered lately. Never cached.',
  tag: 'Service',
  result: HealthSchema,
  ...HEALTH_ANSWER,
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
