import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exchange, type RawResponse } from '../../support/raw-http.ts';
import { startService, type RunningService } from '../../support/service.ts';
import {
  expectedStatus,
  isApiTarget,
  mustClose,
  requestArbitrary,
  toBytes,
  type TableRequest,
} from '../../contract/request-table.ts';

let service: RunningService;
let port: number;

beforeAll(async () => {
  service = await startService();
  port = Number(new URL(service.baseUrl).port);
});
afterAll(() => service?.stop());

/** How many requests the fuzz must see answered, at least (the bar). */
const MIN_ANSWERED = 10_000;

/** Where a request's answer breaks the contract, or undefined. */
function contractBreach(request: TableRequest, response: RawResponse): string | undefined {
  const { status, headers, body } = response;
  if (status < 100 || status > 599) return `no valid status line (${headers['error'] ?? status})`;
  if (status >= 500) return `a ${status}`;
  if (headers['cache-control'] === undefined) return 'no Cache-Control';
  const expected = expectedStatus(request);
  const allowed = expected === undefined ? undefined : ([] as number[]).concat(expected);
  if (allowed && !allowed.includes(status)) return `status ${status}, expected ${allowed.join(' or ')}`;
  const type = headers['content-type'] ?? '';
  const edgeRefusal = request.fault !== 'none';
  if ((isApiTarget(request.path) || edgeRefusal) && status >= 400) {
    if (!type.startsWith('application/problem+json')) return `a ${status} as ${type || 'no content type'}`;
    if (headers['access-control-allow-origin'] !== '*') return 'a problem without CORS';
    if (request.method === 'HEAD') return undefined;
    const problem = JSON.parse(body) as { status?: unknown; type?: unknown; code?: unknown };
    if (problem.status !== status) return `problem status ${String(problem.status)} on a ${status}`;
    if (typeof problem.type !== 'string' || !/^https?:\/\/[^/]/.test(problem.type)) {
      return `problem type ${String(problem.type)} is not absolute`;
    }
    if (typeof problem.code !== 'string') return 'problem without code';
    if (edgeRefusal && headers['cache-control'] !== 'no-store')
      return `edge refusal cached: ${headers['cache-control']}`;
  }
  if (
    status >= 400 &&
    request.method !== 'HEAD' &&
    !/^(text\/html|application\/(problem\+)?json)/.test(type)
  ) {
    return `an error as ${type || 'no content type'}`;
  }
  return undefined;
}

describe('npm start: the listener answers every raw request by the contract', () => {
  it(`answers at least ${MIN_ANSWERED} fuzzed requests on pipelined and keep-alive connections`, async () => {
    let answered = 0;
    let sent = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(requestArbitrary(port), { minLength: 3, maxLength: 12 }),
        fc.boolean(),
        async (generated, pipelined) => {
          // An HTTP/1.0 answer without a length can only end by closing (RFC 9112 §9.3), which loses
          // whatever was pipelined behind it: 1.0 requests go last in a sequence.
          const requests = generated.map((request, i) =>
            request.version === '1.0' && i < generated.length - 1
              ? { ...request, version: '1.1' as const }
              : request,
          );
          const wire = requests.map((request) => ({
            bytes: toBytes(request),
            head: request.method === 'HEAD',
          }));
          sent += wire.length;
          const log = await exchange(port, wire, { pipelined });
          answered += log.responses.length;
          log.responses.forEach((response, i) => {
            const request = requests[i] as TableRequest;
            const breach = contractBreach(request, response);
            if (breach) {
              const sequence = requests.map(
                (r, j) => `${j === i ? '>' : ' '} ${r.method} ${r.target.slice(0, 60)} ${r.fault}`,
              );
              throw new Error(
                `${breach}\n${pipelined ? 'pipelined' : 'keep-alive'}:\n${sequence.join('\n')}`,
              );
            }
            if (mustClose(request)) expect(response.headers['connection']?.toLowerCase()).toBe('close');
          });
          // Every request is answered until the server says it closes; then it closes cleanly.
          const last = log.responses.at(-1);
          if (log.responses.length < requests.length) {
            const seen = log.responses.map((r) => `${r.status} ${r.headers['connection'] ?? '-'}`).join(', ');
            const story = `${log.end} ${log.error ?? ''} after ${log.responses.length}/${requests.length} (${seen}) ${JSON.stringify(log.leftover)}\nserver: ${service.output().slice(-600)}`;
            expect(log.end, story).not.toBe('timeout');
            expect(last?.headers['connection']?.toLowerCase(), `closed without saying so: ${story}`).toBe(
              'close',
            );
          }
        },
      ),
      { numRuns: 1600, endOnFailure: true },
    );
    console.log(`listener fuzz: ${sent} raw requests sent, ${answered} answered`);
    expect(sent).toBeGreaterThanOrEqual(MIN_ANSWERED);
    expect(answered).toBeGreaterThanOrEqual(MIN_ANSWERED);
  }, 240_000);
});
