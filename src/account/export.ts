/**
 * `GET /api/rider/export`: everything the store holds about the signed-in
 * rider as one JSON file (GDPR article 20), table by table as stored
 * (`exportRiderData`), with the plan as the service reads it now and a note
 * on what is left out. Sent as an attachment, so the browser saves it.
 */
import type { Kysely } from 'kysely';
import { planNow } from '../core/rider-rules.ts';
import { isoTime } from '../core/time.ts';
import { ensureRider, type AuthUser } from '../rider/rider-account.ts';
import { nowSeconds } from '../store/clock.ts';
import { exportRiderData } from '../service/account.ts';
import type { Database } from '../store/schema.ts';
import { CACHE } from '../http/cache-control.ts';

export async function exportResponse(
  db: Kysely<Database>,
  user: AuthUser,
  origin: string,
): Promise<Response> {
  const rider = await ensureRider(db, user);
  const now = nowSeconds();
  const tables = await exportRiderData(db, rider.id);
  const document = {
    service: 'wind-on-segment',
    site: origin,
    exported_at: isoTime(now),
    rider_id: rider.id,
    email: rider.email,
    plan: planNow(rider, now),
    paid_plan: rider.paid,
    note:
      'Every row the service stores about you, by table. Left out are keys, not data: the password hash, ' +
      'session and token values, the webhook signing secret, push encryption keys, the calendar and unsubscribe secrets. ' +
      'Times are unix seconds unless written as dates. Invoices and payment details are kept by Stripe, not here.',
    tables,
  };
  const day = isoTime(now).slice(0, 10);
  return new Response(JSON.stringify(document, null, 2), {
    status: 200,
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Disposition': `attachment; filename="wind-on-segment-data-${day}.json"`,
      'Cache-Control': CACHE.none,
    },
  });
}
