/**
 * Everything the store holds about one rider, to hand it over (GDPR article
 * 20: {@link exportRiderData}) or to erase it (article 17: {@link eraseRider}).
 * Both walk the same list of tables, so a table added later is either in it
 * or the unit test that looks for the rider's id in every table after an
 * erasure fails.
 *
 * The export leaves out what is a key rather than data (password hash,
 * token values, the webhook's signing secret, push keys): it says which ones
 * exist instead. The erasure keeps one thing, the Stripe event log's lines,
 * with the rider's id removed: they say what was done with a payment and
 * name nobody.
 */
import type { Kysely, Transaction } from 'kysely';
import { withAuthTables, type AuthTables } from '../auth-tables.ts';
import type { Database } from '../schema.ts';

type Db = Kysely<Database>;

/** Our tables holding a rider's rows, by the column naming the rider. */
const RIDER_TABLES = [
  'alert_delivery',
  'push_subscription',
  'alert',
  'watch',
  'usage',
  'rider_segment',
  'billing_plan',
  'billing_customer',
] as const satisfies readonly (keyof Database)[];

/** The sign-in service's tables holding a rider's rows, by `userId`. */
const AUTH_USER_TABLES = [
  'oauthAccessToken',
  'oauthRefreshToken',
  'oauthConsent',
  'session',
  'account',
] as const satisfies readonly (keyof AuthTables)[];

/** Columns never exported: keys, not data about the rider. */
const KEY_COLUMNS = new Set([
  'password',
  'token',
  'accessToken',
  'refreshToken',
  'idToken',
  'webhook_secret',
  'unsubscribe_token',
  'calendar_token_hash',
  'p256dh',
  'auth',
]);

function withoutKeys(row: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(row).filter(([column]) => !KEY_COLUMNS.has(column)));
}

/** What `exportRiderData` returns: table name → the rider's rows, key columns left out. */
export type RiderDataTables = Record<string, Record<string, unknown>[]>;

/** Every row the store holds about the rider, table by table. */
export async function exportRiderData(db: Db, riderId: string): Promise<RiderDataTables> {
  const auth = withAuthTables(db);
  const tables: RiderDataTables = {};
  const user = await auth.selectFrom('user').selectAll().where('id', '=', riderId).execute();
  tables['user'] = user.map(withoutKeys);
  const rider = await db.selectFrom('rider').selectAll().where('id', '=', riderId).execute();
  tables['rider'] = rider.map(withoutKeys);
  for (const table of RIDER_TABLES) {
    const rows = await db.selectFrom(table).selectAll().where('rider_id', '=', riderId).execute();
    tables[table] = rows.map((row) => withoutKeys(row as Record<string, unknown>));
  }
  const events = await db.selectFrom('billing_event').selectAll().where('rider_id', '=', riderId).execute();
  tables['billing_event'] = events.map(withoutKeys);
  for (const table of AUTH_USER_TABLES) {
    const rows = await auth.selectFrom(table).selectAll().where('userId', '=', riderId).execute();
    tables[table] = rows.map((row) => withoutKeys(row as Record<string, unknown>));
  }
  return tables;
}

async function eraseIn(trx: Transaction<Database>, riderId: string): Promise<void> {
  const auth = withAuthTables(trx);
  for (const table of RIDER_TABLES) await trx.deleteFrom(table).where('rider_id', '=', riderId).execute();
  await trx.updateTable('billing_event').set({ rider_id: null }).where('rider_id', '=', riderId).execute();
  for (const table of AUTH_USER_TABLES) await auth.deleteFrom(table).where('userId', '=', riderId).execute();
  // Password-reset and account-deletion tokens keep the user id as their value.
  await auth.deleteFrom('verification').where('value', '=', riderId).execute();
  await trx.deleteFrom('rider').where('id', '=', riderId).execute();
  await auth.deleteFrom('user').where('id', '=', riderId).execute();
}

/**
 * Erases the rider and everything of theirs, in one transaction: our tables,
 * then the sign-in service's (sessions, credentials, assistants' grants and
 * tokens, pending reset tokens, the account). Payments at Stripe are the
 * caller's to cancel first.
 */
export async function eraseRider(db: Db, riderId: string): Promise<void> {
  await db.transaction().execute((trx) => eraseIn(trx, riderId));
}
