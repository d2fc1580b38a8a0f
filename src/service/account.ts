/**
 * The rider's account as the settings page manages it: the assistants
 * connected through OAuth (listed, disconnected one at a time, or all at
 * once when the rider's password changes), the alert webhook, and the
 * export of everything stored about the rider.
 */
import type { Kysely } from 'kysely';
import { withAuthTables } from '../store/auth-tables.ts';
import {
  disconnectAll,
  disconnectClient,
  listConnections,
  type Connection,
  type DisconnectResult,
} from '../store/repositories/connections.ts';
import type { Database } from '../store/schema.ts';

export type { Connection, DisconnectResult };
export type { Rider } from '../store/repositories/riders.ts';
export { setRiderWebhook } from '../store/repositories/riders.ts';
export { exportRiderData } from '../store/repositories/rider-data.ts';

/** The assistants the rider has connected, newest first. */
export function connectionsOf(db: Kysely<Database>, riderId: string): Promise<Connection[]> {
  return listConnections(withAuthTables(db), riderId);
}

/** Ends one assistant's access: its consent and every token; only ever the rider's own. */
export function disconnect(
  db: Kysely<Database>,
  riderId: string,
  clientId: string,
): Promise<DisconnectResult> {
  return disconnectClient(withAuthTables(db), riderId, clientId);
}

/** Ends every assistant's access at once; returns how many consents it ended. */
export function disconnectEverything(db: Kysely<Database>, riderId: string): Promise<number> {
  return disconnectAll(withAuthTables(db), riderId);
}
