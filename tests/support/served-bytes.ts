type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/**
 * A fetch that notes the size of each answer body as it came over the wire
 * (UTF-8 bytes, SSE framing and JSON-RPC envelope included), by the method
 * of the JSON-RPC request it answers: what a client pays for.
 */
export function measuringFetch(inner: FetchLike): { fetch: FetchLike; bytes: Map<string, number> } {
  const bytes = new Map<string, number>();
  const fetch: FetchLike = async (input, init) => {
    const request = new Request(input, init);
    const body = request.method === 'POST' ? await request.clone().text() : '';
    const response = await inner(request);
    const method = body ? (JSON.parse(body) as { method?: string }).method : undefined;
    if (method) bytes.set(method, Buffer.byteLength(await response.clone().text()));
    return response;
  };
  return { fetch, bytes };
}
