/**
 * A digest of what the REST data endpoints and the MCP segment tools answer,
 * byte for byte, over a spread of generated calls: every embedded segment by
 * id (REST `/v1/segments/{id}` and `get_segment`, with and without darkness),
 * `/v1/segments` and `find_tailwind_segments` at generated points and names,
 * and the answers of a failing forecast. Run it on two commits and compare:
 * a change that must not move a wire form prints the same digests.
 *
 * `node bench/answer-bytes.ts [--calls N] [--print]`
 */
import { createHash } from 'node:crypto';
import { parseArgs } from 'node:util';
import { ForecastError } from '../src/data/forecast/types.ts';
import { loadEmbeddedSegments } from '../src/data/segments/load.ts';
import { createApiHandler } from '../src/rest/handler.ts';
import { failingForecast, testDeps, testEndpoint } from '../tests/support/mcp-deps.ts';
import { call, type McpCall } from './mcp-calls.ts';

const { values } = parseArgs({
  options: { calls: { type: 'string', default: '300' }, print: { type: 'boolean', default: false } },
});

const NAMES = ['Paris', 'Paris, US', 'Girona', 'Valencia', 'Mallorca', 'Hobart', 'Boulder, CO', 'Nowhere'];
const allow = { take: async () => ({ allowed: true, retryAfterS: 0 }) };

/** A small deterministic generator (mulberry32), so both commits see the same calls. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function restPaths(count: number): string[] {
  const next = random(7);
  const paths = loadEmbeddedSegments().map((segment) => `/v1/segments/${segment.id}`);
  paths.push('/v1/segments/nope', '/v1/segments?place=Nowhere-by-the-Sea');
  for (let i = 0; i < count; i++) {
    const radius = 1 + Math.floor(next() * 100);
    const limit = 1 + Math.floor(next() * 25);
    if (next() < 0.3) {
      const name = NAMES[Math.floor(next() * NAMES.length)] ?? 'Paris';
      paths.push(`/v1/segments?place=${encodeURIComponent(name)}&radius_km=${radius}&limit=${limit}`);
    } else {
      const lat = (next() * 130 - 60).toFixed(3);
      const lon = (next() * 360 - 180).toFixed(3);
      paths.push(`/v1/segments?lat=${lat}&lon=${lon}&radius_km=${radius}&limit=${limit}`);
    }
  }
  return paths;
}

function toolCalls(count: number): McpCall[] {
  const next = random(11);
  const calls: McpCall[] = [];
  let id = 1;
  for (const segment of loadEmbeddedSegments()) {
    for (const include_darkness of [false, true]) {
      const args = { segment_id: segment.id, include_darkness };
      calls.push(call('2026-07-28', id++, 'tools/call', { name: 'get_segment', arguments: args }));
    }
  }
  for (let i = 0; i < count; i++) {
    const args =
      next() < 0.3
        ? { place: NAMES[Math.floor(next() * NAMES.length)] ?? 'Paris' }
        : { latitude: next() * 130 - 60, longitude: next() * 360 - 180 };
    const extra = { radius_m: 1000 * (1 + Math.floor(next() * 100)), include_darkness: next() < 0.5 };
    calls.push(
      call('2026-07-28', id++, 'tools/call', {
        name: 'find_tailwind_segments',
        arguments: { ...args, ...extra },
      }),
    );
  }
  return calls;
}

async function restDigest(paths: readonly string[], failing: boolean): Promise<string> {
  const forecast = failing ? { forecast: failingForecast(new ForecastError('timeout', 'No answer.')) } : {};
  const data = { ...testDeps(forecast), limiter: allow };
  const handle = createApiHandler({}, { data: async () => data, memo: 0 });
  const hash = createHash('sha256');
  for (const path of paths) {
    const response = await handle(new Request(`http://api.test${path}`));
    const headers = [...response.headers].map(([name, value]) => `${name}: ${value}`).join('\n');
    const text = `${path}\n${response.status}\n${headers}\n\n${await response.text()}\n`;
    if (values.print) process.stdout.write(text);
    hash.update(text);
  }
  return hash.digest('hex');
}

async function toolDigest(calls: readonly McpCall[], failing: boolean): Promise<string> {
  const forecast = failing ? { forecast: failingForecast(new ForecastError('timeout', 'No answer.')) } : {};
  const endpoint = testEndpoint(testDeps(forecast), { ratePerMinute: 1e9, rateBurst: 1e9 });
  const hash = createHash('sha256');
  for (const { headers, body } of calls) {
    const request = new Request('http://localhost:3000/mcp', {
      method: 'POST',
      headers: { ...headers, host: 'localhost:3000' },
      body,
    });
    const text = `${body}\n${await (await endpoint(request, { address: '127.0.0.1' })).text()}\n`;
    if (values.print) process.stdout.write(text);
    hash.update(text);
  }
  return hash.digest('hex');
}

const count = Number(values.calls);
const paths = restPaths(count);
const calls = toolCalls(count);
console.log(`REST, ${paths.length} calls: ${await restDigest(paths, false)}`);
console.log(`REST, failing forecast: ${await restDigest(paths.slice(0, 20), true)}`);
console.log(`MCP, ${calls.length} calls: ${await toolDigest(calls, false)}`);
console.log(`MCP, failing forecast: ${await toolDigest(calls.slice(0, 20), true)}`);
