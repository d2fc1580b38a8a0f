import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { MAX_REGISTRATION_BYTES } from '../auth/registration.ts';
import { BILLING_WEBHOOK_MAX_BYTES, BILLING_WEBHOOK_PATH } from '../billing/stripe-webhook.ts';
import { AUTH_BASE_PATH, mcpAddressOf } from '../rider/access-policy.ts';
import { OWN_SEGMENT_UPLOAD_MAX_BYTES, OWN_SEGMENTS_PATH } from '../account/own-segments-api.ts';
import { WEBHOOK_BODY_MAX_BYTES, WEBHOOK_PATH } from '../account/webhook-setting.ts';
import { answersProblems } from '../app/rider-routes.ts';
import { problemDocument } from '../core/problems.ts';
import { MCP_MAX_BODY_BYTES } from '../mcp/endpoint.ts';

/**
 * The largest request body each path of the MCP side takes, in one table
 * (docs/operating.md lists it under "HTTP edges"). The MCP addresses take
 * one JSON-RPC message; the sign-in forms and the webhook setting are a few
 * hundred bytes. Paths not listed (the metadata documents, the rider's GET
 * endpoints) take {@link OTHER_BODY_MAX_BYTES}.
 */
export const BODY_LIMITS: Readonly<Record<string, number>> = {
  '/mcp': MCP_MAX_BODY_BYTES,
  '/mcp/rider': MCP_MAX_BODY_BYTES,
  [WEBHOOK_PATH]: WEBHOOK_BODY_MAX_BYTES,
  [OWN_SEGMENTS_PATH]: OWN_SEGMENT_UPLOAD_MAX_BYTES,
  [BILLING_WEBHOOK_PATH]: BILLING_WEBHOOK_MAX_BYTES,
  [`${AUTH_BASE_PATH}/oauth2/register`]: MAX_REGISTRATION_BYTES,
};

/** Every other MCP-side path: sign-up, sign-in, token and consent forms are well under 16 KB. */
export const OTHER_BODY_MAX_BYTES = 16 * 1024;

/**
 * How much of a refused body the server still reads and discards to keep
 * the connection open for the next request. Past it, the answer says
 * `Connection: close` and the connection ends: reading megabytes nobody
 * wants costs more than the client's new connection.
 */
export const DRAIN_MAX_BYTES = 1024 * 1024;

/**
 * How long a connection refused for its body stays open to read what the
 * client is still sending. Closing with unread bytes makes the kernel send
 * a reset, which can destroy the 413 before the client reads it; a client
 * that has read it stops sending, so this is rarely reached.
 */
export const LINGER_MS = 2000;

/**
 * Ends the connection after the answer without the reset: Node would
 * destroy it as soon as the answer is written; here the write side closes
 * and the read side keeps discarding until the client closes too or
 * {@link LINGER_MS} pass.
 */
function lingerOnClose(socket: Socket): void {
  socket.destroySoon = function destroySoonLingering(this: Socket) {
    if (this.writable) this.end();
    const timer = setTimeout(() => this.destroy(), LINGER_MS);
    timer.unref();
    this.once('close', () => clearTimeout(timer));
    this.on('end', () => this.destroy());
    this.resume();
  };
}

/** The limit of a path; `/mcp/` and `/mcp/rider/` are the MCP addresses and take theirs (`mcpAddressOf`). */
export function bodyLimitFor(spelled: string): number {
  const path = mcpAddressOf(spelled) ?? spelled;
  return Object.hasOwn(BODY_LIMITS, path)
    ? (BODY_LIMITS[path] ?? OTHER_BODY_MAX_BYTES)
    : OTHER_BODY_MAX_BYTES;
}

/** A request that carries a body srvx would read: not GET/HEAD, with a length or a transfer coding. */
function carriesBody(request: IncomingMessage): boolean {
  if (request.method === 'GET' || request.method === 'HEAD') return false;
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

type BodyOutcome = Buffer | 'too_large' | 'aborted';

/** Reads the body into memory, stopping (and leaving the stream flowing into nothing) past `limit`. */
function readUpTo(request: IncomingMessage, limit: number): Promise<BodyOutcome> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (outcome: BodyOutcome) => {
      request.off('data', onData).off('end', onEnd).off('close', onClose);
      resolve(outcome);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > limit) {
        // Keep consuming what is still on the way, so the socket is read until it closes.
        request.on('data', () => undefined);
        finish('too_large');
      } else chunks.push(chunk);
    };
    const onEnd = () => finish(Buffer.concat(chunks));
    const onClose = () => finish('aborted');
    request.on('data', onData).on('end', onEnd).on('close', onClose);
  });
}

/**
 * The 413 in the shape of the path's clients: a JSON-RPC error for the MCP
 * addresses, a problem document for the settings API and payments, the
 * OAuth error shape for the sign-in paths.
 */
function tooLargeBody(request: IncomingMessage, path: string, limit: number) {
  const size = limit >= 1024 * 1024 ? `${limit / 1024 / 1024} MB` : `${limit / 1024} KB`;
  const message = `The request body is larger than the ${size} this address takes.`;
  if (mcpAddressOf(path) !== undefined) {
    const body = JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32600, message } });
    return { body, type: 'application/json' };
  }
  if (answersProblems(path)) {
    const scheme = (request.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http';
    const docsUrl = `${scheme}://${request.headers.host ?? 'localhost'}/docs`;
    const body = JSON.stringify(
      problemDocument('payload_too_large', { detail: message, instance: path, docsUrl }),
    );
    return { body, type: 'application/problem+json' };
  }
  return {
    body: JSON.stringify({ error: 'payload_too_large', error_description: message }),
    type: 'application/json',
  };
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
  const { body, type } = tooLargeBody(request, path, limit);
  response.writeHead(413, {
    'content-type': type,
    'content-length': String(Buffer.byteLength(body)),
    'cache-control': 'no-store',
    'access-control-allow-origin': '*',
  });
  response.end(body);
  return false;
}
