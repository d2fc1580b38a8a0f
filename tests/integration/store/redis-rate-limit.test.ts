import { afterAll, describe, expect, it } from 'vitest';
import { createMcpEndpoint } from '../../../src/mcp/endpoint.ts';
import { PUBLIC_TOOLS } from '../../../src/mcp/tools/public.ts';
import { createRedisRateLimiter } from '../../../src/store/shared-state/rate-limiter.ts';
import { connectClient, inProcessFetch, toolErrorText } from '../../support/mcp-client.ts';
import { TEST_MCP_URL, testDeps } from '../../support/mcp-deps.ts';
import { mcpConfigFromEnv } from '../../support/settings.ts';
import { redisRelay, redisUnavailable, testClients, testPrefix } from '../../store/redis-server.ts';

const unavailable = await redisUnavailable();
if (unavailable) console.warn(`Redis rate-limit tests skipped: ${unavailable}`);

describe.skipIf(unavailable !== null)('MCP per-connection limit shared through Redis', () => {
  const prefix = testPrefix('mcp-rate');
  const { open, closeAll } = testClients(prefix);
  afterAll(async () => {
    await closeAll();
  });

  /** An endpoint as one instance builds it: its own Redis connection, the shared key prefix. */
  function instance(keyPrefix: string, url?: string) {
    const mcp = { ...mcpConfigFromEnv({}), rateBurst: 3, ratePerMinute: 6 };
    const limiter = createRedisRateLimiter(open(url), { perMinute: 6, burst: 3, prefix: keyPrefix });
    return createMcpEndpoint({ deps: testDeps(), api: {}, mcp, tools: PUBLIC_TOOLS, limiter });
  }

  const call = async (endpoint: ReturnType<typeof instance>, address: string) => {
    const client = await connectClient(TEST_MCP_URL, '2026-07-28', inProcessFetch(endpoint, address));
    const result = await client.callTool({
      name: 'get_segment',
      arguments: { segment_id: 'fr-alpe-d-huez' },
    });
    await client.close();
    return result;
  };

  it('two endpoints share one allowance per client address, and other addresses keep theirs', async () => {
    const keyPrefix = `${prefix}shared`;
    const one = instance(keyPrefix);
    const two = instance(keyPrefix);
    const outcomes = [];
    for (const endpoint of [one, two, one])
      outcomes.push((await call(endpoint, '203.0.113.7')).isError ?? false);
    expect(outcomes).toEqual([false, false, false]);
    // The burst of 3 is spent across both instances: the fourth call, on either, is refused.
    const refused = toolErrorText(await call(two, '203.0.113.7'));
    expect(refused).toMatch(/Rate limit reached for this connection\. Wait \d+ s/);
    const wait = Number(/Wait (\d+) s/.exec(refused)?.[1]);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(30);
    expect((await call(one, '198.51.100.4')).isError).toBeFalsy();
  });

  it('when Redis goes away each instance limits on its own instead of failing calls', async () => {
    const relay = await redisRelay();
    const endpoint = instance(`${prefix}gone`, relay.url);
    expect((await call(endpoint, '192.0.2.1')).isError).toBeFalsy();
    await relay.close();
    const results = [];
    for (let i = 0; i < 4; i += 1) results.push(await call(endpoint, '192.0.2.1'));
    // Still an answer every time: tool results, the last ones refused by the in-memory insurance limit.
    expect(results.slice(0, 3).every((r) => !r.isError)).toBe(true);
    expect(toolErrorText(results[3] ?? {})).toMatch(/Rate limit reached/);
  });
});
