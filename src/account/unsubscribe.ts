/**
 * One-click unsubscribe from alert emails (RFC 8058). A mail app's
 * Unsubscribe button POSTs `List-Unsubscribe=One-Click` to the address in
 * the mail's `List-Unsubscribe` header, with no cookie and from no page of
 * ours, so the random token in the address is the whole authority, and all
 * it can do is turn email alerts off: push, the calendar and the webhook
 * stay as they are. A GET (a person opening the address) never changes
 * anything: it is sent to the page that explains and asks for the click.
 */
import type { Kysely } from 'kysely';
import { refusal, type JsonAnswer } from '../http/json-answer.ts';
import { unsubscribeByToken } from '../service/alert-channels.ts';
import type { Database } from '../store/schema.ts';
import { UNSUBSCRIBE_PAGE } from './channel-paths.ts';
import { CACHE } from '../http/cache-control.ts';

export async function unsubscribe(request: Request, db: Kysely<Database>): Promise<JsonAnswer | Response> {
  const url = new URL(request.url);
  const token = url.searchParams.get('token') ?? '';
  if (request.method === 'GET' || request.method === 'HEAD') {
    const page = `${UNSUBSCRIBE_PAGE}?token=${encodeURIComponent(token)}`;
    return new Response(null, { status: 303, headers: { Location: page, 'Cache-Control': CACHE.none } });
  }
  if (request.method !== 'POST')
    return refusal('method_not_allowed', 'Unsubscribe with a POST (one click) or open the link.');
  // The body (`List-Unsubscribe=One-Click`, or nothing from our own page) carries nothing we need.
  await request.body?.cancel();
  if (!(await unsubscribeByToken(db, token))) {
    return refusal(
      'link_not_valid',
      'This unsubscribe link is not valid (the account may have been deleted).',
    );
  }
  return { status: 200, body: { email_alerts: false } };
}
