import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { edgeError } from '../app/edge-errors.ts';
import { pathFacts } from '../app/paths.ts';
import { readBoundedBody, tooLargeDetail } from '../http/bounded-body.ts';
import { lingerThenClose } from './linger.ts';

/**
 * How much of a refused body the server still reads and discards to keep
 * the connection open for the next request. Past it, the answer says
 * `Connection: close` and the connection ends: reading megabytes nobody
 * wants costs more than the client's new connection.
 */
export const DRAIN_MAX_BYTES = 1024 * 1024;

/**
 * Ends the connection after the answer without the reset: Node would
 * destroy it as soon as the answer is written; here the write side closes
 * and the read side keeps discarding until the client closes too (or the
 * linger passes).
 */
function lingerOnClose(socket: Socket): void {
  socket.destroySoon = function destroySoonLingering(this: Socket) {
    if (this.writable) this.end();
    lingerThenClose(this);
  };
}

/**
 * The largest body the path takes, from the path table (`src/app/paths.ts`,
 * listed in docs/operating.md): one JSON-RPC message at the MCP addresses, a
 * form elsewhere, more where a path takes an upload. A path whose part reads
 * no body (none reaches this listener) takes nothing.
 */
export function bodyLimitFor(path: string): number {
  return pathFacts(path).body ?? 0;
}

/** A request that carries a body srvx would read: not GET/HEAD, with a length or a transfer coding. */
function carriesBody(request: IncomingMessage): boolean {
  if (request.method === 'GET' || request.method === 'HEAD') return false;
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

type BodyOutcome = Buffer | 'too_large' | 'aborted';

/**
 * Reads the body into memory with the one body reader, over an iterator
 * that leaves the socket open when it stops, so a 413 can still be written;
 * past `limit` the rest is read into nothing until the connection closes.
 */
async function readUpTo(request: IncomingMessage, limit: number): Promise<BodyOutcome> {
  const body = await readBoundedBody(request.iterator({ destroyOnReturn: false }), { max: limit });
  if (body.kind === 'read') return body.bytes;
  if (body.kind === 'unreadable') return 'aborted';
  request.on('data', () => undefined);
  return 'too_large';
}

/** The 413 in the error style the path table gives the path (JSON-RPC, problem or OAuth). */
function tooLargeBody(request: IncomingMessage, path: string, limit: number) {
  const detail = tooLargeDetail(limit);
  const scheme = (request.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http';
  const docsUrl = `${scheme}://${request.headers.host ?? 'localhost'}/docs`;
  return edgeError(path, { code: 'payload_too_large', detail }, docsUrl);
}

/**
 * Reads a request body before the fetch handler sees it (srvx then serves it
 * from `rawBody`), so a handler that answers without reading the body, or
 * stops halfway, can never leave unread bytes in front of the connection's
 * next request. A body over the path's limit gets a 413 at once: when the
 * client declared a length up to {@link DRAIN_MAX_BYTES} and nothing was read
 * yet, Node discards the body after the answer and the connection stays
 * open; otherwise the answer says `Connection: close` and the server closes.
 *
 * Resolves true when the request is ready for the handler, false when it
 * has been answered (or the client went away).
 */
export async function bufferBody(
  request: IncomingMessage,
  response: ServerResponse,
  path: string,
): Promise<boolean> {
  if (!carriesBody(request)) return true;
  const limit = bodyLimitFor(path);
  const declared = Number(request.headers['content-length'] ?? Number.NaN);
  const outcome = declared > limit ? 'too_large' : await readUpTo(request, limit);
  if (outcome === 'aborted') return false;
  if (outcome !== 'too_large') {
    (request as IncomingMessage & { rawBody?: Buffer }).rawBody = outcome;
    return true;
  }
  const drainable = declared > limit && declared <= DRAIN_MAX_BYTES;
  if (!drainable) {
    response.shouldKeepAlive = false;
    lingerOnClose(request.socket);
  }
  const { headers, body } = tooLargeBody(request, path, limit);
  response.writeHead(413, {
    ...headers,
    'content-length': String(Buffer.byteLength(body)),
    'access-control-allow-origin': '*',
  });
  response.end(body);
  return false;
}
