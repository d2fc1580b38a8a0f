/**
 * The deployment's VAPID key pair (RFC 8292): made with `web-push` by the
 * first instance that needs it and kept in the rider store, so every
 * instance signs with the same key and a browser's subscription, which is
 * bound to the public key, keeps working across restarts and deployments.
 * Shared here, below the settings API (which gives the browser the public
 * key) and the alert job (which signs with both).
 */
import webPush from 'web-push';
import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.ts';
import { serviceSecret } from '../store/repositories/service-secrets.ts';

export interface VapidKeys {
  /** P-256 public key, base64url: the browser's `applicationServerKey`. */
  readonly publicKey: string;
  readonly privateKey: string;
}

const VAPID_SECRET_NAME = 'vapid-keys';

export async function vapidKeys(db: Kysely<Database>, nowS: number): Promise<VapidKeys> {
  const stored = await serviceSecret(
    db,
    VAPID_SECRET_NAME,
    () => JSON.stringify(webPush.generateVAPIDKeys()),
    nowS,
  );
  const parsed = JSON.parse(stored) as Partial<VapidKeys>;
  if (typeof parsed.publicKey !== 'string' || typeof parsed.privateKey !== 'string') {
    throw new Error(`the stored ${VAPID_SECRET_NAME} are not a key pair`);
  }
  return { publicKey: parsed.publicKey, privateKey: parsed.privateKey };
}
