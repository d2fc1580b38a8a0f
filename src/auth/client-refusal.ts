import { CACHE } from '../http/cache-control.ts';

/**
 * When the authorization server refuses the assistant itself (its client ID
 * metadata document is at a private address, does not answer, is not valid
 * JSON…), OAuth forbids sending the rider back to the assistant: its redirect
 * address is exactly what could not be trusted. The provider then answers the
 * rider's browser with raw JSON. This sends the browser to a page of the site
 * instead, `/connect-error`, which says in plain words what went wrong and
 * what to do.
 *
 * The page shows only our own sentences, chosen by a reason code; the
 * provider's message travels along as a detail for the assistant's developer.
 * Pure (web APIs only): the page bundle imports the messages.
 */

/** The site page that explains a refused connection. */
export const CONNECT_ERROR_PATH = '/connect-error';

export const REFUSAL_REASONS = [
  'private_address',
  'unreachable',
  'http_error',
  'invalid_document',
  'invalid_client_id',
  'redirect_mismatch',
  'busy',
  'refused',
] as const;
export type RefusalReason = (typeof REFUSAL_REASONS)[number];

/** What the rider reads for each reason: what happened, in one or two sentences. */
export const REFUSAL_MESSAGES: Readonly<Record<RefusalReason, string>> = {
  private_address:
    "The assistant's ID points to a private or reserved network address. This server never fetches from " +
    'such addresses, so that no one can use it to reach inside a network.',
  unreachable:
    "This server could not fetch the assistant's description from the address in its ID: the address did " +
    'not answer in time or refused the connection.',
  http_error:
    "The address in the assistant's ID answered with an error instead of the assistant's description.",
  invalid_document:
    "The assistant's description at the address in its ID is not valid: it must be a JSON document with " +
    "the assistant's name and the addresses to return to.",
  invalid_client_id:
    "The assistant's ID is not one this server accepts: it must be a registered ID or an https address " +
    'with a path.',
  redirect_mismatch:
    'The assistant asked to send you back to an address it did not register, so this server will not ' +
    'send you there.',
  busy:
    "This server fetched the assistant's description too recently or too often to fetch it again now. " +
    'Wait a minute, then connect again from your assistant.',
  refused: 'This server could not accept the connection request the assistant sent.',
};

/** The reason for a refusal, from the provider's error code and message. */
export function refusalReasonOf(error: string, description: string): RefusalReason {
  if (error === 'temporarily_unavailable') return 'busy';
  if (error === 'invalid_redirect' || /invalid redirect uri/i.test(description)) return 'redirect_mismatch';
  if (/private or reserved|public-routable|fetch policy/i.test(description)) return 'private_address';
  if (/timed out|network error|failed to fetch|follow redirects/i.test(description)) return 'unreachable';
  if (/returned HTTP \d+|returned 304/i.test(description)) return 'http_error';
  if (/client_id URL|client_id is not a valid URL|client_id is required|unknown client/i.test(description)) {
    return 'invalid_client_id';
  }
  if (error === 'invalid_client') return 'invalid_document';
  return 'refused';
}

/** A top-level page load: the rider's browser, not an assistant or a page script asking for JSON. */
function isNavigation(request: Request): boolean {
  const mode = request.headers.get('sec-fetch-mode');
  if (mode) return mode === 'navigate';
  const accept = request.headers.get('accept') ?? '';
  return accept.includes('text/html') && !accept.includes('application/json');
}

/** IDs and messages come from strangers: keep what goes into the page's URL short. */
const MAX_PARAM = 300;

/** The page's address for one refusal: the reason, the provider's words and the client's ID, each kept short. */
function pageUrl(origin: string, error: string, description: string, clientId: string | null): URL {
  const page = new URL(CONNECT_ERROR_PATH, origin);
  page.searchParams.set('reason', refusalReasonOf(error, description));
  page.searchParams.set('error', error.slice(0, MAX_PARAM));
  if (description) page.searchParams.set('error_description', description.slice(0, MAX_PARAM));
  if (clientId) page.searchParams.set('client_id', clientId.slice(0, MAX_PARAM));
  return page;
}

/**
 * The provider's own redirect to our page (a refusal it sends to its error
 * URL, such as an unregistered redirect URI), given the reason and the
 * client's ID it leaves out; undefined for any other answer.
 */
async function completedProviderRedirect(
  request: Request,
  response: Response,
  origin: string,
): Promise<Response | undefined> {
  const isRedirect = response.status >= 300 && response.status < 400;
  const body = isRedirect
    ? undefined
    : ((await response
        .clone()
        .json()
        .catch(() => null)) as { redirect?: unknown; url?: unknown } | null);
  const target = isRedirect ? response.headers.get('location') : body?.redirect === true ? body.url : null;
  const url = typeof target === 'string' ? URL.parse(target, origin) : null;
  if (!url || url.origin !== origin || url.pathname !== CONNECT_ERROR_PATH) return undefined;
  const error = url.searchParams.get('error') ?? '';
  const page = pageUrl(
    origin,
    error,
    url.searchParams.get('error_description') ?? '',
    new URL(request.url).searchParams.get('client_id'),
  );
  if (isRedirect) {
    const headers = new Headers(response.headers);
    headers.set('Location', page.href);
    return new Response(null, { status: response.status, headers });
  }
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  return Response.json({ ...body, url: page.href }, { status: response.status, headers });
}

/**
 * The redirect to the explanation page for a refused authorization request
 * loaded in the rider's browser; undefined when the answer is no refusal or
 * the request came from a program (it keeps the JSON). A refusal the
 * provider already sends to the page gets the same details added.
 */
export async function refusalRedirect(
  request: Request,
  response: Response,
  origin: string,
): Promise<Response | undefined> {
  if (request.method !== 'GET') return undefined;
  if (response.status < 400) return completedProviderRedirect(request, response, origin);
  if (!isNavigation(request)) return undefined;
  if (!(response.headers.get('content-type') ?? '').includes('json')) return undefined;
  const body = (await response
    .clone()
    .json()
    .catch(() => null)) as { error?: unknown; error_description?: unknown } | null;
  if (typeof body?.error !== 'string') return undefined;
  const description = typeof body.error_description === 'string' ? body.error_description : '';
  const page = pageUrl(origin, body.error, description, new URL(request.url).searchParams.get('client_id'));
  return new Response(null, { status: 303, headers: { Location: page.href, 'Cache-Control': CACHE.none } });
}
