/**
 * The use cases' one error family (`src/service/service-error.ts`) and the
 * one place each surface words it: REST's problems (`serviceProblem`) and
 * MCP's `isError` text (`toolErrorText`). Every code is worded by both, a
 * forecast failure becomes the family in one place, and anything else is
 * left to each surface's internal error.
 */
import { describe, expect, it } from 'vitest';
import { ForecastError } from '../../src/data/forecast/types.ts';
import { toolErrorText, ToolError } from '../../src/mcp/tool.ts';
import { serviceProblem } from '../../src/rest/data-problems.ts';
import { routeOf, ROUTE_LIST } from '../../src/rest/routes.ts';
import { forecastFailure, ServiceError, type ServiceErrorCode } from '../../src/service/service-error.ts';

const NOW_MS = Date.UTC(2026, 10, 28, 14, 3, 20);

function outage(error: ForecastError): ServiceError {
  const failure = forecastFailure(error, 'open-meteo', NOW_MS);
  if (!failure) throw new Error('a forecast failure is an outage');
  return failure;
}

const EXAMPLES: Record<ServiceErrorCode, ServiceError> = {
  invalid_parameter: new ServiceError('invalid_parameter', 'start_before is earlier than start_after.'),
  place_not_found: new ServiceError('place_not_found', 'No place named "Atlantis" was found.', {
    suggestions: ['Atlanta, US'],
  }),
  place_search_unavailable: new ServiceError('place_search_unavailable', 'fetch failed', {
    cause: 'fetch failed',
  }),
  unknown_segment: new ServiceError('unknown_segment', 'No catalog segment has the id "x".', { id: 'x' }),
  too_many_requests: new ServiceError('too_many_requests', 'This caller has used up its allowance.', {
    retryAfterS: 42,
  }),
  forecast_unreachable: outage(new ForecastError('network', 'no route')),
  forecast_unavailable: outage(new ForecastError('timeout', 'no answer')),
};

describe('the service error family', () => {
  it('turns a forecast failure into forecast_unreachable or forecast_unavailable, and nothing else', () => {
    expect(EXAMPLES.forecast_unreachable.code).toBe('forecast_unreachable');
    expect(EXAMPLES.forecast_unreachable.facts.retryAt).toBeNull();
    expect(EXAMPLES.forecast_unavailable.code).toBe('forecast_unavailable');
    expect(EXAMPLES.forecast_unavailable.facts).toMatchObject({ cause: 'no answer', retryAfterS: 100 });
    expect(forecastFailure(new TypeError('a bug'), 'open-meteo', NOW_MS)).toBeUndefined();
  });

  it.each(Object.entries(EXAMPLES))('REST answers %s as the problem of that code', (code, error) => {
    const problem = serviceProblem(error);
    expect(problem.code).toBe(code);
    // The place search's cause is its detail; a refused allowance keeps the API's own sentence.
    const said = { place_search_unavailable: 'fetch failed', too_many_requests: 'than its allowance' };
    expect(problem.message).toContain(said[code as keyof typeof said] ?? error.message);
  });

  it('REST keeps the facts a problem carries: suggestions, the id, Retry-After', () => {
    expect(serviceProblem(EXAMPLES.place_not_found).extensions).toEqual({ suggestions: ['Atlanta, US'] });
    expect(serviceProblem(EXAMPLES.unknown_segment).parameter).toBe('id');
    expect(serviceProblem(EXAMPLES.forecast_unavailable).retryAfterS).toBe(100);
    expect(serviceProblem(EXAMPLES.forecast_unreachable).retryAfterS).toBeUndefined();
    expect(serviceProblem(EXAMPLES.too_many_requests).retryAfterS).toBe(42);
  });

  it.each(Object.entries(EXAMPLES))('MCP words %s for an assistant', (code, error) => {
    const text = toolErrorText(error);
    expect(text).toMatch(/\S/);
    // An unknown id and a refused allowance are worded for the tools; every other code says its sentence.
    if (code !== 'unknown_segment' && code !== 'too_many_requests') expect(text).toContain(error.message);
  });

  it('MCP adds a busy forecast its cause, says where segment ids come from and when to call again', () => {
    expect(toolErrorText(EXAMPLES.forecast_unavailable)).toBe(
      `${EXAMPLES.forecast_unavailable.message} no answer`,
    );
    expect(toolErrorText(EXAMPLES.forecast_unreachable)).toBe(EXAMPLES.forecast_unreachable.message);
    expect(toolErrorText(EXAMPLES.unknown_segment)).toMatch(
      /^No segment has the id "x"\. Ids come from find/,
    );
    expect(toolErrorText(EXAMPLES.too_many_requests)).toMatch(
      /^Rate limit reached for this connection\. Wait 42 s before the next call;/,
    );
  });

  it('MCP leaves anything else to the internal error, and says a ToolError as it is', () => {
    expect(toolErrorText(new Error('secret internal detail'))).toBeUndefined();
    expect(toolErrorText(new ToolError('Give the route once.'))).toBe('Give the route once.');
  });
});

describe('the REST route table', () => {
  it('lists every path once, sync endpoints first, in the order the hints name them', () => {
    expect(ROUTE_LIST).toBe(
      '/v1/tailwind, /v1/bearing, /v1/plans, /health, /openapi.json, /v1/wind, /v1/segments, /v1/segments/{id}',
    );
  });

  it.each([
    ['/v1/tailwind', 'sync', ''],
    ['/v1/tailwind/', 'sync', ''],
    ['/v1/segments', 'data', ''],
    ['/v1/segments/', 'data', ''],
    ['/v1/segments/fr-alpe-d-huez', 'data', 'fr-alpe-d-huez'],
    ['/v1/segments/fr-alpe-d-huez/', 'data', 'fr-alpe-d-huez'],
    ['/v1/segments/{id}', 'data', '{id}'],
  ])('finds %s', (path, kind, rawId) => {
    expect(routeOf(path)).toMatchObject({ route: { kind }, rawId });
  });

  it.each(['/', '/v1', '/v1/tailwind//', '/V1/tailwind', '/v1/segments/a/b', '/v1/windy'])(
    'finds nothing at %s',
    (path) => {
      expect(routeOf(path)).toBeUndefined();
    },
  );
});
