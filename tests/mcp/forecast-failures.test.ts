import { describe, expect, it } from 'vitest';
import { createForecastCache } from '../../src/data/forecast/cache.ts';
import { createOpenMeteoForecast } from '../../src/data/forecast/open-meteo-forecast.ts';
import { FindTailwindSegmentsOutputSchema } from '../../src/mcp/schemas/find.ts';
import { fakeOpenMeteo } from '../support/fake-open-meteo.ts';
import { connectClient, inProcessFetch, resultText } from '../support/mcp-client.ts';
import { TEST_MCP_URL, TEST_NOW, testDeps, testEndpoint } from '../support/mcp-deps.ts';

type Fault = 'none' | 'status-500' | 'status-429' | 'malformed' | 'nulls';

/** The real Open-Meteo client and cache over a fake upstream that can be told to fail. */
async function rig() {
  let now = TEST_NOW;
  let fault: Fault = 'none';
  const clock = () => now;
  const upstream = fakeOpenMeteo(clock);
  const fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    if (fault === 'status-500') return new Response('upstream broke', { status: 500 });
    if (fault === 'status-429')
      return new Response('{"error":true,"reason":"Too many requests"}', { status: 429 });
    if (fault === 'malformed') return new Response('{"latitude": 45, "hourly": ', { status: 200 });
    const answer = await upstream.fetch(input, init);
    if (fault !== 'nulls') return answer;
    const body = JSON.stringify(await answer.json(), (key, value: unknown) =>
      (key === 'wind_speed_10m' || key === 'wind_direction_10m') && Array.isArray(value)
        ? value.map(() => null)
        : value,
    );
    return new Response(body, { headers: { 'content-type': 'application/json' } });
  };
  const source = createOpenMeteoForecast({ fetch, clock, retries: 0 });
  const deps = testDeps({ now: clock, forecast: createForecastCache(source, { clock }) });
  const client = await connectClient(TEST_MCP_URL, '2026-07-28', inProcessFetch(testEndpoint(deps)));
  const find = () =>
    client.callTool({ name: 'find_tailwind_segments', arguments: { latitude: 45.06, longitude: 6.03 } });
  return {
    client,
    find,
    fail: (next: Fault) => (fault = next),
    later: (ms: number) => (now += ms),
  };
}

describe('Open-Meteo failures reach the assistant as a clear error or a result marked stale', () => {
  it.each([
    ['status-500', /Open-Meteo failed \(HTTP 500\)/],
    ['status-429', /rate-limiting/],
    ['malformed', /could not read/],
  ] as const)('with a cold cache, %s is a tool error that says what to do', async (fault, message) => {
    const { client, find, fail } = await rig();
    fail(fault);
    const result = await find();
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(resultText(result)).toMatch(message);
    expect(resultText(result)).toMatch(/try again/);
    await client.close();
  });

  it('after a good answer, a failure in the next hour serves the older forecast marked stale', async () => {
    const { client, find, fail, later } = await rig();
    const fresh = FindTailwindSegmentsOutputSchema.parse((await find()).structuredContent);
    expect(fresh.forecast?.stale).toBe(false);
    later(60 * 60 * 1000);
    fail('status-500');
    const result = await find();
    expect(result.isError).toBeFalsy();
    const stale = FindTailwindSegmentsOutputSchema.parse(result.structuredContent);
    expect(stale.forecast).toMatchObject({ stale: true, issued_at: fresh.forecast?.issued_at });
    expect(stale.forecast?.note).toMatch(/older cached forecast/);
    expect(resultText(result)).toMatch(/older cached forecast/);
    await client.close();
  });

  it('missing values (nulls) everywhere are a tool error that says too few hours were usable', async () => {
    // Issue 11 changed this rule: a forecast with too few usable hours is an error, not "no forecast here".
    const { client, find, fail } = await rig();
    fail('nulls');
    const result = await find();
    expect(result.isError).toBe(true);
    expect(resultText(result)).toMatch(
      /too few usable hours: at most 0 of 72 \(\d+ held impossible or missing/,
    );
    await client.close();
  });
});
