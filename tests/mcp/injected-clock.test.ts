import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApiHandler } from '../../src/rest/handler.ts';
import { PUBLIC_TOOLS } from '../../src/mcp/tools/public.ts';
import { connectClient, inProcessFetch } from '../support/mcp-client.ts';
import { TEST_MCP_URL, testDeps, testEndpoint } from '../support/mcp-deps.ts';
import { callsFor } from '../support/tool-calls.ts';

/**
 * Every answer is read at the clock the composition root injects (`deps.now`), never at the
 * machine's: the same calls at two real times, days apart, must answer byte for byte alike. A tool
 * or endpoint that read `Date.now()` would name another "now", another issue time or other windows.
 */
const REAL_TIMES = [Date.UTC(2026, 11, 7, 12, 0), Date.UTC(2027, 2, 14, 23, 30)];
const UNLIMITED = { ratePerMinute: 1e6, rateBurst: 1e6 };
const allow = { take: async () => ({ allowed: true, retryAfterS: 0 }) };
const REST_PATHS = [
  '/v1/segments?lat=42.55&lon=1.6&radius_km=30&limit=5',
  '/v1/segments?place=Girona',
  '/v1/segments/fr-alpe-d-huez',
];

/** Runs `answers` with the machine's clock set to `at`; nothing else is faked. */
async function atRealTime<T>(at: number, answers: () => Promise<T>): Promise<T> {
  vi.useFakeTimers({ toFake: ['Date'], now: at });
  try {
    return await answers();
  } finally {
    vi.useRealTimers();
  }
}

afterEach(() => {
  vi.useRealTimers();
});

describe('answers read the injected clock, not the machine’s', () => {
  it('the public tools answer alike at two real times', async () => {
    const calls = callsFor(PUBLIC_TOOLS.map((tool) => tool.name));
    const answered: string[][] = [];
    for (const at of REAL_TIMES)
      answered.push(
        await atRealTime(at, async () => {
          const endpoint = testEndpoint(testDeps(), UNLIMITED);
          const client = await connectClient(TEST_MCP_URL, '2026-07-28', inProcessFetch(endpoint));
          const texts: string[] = [];
          for (const call of calls) texts.push(JSON.stringify(await client.callTool(call)));
          await client.close();
          return texts;
        }),
      );
    expect(answered[0]?.length).toBe(calls.length);
    expect(answered[1]).toEqual(answered[0]);
  });

  it('the REST segment endpoints answer alike at two real times', async () => {
    const answered: string[][] = [];
    for (const at of REAL_TIMES)
      answered.push(
        await atRealTime(at, async () => {
          const handle = createApiHandler(
            {},
            { data: async () => ({ ...testDeps(), limiter: allow }), memo: 0 },
          );
          const texts: string[] = [];
          for (const path of REST_PATHS) {
            const response = await handle(new Request(`http://api.test${path}`));
            texts.push(
              `${response.status} ${response.headers.get('cache-control')} ${await response.text()}`,
            );
          }
          return texts;
        }),
      );
    expect(answered[0]?.every((text) => text.startsWith('200 '))).toBe(true);
    expect(answered[1]).toEqual(answered[0]);
  });
});
