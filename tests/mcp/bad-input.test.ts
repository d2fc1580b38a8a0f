import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureGazetteer } from '../../scripts/data/gazetteer.ts';
import { ForecastError } from '../../src/data/forecast/types.ts';
import { connectClient, ERAS, inProcessFetch, toolErrorText } from '../support/mcp-client.ts';
import { failingForecast, TEST_MCP_URL, testDeps, testEndpoint } from '../support/mcp-deps.ts';

const BAD_FIND: [string, Record<string, unknown>, RegExp][] = [
  ['latitude out of range', { latitude: 95, longitude: 6 }, /latitude must be between -90 and 90/],
  ['longitude out of range', { latitude: 45, longitude: -181 }, /longitude must be between -180 and 180/],
  ['latitude without longitude', { latitude: 45 }, /latitude and longitude together/],
  ['place and coordinates', { place: 'Grenoble', latitude: 45, longitude: 6 }, /either place or latitude/],
  ['nothing at all', {}, /either place or latitude/],
  ['an oversized place', { place: 'x'.repeat(10_000) }, /at most 120 characters/],
  ['a blank place', { place: '   ' }, /must not be empty/],
  ['a number as text', { latitude: '45', longitude: 6 }, /latitude/],
  ['a radius over 100 km', { place: 'Grenoble', radius_m: 150_000 }, /at most 100000/],
  ['a fractional limit', { place: 'Grenoble', limit: 2.5 }, /limit/],
];

describe.each(ERAS)('bad input gets a tool error that says what to do, protocol %s', (era) => {
  let client: Client;
  beforeAll(async () => {
    await ensureGazetteer();
    client = await connectClient(TEST_MCP_URL, era, inProcessFetch(testEndpoint()));
  });
  afterAll(() => client.close());

  it.each(BAD_FIND)('find_tailwind_segments with %s', async (_, args, message) => {
    const result = await client.callTool({ name: 'find_tailwind_segments', arguments: args });
    expect(toolErrorText(result)).toMatch(message);
  });

  it('an unknown place is answered with suggestions and the ways out', async () => {
    const result = await client.callTool({
      name: 'find_tailwind_segments',
      arguments: { place: 'Grenoblle' },
    });
    const message = toolErrorText(result);
    expect(message).toMatch(/No place named "Grenoblle"/);
    expect(message).toMatch(/Did you mean: .*"Grenoble, FR"/);
    expect(message).toMatch(/latitude and longitude/);
  });

  it.each([
    ['an unknown id', 'xx-nowhere', /No segment has the id "xx-nowhere".*find_tailwind_segments/],
    ['an id that is not a slug', 'DROP TABLE; --', /lower-case slug/],
    ['an oversized id', 'a'.repeat(500), /at most 100 characters/],
    ['a number', 42, /segment_id/],
  ])('get_segment with %s', async (_, segmentId, message) => {
    const result = await client.callTool({ name: 'get_segment', arguments: { segment_id: segmentId } });
    expect(toolErrorText(result)).toMatch(message);
  });

  it('an unknown tool is a protocol error naming it', async () => {
    await expect(client.callTool({ name: 'get_forecast', arguments: {} })).rejects.toThrow(/get_forecast/);
  });
});

describe('failures beyond the caller', () => {
  it('a weather service failure becomes a tool error with its advice', async () => {
    const deps = testDeps({
      forecast: failingForecast(new ForecastError('timeout', 'Open-Meteo did not answer within 4 s.')),
    });
    const client = await connectClient(TEST_MCP_URL, '2026-07-28', inProcessFetch(testEndpoint(deps)));
    const result = await client.callTool({
      name: 'get_segment',
      arguments: { segment_id: 'fr-alpe-d-huez' },
    });
    // Busy, not unreachable: when to ask again, then what the service did.
    expect(toolErrorText(result)).toMatch(
      /^\S+ is busy: try again at \d\d:\d\d UTC\. Open-Meteo did not answer within 4 s\.$/,
    );
    await client.close();
  });

  it('an unexpected failure is reported without internals', async () => {
    const deps = testDeps({ forecast: failingForecast(new TypeError('secret internal detail')) });
    const client = await connectClient(TEST_MCP_URL, '2025', inProcessFetch(testEndpoint(deps)));
    const result = await client.callTool({
      name: 'get_segment',
      arguments: { segment_id: 'fr-alpe-d-huez' },
    });
    const message = toolErrorText(result);
    expect(message).toMatch(/failed unexpectedly/);
    expect(message).not.toMatch(/secret/);
    await client.close();
  });

  it('past the per-connection limit the answer says how long to wait', async () => {
    const endpoint = testEndpoint(testDeps(), { rateBurst: 2, ratePerMinute: 6 });
    const client = await connectClient(TEST_MCP_URL, '2026-07-28', inProcessFetch(endpoint, '203.0.113.9'));
    const call = () => client.callTool({ name: 'get_segment', arguments: { segment_id: 'fr-alpe-d-huez' } });
    expect((await call()).isError).toBeFalsy();
    expect((await call()).isError).toBeFalsy();
    // A window of 2 calls at 6 a minute lasts 20 s, from the first call.
    expect(toolErrorText(await call())).toMatch(/Rate limit reached for this connection\. Wait 20 s/);
    const other = await connectClient(TEST_MCP_URL, '2026-07-28', inProcessFetch(endpoint, '203.0.113.10'));
    expect(
      (await other.callTool({ name: 'get_segment', arguments: { segment_id: 'fr-alpe-d-huez' } })).isError,
    ).toBeFalsy();
    await Promise.all([client.close(), other.close()]);
  });
});
