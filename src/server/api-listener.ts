import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Reply } from '../rest/headers.ts';
import type { ApiReplier } from '../rest/replier.ts';
import { clientAddressOf } from '../http/client-address.ts';

function write(response: ServerResponse, { status, headers, body }: Reply): void {
  response.writeHead(status, headers);
  response.end(body);
}

/**
 * Writes the API's replies straight to Node's response: no web Request or
 * Response is built on the hot path (that wrapping cost more than the API's
 * own work). The URL's origin comes from the Host header, as the fetch
 * adapters take it from the request URL. The client's address goes beside
 * it (`clientAddressOf`, the MCP side's rule): the data endpoints (`/v1/wind`, `/v1/segments`) limit requests per
 * client by it; a data answer comes later, as a promise that never rejects
 * (the replier turns every failure into a problem).
 */
export function apiListener(reply: ApiReplier, trustProxy = false) {
  return (request: IncomingMessage, response: ServerResponse): void => {
    const href = `http://${request.headers.host ?? 'localhost'}${request.url ?? '/'}`;
    const answer = reply(request.method ?? 'GET', href, clientAddressOf(request, trustProxy));
    if (answer instanceof Promise) void answer.then((later) => write(response, later));
    else write(response, answer);
  };
}
