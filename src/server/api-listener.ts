import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApiReplier } from '../rest/handler.ts';

/**
 * Writes the API's replies straight to Node's response: no web Request or
 * Response is built on the hot path (that wrapping cost more than the API's
 * own work). The URL's origin comes from the Host header, as the fetch
 * adapters take it from the request URL.
 */
export function apiListener(reply: ApiReplier) {
  return (request: IncomingMessage, response: ServerResponse): void => {
    const href = `http://${request.headers.host ?? 'localhost'}${request.url ?? '/'}`;
    const { status, headers, body } = reply(request.method ?? 'GET', href);
    response.writeHead(status, headers);
    response.end(body);
  };
}
