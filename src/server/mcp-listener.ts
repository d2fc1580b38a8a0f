import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendNodeResponse } from 'srvx/node';
import { answersProblems, isRiderPath } from '../app/rider-routes.ts';
import { problemDocument } from '../core/problems.ts';
import type { McpService } from '../app/mcp-service.ts';
import { CLIENT_ADDRESS_HEADER } from '../http/client-address.ts';
import { bufferBody } from './request-body.ts';

type Http1Listener = (request: IncomingMessage, response: ServerResponse) => Promise<void>;

/** `/mcp`, everything under it, and the sign-in paths belong to the MCP side. */
export function isMcpPath(path: string): boolean {
  return path === '/mcp' || path.startsWith('/mcp/') || isRiderPath(path);
}

/**
 * The platform's own `Request` for a Node request whose body has been read
 * (by `bufferBody`). Built directly rather than through srvx's lazy request
 * wrapper: the MCP endpoint copies the request once more to set the client
 * address, and a wrapper whose body is a Node stream turned into a web
 * stream made that copy the costliest step of a tool call under load. It
 * carries the client's address header already, so the endpoint keeps it
 * as it is instead of copying it again.
 */
function toRequest(request: IncomingMessage, address: string, signal: AbortSignal): Request {
  const headers = new Headers();
  const raw = request.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i] ?? '';
    // The client's own copy of the address header is dropped: only the socket says where it came from.
    if (name.toLowerCase() !== CLIENT_ADDRESS_HEADER) headers.append(name, raw[i + 1] ?? '');
  }
  headers.set(CLIENT_ADDRESS_HEADER, address);
  const url = `http://${request.headers.host ?? 'localhost'}${request.url ?? '/'}`;
  const method = request.method ?? 'GET';
  const body = (request as IncomingMessage & { rawBody?: Buffer }).rawBody;
  const hasBody = method !== 'GET' && method !== 'HEAD';
  return new Request(url, {
    method,
    headers,
    signal,
    ...(hasBody ? { body: (body ?? null) as Uint8Array<ArrayBuffer> | null } : {}),
  });
}

/**
 * The answer with its body read and its length set. HTTP/1.0 has no chunked
 * coding, so a streamed answer can only end by closing the connection,
 * which throws away whatever the client pipelined behind it; with a length
 * the connection stays open. Only for 1.0 clients, and the MCP side's
 * answers are small (the stateless server keeps no stream open).
 */
async function withLength(answer: Response): Promise<Response> {
  if (answer.body === null || answer.headers.has('content-length')) return answer;
  const body = await answer.arrayBuffer();
  const headers = new Headers(answer.headers);
  headers.set('content-length', String(body.byteLength));
  return new Response(body, { status: answer.status, statusText: answer.statusText, headers });
}

/**
 * The MCP endpoint on `node:http`: the socket's address identifies the
 * client, or, behind a proxy you run (`WOS_TRUST_PROXY`), the first
 * `X-Forwarded-For` entry, which such a proxy sets.
 */
export function mcpListener(handle: McpService['handle'], trustProxy: boolean): Http1Listener {
  const clientAddress = (request: IncomingMessage): string => {
    const header = request.headers['x-forwarded-for'];
    const forwarded = trustProxy
      ? (Array.isArray(header) ? header[0] : header)?.split(',', 1)[0]?.trim()
      : undefined;
    return forwarded || request.socket.remoteAddress || 'unknown';
  };
  return async (request, response) => {
    const path = (request.url ?? '/').split('?', 1)[0] ?? '/';
    if (!(await bufferBody(request, response, path))) return;
    const address = clientAddress(request);
    const gone = new AbortController();
    response.once('close', () => {
      if (!response.writableFinished) gone.abort();
    });
    let web: Request;
    try {
      web = toRequest(request, address, gone.signal);
    } catch {
      // Header bytes Node accepts but the fetch Headers class refuses.
      const detail = 'A header value is not valid.';
      const problem = answersProblems(path);
      response.writeHead(400, {
        'content-type': problem ? 'application/problem+json' : 'application/json',
        'cache-control': 'no-store',
      });
      const docsUrl = `http://${request.headers.host ?? 'localhost'}/docs`;
      response.end(
        JSON.stringify(
          problem
            ? problemDocument('bad_request', {
                detail,
                hint: 'Send header values of visible ASCII characters only.',
                instance: path,
                docsUrl,
              })
            : { error: 'invalid_request', error_description: detail },
        ),
      );
      return;
    }
    const answer = await handle(web, { address });
    await sendNodeResponse(response, request.httpVersion === '1.0' ? await withLength(answer) : answer);
  };
}
