/**
 * The rider's alert channels besides the webhook: email on or off (and the
 * token of its one-click unsubscribe link), Web Push on or off, and the
 * calendar feed's secret, kept as its SHA-256 only.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';

type Db = Kysely<Database>;

export interface RiderChannels {
  readonly emailAlerts: boolean;
  readonly pushAlerts: boolean;
  readonly calendarOn: boolean;
}

/** 32 random bytes, base64url: a token nobody guesses, safe in a URL path or query. */
export function newChannelToken(): string {
  return randomBytes(32).toString('base64url');
}

/** How a calendar secret is kept and looked up. */
export function calendarTokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export async function findRiderChannels(db: Db, riderId: string): Promise<RiderChannels | undefined> {
  const row = await db
    .selectFrom('rider')
    .select(['email_alerts', 'push_alerts', 'calendar_token_hash'])
    .where('id', '=', riderId)
    .executeTakeFirst();
  return (
    row && {
      emailAlerts: Boolean(row.email_alerts),
      pushAlerts: Boolean(row.push_alerts),
      calendarOn: row.calendar_token_hash !== null,
    }
  );
}

/** Turns email or push alerts on or off; returns whether the rider exists. */
export async function setChannelOn(
  db: Db,
  riderId: string,
  channel: 'email' | 'push',
  on: boolean,
): Promise<boolean> {
  const column = channel === 'email' ? 'email_alerts' : 'push_alerts';
  const result = await db
    .updateTable('rider')
    .set({ [column]: on })
    .where('id', '=', riderId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** The rider's unsubscribe token, made on first need (a lost race reads the winner's). */
export async function unsubscribeTokenOf(db: Db, riderId: string): Promise<string | undefined> {
  await db
    .updateTable('rider')
    .set({ unsubscribe_token: newChannelToken() })
    .where('id', '=', riderId)
    .where('unsubscribe_token', 'is', null)
    .execute();
  const row = await db
    .selectFrom('rider')
    .select('unsubscribe_token')
    .where('id', '=', riderId)
    .executeTakeFirst();
  return row?.unsubscribe_token ?? undefined;
}

/**
 * One-click unsubscribe (RFC 8058): turns email alerts off for the token's
 * rider and nothing else. Returns false for a token that names nobody.
 */
export async function unsubscribeByToken(db: Db, token: string): Promise<boolean> {
  if (token.length === 0 || token.length > 100) return false;
  const result = await db
    .updateTable('rider')
    .set({ email_alerts: false })
    .where('unsubscribe_token', '=', token)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** A new calendar secret (the old one stops working at once), or with `null` no feed at all. */
export async function setCalendarToken(db: Db, riderId: string, token: string | null): Promise<void> {
  await db
    .updateTable('rider')
    .set({ calendar_token_hash: token === null ? null : calendarTokenHash(token) })
    .where('id', '=', riderId)
    .execute();
}

/** The rider whose calendar secret this is, or undefined. */
export async function findRiderIdByCalendarToken(db: Db, token: string): Promise<string | undefined> {
  if (token.length === 0 || token.length > 100) return undefined;
  const row = await db
    .selectFrom('rider')
    .select('id')
    .where('calendar_token_hash', '=', calendarTokenHash(token))
    .executeTakeFirst();
  return row?.id;
}
