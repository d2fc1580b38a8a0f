import { beforeAll, describe, expect, it } from 'vitest';
import { PROBLEM_STATUS } from '../../src/http/problem-json.ts';
import { createResponseValidator, type ResponseValidator } from '../support/openapi-validator.ts';
import { CASES, type ContractCase } from './cases.ts';

/** How a suite reaches the API: in-process, over a socket, or through built functions. */
export interface Target {
  /** The origin the API believes it is served from (its docs URL derives from it). */
  readonly origin: string;
  fetch(path: string, init?: RequestInit): Promise<Response>;
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  return text ? JSON.parse(text) : undefined;
}

/** Checks every response must pass, whatever the endpoint: CORS, caching, nosniff. */
function expectBaseHeaders(response: Response): void {
  expect(response.headers.get('access-control-allow-origin')).toBe('*');
  expect(response.headers.get('cache-control')).toBeTruthy();
  expect(response.headers.get('x-content-type-options')).toBe('nosniff');
}

/** The RFC 9457 rules of the spec, for any problem body. */
export function expectProblem(body: unknown, response: Response, origin: string, path: string): void {
  const problem = body as Record<string, unknown>;
  const code = problem['code'] as keyof typeof PROBLEM_STATUS;
  expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(PROBLEM_STATUS[code]).toBe(response.status);
  expect(problem['status']).toBe(response.status);
  expect(problem['type']).toBe(`${origin}/docs#error-${code.replaceAll('_', '-')}`);
  expect(problem['instance']).toBe(new URL(origin + path).pathname);
  for (const member of ['title', 'detail', 'hint']) expect(problem[member]).toMatch(/\S/);
}

async function runCase(target: Target, validate: ResponseValidator, c: ContractCase): Promise<void> {
  const init: RequestInit = { method: c.method ?? 'GET', ...(c.headers ? { headers: c.headers } : {}) };
  const response = await target.fetch(c.path, init);
  expect(response.status).toBe(c.status);
  expectBaseHeaders(response);
  for (const [name, value] of Object.entries(c.responseHeaders ?? {})) {
    if (typeof value === 'string') expect(response.headers.get(name)).toBe(value);
    else expect(response.headers.get(name)).toMatch(value);
  }
  const body = await readBody(response);
  if (c.status === 204) return expect(body).toBeUndefined();
  const path = new URL(c.path, target.origin).pathname;
  expect(validate(path, response.status, response.headers.get('content-type') ?? '', body)).toEqual([]);
  if (c.body) expect(body).toMatchObject(c.body);
  if (c.problem) {
    expectProblem(body, response, target.origin, c.path);
    const problem = body as Record<string, unknown>;
    expect(problem['code']).toBe(c.problem.code);
    if (c.problem.parameter) expect(problem['parameter']).toBe(c.problem.parameter);
    if (c.problem.hint) expect(problem['hint']).toMatch(c.problem.hint);
  }
}

/** Registers the whole contract against one target. */
export function describeContract(label: string, target: () => Target): void {
  describe(`contract: ${label}`, () => {
    let validate: ResponseValidator;

    beforeAll(async () => {
      validate = createResponseValidator(await (await target().fetch('/openapi.json')).json());
    });

    it.each(CASES)('$name', (c) => runCase(target(), validate, c));

    it('HEAD answers like GET, without a body', async () => {
      const get = await target().fetch('/v1/plans');
      const head = await target().fetch('/v1/plans', { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(await head.text()).toBe('');
      for (const name of ['content-type', 'cache-control', 'access-control-allow-origin']) {
        expect(head.headers.get(name)).toBe(get.headers.get(name));
      }
    });

    it('tailwind from coordinates equals tailwind on the bearing endpoint’s answer', async () => {
      const points = 'start_lat=51.5&start_lon=-0.12&end_lat=48.85&end_lon=2.35';
      const bearing = (await (await target().fetch(`/v1/bearing?${points}`)).json()) as {
        bearing_deg: number;
      };
      const wind = 'wind_speed_kmh=31&wind_direction_deg=10';
      const [byCoordinates, byBearing] = await Promise.all([
        target()
          .fetch(`/v1/tailwind?${wind}&${points}`)
          .then((r) => r.json()),
        target()
          .fetch(`/v1/tailwind?${wind}&segment_bearing_deg=${bearing.bearing_deg}`)
          .then((r) => r.json()),
      ]);
      expect(byCoordinates).toEqual(byBearing);
    });

    it('plans: Free and the three Pro plans, with trial and pricing link', async () => {
      const body = (await (await target().fetch('/v1/plans')).json()) as {
        plans: { id: string; price: { eur: string; usd: string }; list_price: unknown }[];
        trial: { days: number };
        pricing_url: string;
      };
      expect(body.plans.map((plan) => plan.id)).toEqual([
        'free',
        'pro_monthly',
        'pro_annual',
        'pro_lifetime',
      ]);
      for (const plan of body.plans) {
        expect(plan.list_price).toBeNull();
        expect(plan.price.eur).toMatch(/^€\d/);
        expect(plan.price.usd).toMatch(/^\$\d/);
      }
      expect(body.plans[0]?.price).toEqual({ eur: '€0', usd: '$0' });
      expect(Number.isInteger(body.trial.days)).toBe(true);
      expect(body.pricing_url).toBe(`${target().origin}/pricing`);
    });

    it('openapi: version 1.4.0, the eight operations, no security', async () => {
      const doc = (await (await target().fetch('/openapi.json')).json()) as {
        openapi: string;
        info: { version: string };
        security: unknown[];
        servers: { url: string }[];
        paths: Record<string, { get: { operationId: string } }>;
      };
      expect(doc.openapi).toMatch(/^3\.1\./);
      expect(doc.info.version).toBe('1.4.0');
      expect(doc.security).toEqual([]);
      expect(doc.servers[0]?.url).toBe(target().origin);
      expect(Object.values(doc.paths).map((item) => item.get.operationId)).toEqual([
        'calculateTailwind',
        'calculateBearing',
        'listPlans',
        'getHealth',
        'getOpenApiSpec',
        'getCellWind',
        'findSegmentsNear',
        'getSegment',
      ]);
    });
  });
}
