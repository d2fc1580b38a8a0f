/**
 * The baseline: the least a Node HTTP server can do, answering every request
 * with the same bytes as the real `/v1/tailwind` answer. It runs in its own
 * process (started by index.ts) so it never shares an event loop with
 * autocannon, exactly like the service. Env: PORT, HOST, BENCH_BODY, and
 * BENCH_HEADERS (JSON) to send the service's own headers instead of the two a
 * JSON answer needs, which separates the cost of the bytes the API must send
 * from the cost of the API's code.
 */
import { createServer } from 'node:http';

const port = Number(process.env['PORT']);
const host = process.env['HOST'] ?? '127.0.0.1';
const bodyText = process.env['BENCH_BODY'];
if (!Number.isInteger(port) || port <= 0 || bodyText === undefined) {
  console.error('baseline-server needs PORT and BENCH_BODY in its environment.');
  process.exit(2);
}

const body = Buffer.from(bodyText, 'utf8');
const extra = process.env['BENCH_HEADERS'];
const headers: Record<string, string> = extra
  ? (JSON.parse(extra) as Record<string, string>)
  : { 'Content-Type': 'application/json', 'Content-Length': String(body.byteLength) };

createServer((_request, response) => {
  response.writeHead(200, headers);
  response.end(body);
}).listen(port, host);
