/**
 * The baseline: the least a Node HTTP server can do, answering every request
 * with the same bytes as the real `/v1/tailwind` answer. It runs in its own
 * process (started by index.ts) so it never shares an event loop with
 * autocannon, exactly like the service. Env: PORT, HOST, BENCH_BODY.
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
const headers = { 'Content-Type': 'application/json', 'Content-Length': String(body.byteLength) };

createServer((_request, response) => {
  response.writeHead(200, headers);
  response.end(body);
}).listen(port, host);
