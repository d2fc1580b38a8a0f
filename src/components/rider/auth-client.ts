/**
 * The browser side of the rider pages: small JSON calls to our own origin and
 * the messages a rider sees when one fails. Runs in the page bundle: no
 * imports from server code.
 */

export interface JsonReply {
  readonly status: number;
  readonly body: Record<string, unknown> | null;
}

async function readReply(response: Response): Promise<JsonReply> {
  const body: unknown = await response.json().catch(() => null);
  const isObject = typeof body === 'object' && body !== null && !Array.isArray(body);
  return { status: response.status, body: isObject ? (body as Record<string, unknown>) : null };
}

/** GET a JSON resource of our own origin, with the session cookie. */
export async function getJson(path: string): Promise<JsonReply> {
  return readReply(
    await fetch(path, { headers: { accept: 'application/json' }, credentials: 'same-origin' }),
  );
}

/** POST JSON to our own origin; the browser adds the `Origin` header the server checks. */
export async function postJson(path: string, body: unknown): Promise<JsonReply> {
  const response = await fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    credentials: 'same-origin',
    body: JSON.stringify(body),
  });
  return readReply(response);
}

/**
 * The signed authorization request the server appended to this page's URL
 * when an assistant sent the rider here, or undefined on a plain visit.
 */
export function oauthQuery(): string | undefined {
  const params = new URLSearchParams(location.search);
  return params.has('sig') ? location.search.slice(1) : undefined;
}

/** Where the server said to go next (`{ url }`), if anywhere. */
export function nextUrl(reply: JsonReply): string | undefined {
  const url = reply.body?.['url'] ?? reply.body?.['redirect_uri'];
  return typeof url === 'string' && url.length > 0 ? url : undefined;
}

/** What a rider is told when a call got no answer at all (offline, DNS, the server down). */
export const UNREACHABLE_MESSAGE = 'The server could not be reached. Check your connection and try again.';

/**
 * A sentence for a failed call, from the server's own message where it gives
 * one: a problem document's `detail` (the settings and billing APIs), or the
 * `message` / `error_description` of the sign-in service (better-auth and the
 * OAuth endpoints keep the shapes their RFCs fix).
 */
export function failureMessage(reply: JsonReply): string {
  if (reply.status === 429) return 'Too many attempts. Wait a few seconds, then try again.';
  if (reply.status === 403) return 'This request was refused. Reload the page and try again.';
  // Our problem documents word every detail for the rider (a fault's says nothing of its cause), so
  // they are shown at any status; another body's 5xx text might not be meant for a rider.
  const detail = reply.body?.['detail'];
  const problem = typeof reply.body?.['type'] === 'string' && typeof detail === 'string' && detail.length > 0;
  const message = reply.body?.['detail'] ?? reply.body?.['message'] ?? reply.body?.['error_description'];
  if (typeof message === 'string' && message.length > 0 && (problem || reply.status < 500)) {
    return message.endsWith('.') ? message : `${message}.`;
  }
  return 'Something went wrong on our side. Try again in a moment.';
}
