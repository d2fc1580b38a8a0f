import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { Duplex } from 'node:stream';
import { Socket } from 'node:net';
import { problemReply, rawHttpResponse } from '../rest/problem-reply.ts';
import { lingerThenClose } from './linger.ts';
import { ownOrigin } from './request-head.ts';
import { connectRefusal, readRefusal, type ParserError, type RefusedRequest } from './refused-request.ts';

/**
 * The most bytes of request line and headers Node's parser reads: its
 * historic default, five times the limits the listener applies itself
 * (`MAX_TARGET_BYTES`, `MAX_HEAD_BYTES` in `src/rest/edge-refusals.ts`). Heads
 * between the two reach the listener whole, so it can say exactly whether
 * the target (414) or the headers (431) were too long; only heads beyond
 * this one are refused by the parser, where that is a guess.
 */
export const MAX_HEADER_BYTES = 80 * 1024;

export interface HttpServerOptions {
  /** The configured API guide (`{docs_url}`); unset, problems link to `/docs` on the connection's own origin. */
  readonly docsUrl?: string | undefined;
}

function docsFor(socket: Duplex, docsUrl: string | undefined): string {
  if (docsUrl) return docsUrl;
  return `${socket instanceof Socket ? ownOrigin(socket) : 'http://localhost'}/docs`;
}

/** The response a socket is writing, if any (Node's own default handler reads the same field). */
function currentResponse(socket: Duplex): ServerResponse | undefined {
  return (socket as { _httpMessage?: ServerResponse | null })._httpMessage ?? undefined;
}

/**
 * Node hands a CONNECT's socket over with the HTTP server's `drain` listener
 * removed, yet an answer to a request pipelined before the CONNECT may still
 * be writing to it: a streamed page over 64 KB waits for that `drain` after
 * its first chunk and would never go on (the refusal waits for it in turn).
 * The socket's `drain` is passed on to that answer here instead.
 */
function relayDrain(socket: Duplex): void {
  socket.on('drain', () => {
    const current = currentResponse(socket);
    if (current?.writableNeedDrain) current.emit('drain');
  });
}

/** How long a refusal waits for the answers to earlier pipelined requests before giving up on them. */
const PIPELINE_WAIT_MS = 10_000;

/**
 * Runs `then` once the answers to the requests before this one on the
 * connection have been written: HTTP/1.1 answers pipelined requests in
 * order, and a refusal written at once would overtake them.
 */
function afterEarlierAnswers(
  socket: Duplex,
  then: () => void,
  deadline = Date.now() + PIPELINE_WAIT_MS,
): void {
  const current = currentResponse(socket);
  if (!current || socket.destroyed) return then();
  if (Date.now() > deadline) return void socket.destroy();
  let waited = false;
  const next = () => {
    if (waited) return;
    waited = true;
    setImmediate(() => afterEarlierAnswers(socket, then, deadline));
  };
  current.once('finish', next).once('close', next);
}

/** Writes the refusal as raw HTTP and closes: nothing else on this connection can be trusted. */
function answerOnSocket(socket: Duplex, refused: RefusedRequest, docsUrl: string | undefined): void {
  afterEarlierAnswers(socket, () => {
    if (!socket.writable) return lingerThenClose(socket);
    const reply = problemReply(refused.error, refused.path, docsFor(socket, docsUrl));
    // Always with its body, even when the refused request looks like a HEAD: which request of the
    // packet failed is a guess, and the connection closes after this answer, so the body cannot be
    // read as the next answer.
    socket.end(rawHttpResponse(reply));
    lingerThenClose(socket);
  });
}

/**
 * The Node HTTP server behind `npm start`, with every request answered by
 * the contract, including those that never reach the request listener:
 *
 * - Node's parser rejections (an unknown or lowercase method, a head over
 *   {@link MAX_HEADER_BYTES}, malformed syntax, a timeout) arrive at the
 *   `clientError` hook, where Node would send a bare 400/431; here they get
 *   the same problem+json the API sends, CORS and `Cache-Control` included;
 * - CONNECT (Node hands the socket to `connect` listeners and, without one,
 *   drops it silently) gets a 405 problem;
 * - `requireHostHeader` is off so that a missing Host reaches the listener,
 *   which answers it with a problem instead of Node's bare 400.
 */
export function createHttpServer(listener: RequestListener, { docsUrl }: HttpServerOptions = {}): Server {
  const server = createServer(
    { maxHeaderSize: MAX_HEADER_BYTES, requireHostHeader: false, insecureHTTPParser: false },
    listener,
  );
  server.on('clientError', (error: ParserError, socket: Duplex) => {
    if (error.code === 'ECONNRESET') return void socket.destroy();
    // Already answered and ending (the parser trips again on what the client pipelined behind the
    // refused request): keep draining. Destroying now, with unread bytes, would send a reset that
    // can wipe out the answers still on their way to the client.
    if (!socket.writable) return lingerThenClose(socket);
    answerOnSocket(socket, readRefusal(error, MAX_HEADER_BYTES), docsUrl);
  });
  server.on('connect', (request: IncomingMessage, socket: Duplex) => {
    socket.on('error', () => socket.destroy());
    relayDrain(socket);
    answerOnSocket(socket, connectRefusal(request.url), docsUrl);
  });
  return server;
}
