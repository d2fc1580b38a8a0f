/**
 * The browsers and phones a rider turned Web Push on in. An endpoint is one
 * browser profile's: the same rider subscribing it again keeps its row (and
 * so its deliveries: one per window), another rider signing in there takes it over.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';

type Db = Kysely<Database>;

/** Most devices a rider may subscribe; the oldest goes when one more arrives. */
export const PUSH_DEVICES_MAX = 10;

export interface PushDevice {
  readonly id: string;
  readonly riderId: string;
  readonly endpoint: string;
  readonly p256dh: string;
  readonly auth: string;
  readonly label: string;
  readonly createdAt: number;
}

export interface NewPushDevice {
  readonly endpoint: string;
  readonly p256dh: string;
  readonly auth: string;
  readonly label: string;
}

function toDevice(row: Database['push_subscription']): PushDevice {
  return {
    id: row.id,
    riderId: row.rider_id,
    endpoint: row.endpoint,
    p256dh: row.p256dh,
    auth: row.auth,
    label: row.label,
    createdAt: row.created_at,
  };
}

/** Saves the subscription for the rider (replacing any row of the same endpoint) and returns it. */
export async function savePushDevice(
  db: Db,
  riderId: string,
  device: NewPushDevice,
  now: number,
): Promise<PushDevice> {
  return db.transaction().execute(async (trx) => {
    const existing = await trx
      .selectFrom('push_subscription')
      .selectAll()
      .where('endpoint', '=', device.endpoint)
      .executeTakeFirst();
    if (existing && existing.rider_id === riderId) {
      // The same device again (new keys, a reload): one row, so its deliveries stay one per window.
      const keys = { p256dh: device.p256dh, auth: device.auth, label: device.label };
      await trx.updateTable('push_subscription').set(keys).where('id', '=', existing.id).execute();
      return toDevice({ ...existing, ...keys });
    }
    if (existing) {
      // Another rider signed in on this browser: the device is theirs now.
      await trx.deleteFrom('push_subscription').where('id', '=', existing.id).execute();
    }
    const row = {
      id: randomUUID(),
      rider_id: riderId,
      endpoint: device.endpoint,
      p256dh: device.p256dh,
      auth: device.auth,
      label: device.label,
      created_at: now,
    };
    await trx.insertInto('push_subscription').values(row).execute();
    const stale = await trx
      .selectFrom('push_subscription')
      .select('id')
      .where('rider_id', '=', riderId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .offset(PUSH_DEVICES_MAX)
      .limit(1000)
      .execute();
    if (stale.length > 0) {
      await trx
        .deleteFrom('push_subscription')
        .where(
          'id',
          'in',
          stale.map((s) => s.id),
        )
        .execute();
    }
    return toDevice(row);
  });
}

export async function listPushDevices(db: Db, riderId: string): Promise<PushDevice[]> {
  const rows = await db
    .selectFrom('push_subscription')
    .selectAll()
    .where('rider_id', '=', riderId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(toDevice);
}

export async function findPushDevice(db: Db, id: string): Promise<PushDevice | undefined> {
  const row = await db.selectFrom('push_subscription').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toDevice(row);
}

/** Removes one of the rider's devices; false when it is not theirs or gone. */
export async function removePushDevice(db: Db, riderId: string, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom('push_subscription')
    .where('id', '=', id)
    .where('rider_id', '=', riderId)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** Forgets a subscription the push service says is gone (404 or 410). */
export async function forgetPushDevice(db: Db, id: string): Promise<void> {
  await db.deleteFrom('push_subscription').where('id', '=', id).execute();
}
