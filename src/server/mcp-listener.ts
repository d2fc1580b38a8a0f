import { clientAddressOf } from '../http/client-address.ts';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendNodeResponse } from 'srvx/node';
import { edgeError } from '../app/edge-errors.ts';
import type { McpService } from '../app/mcp-service.ts';
import { bufferBody } from './request-body.ts';

type Http1Listener = (request: IncomingMessage, response: ServerResponse) => Promise<void>;

/**
 * The platform's own `Request` for a Node request whose body has been read
 * (by `bufferBody`). Built directly rather than through srvx's lazy request
 * wrapper, whose body (a Node stream turned into a web stream) made reading
 * it the costliest step of a tool call under load. The caller's address is
 * not in it: it goes beside the request, as the handler's second argument.
 */
function toRequest(request: IncomingMessage, signal: AbortSignal): Request {
  const headers = new Headers();
  const raw = request.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i] ?? '', raw[i + 1] ?? '');
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
 * The MCP side on `node:http` (every path the path table gives the `mcp`
 * function); the client is named by `clientAddressOf`.
 */
export function mcpListener(handle: McpService['handle'], trustProxy: boolean): Http1Listener {
  return async (request, response) => {
    const path = (request.url ?? '/').split('?', 1)[0] ?? '/';
    if (!(await bufferBody(request, response, path))) return;
    const address = clientAddressOf(request, trustProxy);
    const gone = new AbortController();
    response.once('close', () => {
      if (!response.writableFinished) gone.abort();
    });
    let web: Request;
    try {
      web = toRequest(request, gone.signal);
    } catch {
      // Header bytes Node accepts but the fetch Headers class refuses: an error in the path's style.
      const failure = {
        code: 'bad_request',
        detail: 'A header value is not valid.',
        hint: 'Send header values of visible ASCII characters only.',
        oauthError: 'invalid_request',
      } as const;
      const docsUrl = `http://${request.headers.host ?? 'localhost'}/docs`;
      const { status, headers, body } = edgeError(path, failure, docsUrl);
      response.writeHead(status, headers);
      response.end(body);
      return;
    }
    const answer = await handle(web, { address });
    await sendNodeResponse(response, request.httpVersion === '1.0' ? await withLength(answer) : answer);
  };
}
