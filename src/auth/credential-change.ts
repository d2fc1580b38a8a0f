/**
 * A password change that should also end the assistants' access. better-auth
 * ends the rider's other browser sessions itself (`revokeOtherSessions` on a
 * change, every session on a reset); assistants hold OAuth grants it does not
 * touch. So the two password paths pass through here: the rider's choice is
 * one more field of the same JSON body (`revokeOtherSessions: true` on
 * `/change-password`, `disconnectAssistants: true` on `/reset-password`), and
 * once better-auth answered 200 every consent and token of that rider is
 * deleted (`disconnectEverything`). The reset token names the rider only until it is
 * used, so it is read before the request goes on.
 */
import type { Kysely } from 'kysely';
import { disconnectEverything } from '../service/account.ts';
import { withAuthTables } from '../store/auth-tables.ts';
import type { Database } from '../store/schema.ts';
import { AUTH_BASE_PATH } from '../rider/access-policy.ts';

export const CHANGE_PASSWORD_PATH = `${AUTH_BASE_PATH}/change-password`;
export const RESET_PASSWORD_PATH = `${AUTH_BASE_PATH}/reset-password`;

function jsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

async function resetTokenRider(db: Kysely<Database>, token: unknown): Promise<string | undefined> {
  if (typeof token !== 'string' || token.length === 0 || token.length > 200) return undefined;
  const row = await withAuthTables(db)
    .selectFrom('verification')
    .select('value')
    .where('identifier', '=', `reset-password:${token}`)
    .executeTakeFirst();
  return row?.value;
}

/**
 * Answers a password change or reset through `handler`, then disconnects the
 * rider's assistants when the body asked for it and the change succeeded.
 */
export async function changeCredentials(
  request: Request,
  db: Kysely<Database>,
  handler: (request: Request) => Promise<Response>,
): Promise<Response> {
  const { pathname } = new URL(request.url);
  if (request.method !== 'POST') return handler(request);
  const text = await request.text();
  // A new Request rather than a clone: the server's request object may be a subclass undici cannot copy.
  const forward = new Request(request.url, { method: 'POST', headers: request.headers, body: text });
  const body = jsonObject(text);
  const reset = pathname === RESET_PASSWORD_PATH;
  const wanted = reset ? body?.['disconnectAssistants'] === true : body?.['revokeOtherSessions'] === true;
  const riderBefore = reset && wanted ? await resetTokenRider(db, body?.['token']) : undefined;
  const response = await handler(forward);
  if (!wanted || response.status !== 200) return response;
  let riderId = riderBefore;
  if (!reset) {
    const answer = jsonObject(await response.clone().text());
    const user = answer?.['user'];
    const id =
      typeof user === 'object' && user !== null ? (user as Record<string, unknown>)['id'] : undefined;
    riderId = typeof id === 'string' ? id : undefined;
  }
  if (riderId) await disconnectEverything(db, riderId);
  return response;
}
