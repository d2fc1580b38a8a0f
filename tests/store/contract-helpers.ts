import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { Store } from '../../src/store/database.ts';
import { createRider, type NewRider, type Rider } from '../../src/store/repositories/riders.ts';

/** Every migration, in order: what a fresh store applies. */
export const ALL_MIGRATIONS = [
  '0001_initial',
  '0002_auth',
  '0002_rider_segments',
  '0003_billing',
  '0004_alert_queue',
  '0005_job_state',
  '0006_alert_chance',
  '0007_closed_own_segments',
  '0008_discovered_segments',
  '0009_rider_channels',
  '0010_discovered_provenance',
  '0011_discovered_successors',
];

/** Every table of a migrated store, sorted: ours, better-auth's and the migration bookkeeping. */
export const STORE_TABLES = [
  'account',
  'alert',
  'alert_delivery',
  'billing_customer',
  'billing_event',
  'billing_plan',
  'discovered_area',
  'discovered_segment',
  'job_state',
  'jwks',
  'oauthAccessToken',
  'oauthClient',
  'oauthClientAssertion',
  'oauthClientResource',
  'oauthConsent',
  'oauthRefreshToken',
  'oauthResource',
  'push_subscription',
  'rider',
  'rider_segment',
  'service_secret',
  'session',
  'store_migration',
  'store_migration_lock',
  'usage',
  'user',
  'verification',
  'watch',
];

/** The store under test, opened by the contract's beforeAll (and replaced by the restart test). */
export type CurrentStore = () => Store;

/** A fresh rider with a unique email, so tests sharing one database never meet. */
export function makeRider(store: Store, input: Partial<NewRider> = {}): Promise<Rider> {
  return createRider(store.db, { email: `rider-${randomUUID()}@example.com`, ...input });
}

/** Strings a tool might pass on: quotes, SQL, unicode, wildcards. PostgreSQL text cannot hold NUL. */
export const hostileString = fc
  .oneof(
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }),
    fc.constantFrom(
      `'; DELETE FROM watch; --`,
      `x'); DROP TABLE rider; --`,
      `" OR "1"="1`,
      `\\'; --`,
      `%_*?`,
      `seg'"\`\\n`,
      `Stelvio – Passo dello Stelvio 🚴`,
    ),
  )
  .filter((text) => !text.includes('\u0000'));
