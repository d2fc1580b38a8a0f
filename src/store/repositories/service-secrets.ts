/**
 * Values the deployment makes once for itself and every instance shares
 * (the VAPID key pair of Web Push): made by the first instance that needs
 * one, and by a single instance however many ask at once, since the insert
 * keeps the first row and everybody reads that one back.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';

export async function serviceSecret(
  db: Kysely<Database>,
  name: string,
  make: () => string,
  now: number,
): Promise<string> {
  const existing = await db
    .selectFrom('service_secret')
    .select('value')
    .where('name', '=', name)
    .executeTakeFirst();
  if (existing) return existing.value;
  await db
    .insertInto('service_secret')
    .values({ name, value: make(), created_at: now })
    .onConflict((conflict) => conflict.column('name').doNothing())
    .execute();
  const stored = await db
    .selectFrom('service_secret')
    .select('value')
    .where('name', '=', name)
    .executeTakeFirstOrThrow();
  return stored.value;
}
