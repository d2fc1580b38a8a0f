/** One scripted answer: a response (cloned on each use) or a function of the request. */
export type Reply = Response | ((request: Request) => Promise<Response>);

/** A JSON response, as an upstream API would send it. */
export const json = (body: string, status = 200, headers: Record<string, string> = {}): Response =>
  new Response(body, { status, headers: { 'content-type': 'application/json', ...headers } });

/** A fetch that answers from a script, repeating the last reply, and records every request. */
export function scripted(...replies: Reply[]) {
  const requests: Request[] = [];
  const fetch = async (input: Request | string | URL, init?: RequestInit): Promise<Response> => {
    const request = input instanceof Request ? input : new Request(input, init);
    requests.push(request);
    const reply = replies.length > 1 ? replies.shift() : replies[0];
    if (!reply) throw new Error('no reply scripted');
    return typeof reply === 'function' ? reply(request) : reply.clone();
  };
  return { fetch, requests };
}
