/**
 * The REST function as a Node-style `(req, res)` handler (decision 0045). Vercel's Node runtime hands a
 * function Node's request and response; a `fetch` function makes it build a web `Request` from them
 * first and copy the `Response` back, and the first `Request` of a process loads undici (tens of
 * milliseconds of a cold start) for an API that reads only a method, a URL and one header. The
 * replier (`createApiReplier`) already answers plain data, so this writes its `Reply` straight to Node's
 * response, as `npm start` does (`src/server/api-listener.ts`).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { platformClientAddress } from '../http/client-address.ts';
import type { ApiReplier } from '../rest/replier.ts';
import type { Reply } from '../rest/headers.ts';
import type { PageReply } from '../rest/segment-page.ts';

/** A header Node may give as a list; the first value, as Vercel's bridge reads it. */
const single = (value: string | string[] | undefined): string | undefined =>
  Array.isArray(value) ? value[0] : value;

/** Writes an answer of the API or of a page (`PageReply`) to Node's response. */
export function write(response: ServerResponse, { status, headers, body }: Reply | PageReply): void {
  response.writeHead(status, headers);
  // Node sends no body with a HEAD answer; the replier gives none either.
  response.end(body ?? undefined);
}

/**
 * The URL Vercel's `fetch` bridge would give the `Request`: the forwarded protocol and host (HTTPS by
 * default) around the path asked for, through the URL parser. Throws on a host the parser refuses.
 */
export function requestHref(request: IncomingMessage): string {
  const { headers } = request;
  // `||` as the bridge has it: an empty forwarded header falls back too.
  const proto = single(headers['x-forwarded-proto']) || 'https';
  const host = single(headers['x-forwarded-host']) || headers.host || 'localhost';
  return new URL(request.url ?? '/', `${proto}://${host}`).href;
}

/** Answers 500 as Vercel's bridge does when a handler throws, after logging what failed. */
export const failureWriter =
  (response: ServerResponse, what: string) =>
  (error: unknown): void => {
    console.error(`${what} failed:`, error);
    response.writeHead(500, { 'cache-control': 'no-store' });
    response.end('Internal Server Error');
  };

/**
 * The replier behind Vercel's Node runtime. The URL is the one Vercel's `fetch` bridge gave the
 * `Request`: the forwarded protocol and host (HTTPS by default) around the path asked for, through
 * the URL parser, so every answer and every remembered one is byte for byte what it was. The client
 * address is `x-real-ip`, which Vercel sets. A replier that throws answers as the bridge did: 500.
 */
export function nodeRestHandler(
  reply: ApiReplier,
): (request: IncomingMessage, response: ServerResponse) => void {
  return (request, response) => {
    const failed = failureWriter(response, 'REST function');
    try {
      const answer = reply(
        request.method ?? 'GET',
        requestHref(request),
        platformClientAddress(request.headers),
      );
      if (answer instanceof Promise) answer.then((later) => write(response, later), failed);
      else write(response, answer);
    } catch (error) {
      failed(error);
    }
  };
}
