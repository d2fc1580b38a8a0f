/**
 * A rider's connected assistants: one OAuth consent per client. Listing reads
 * the consents; disconnecting removes the consent and every token of that
 * (rider, client) pair in one transaction. The library's own `delete-consent`
 * leaves the refresh token working and cannot recall a JWT access token, so
 * the resource server also checks on every call that the consent still
 * exists (`verifyRiderRequest` in resource.ts): the call after a disconnect
 * gets 401.
 */
import { readDate, readList, type AuthDb } from '../auth-tables.ts';

export interface Connection {
  readonly clientId: string;
  /** As the client registered it (DCR) or published it (CIMD); shown as text, never as markup. */
  readonly clientName: string | null;
  readonly clientUri: string | null;
  readonly scopes: readonly string[];
  /** ISO 8601, when the rider first allowed it. */
  readonly connectedAt: string | null;
}

export interface DisconnectResult {
  /** False when this rider had no consent for the client: nothing was touched. */
  readonly disconnected: boolean;
  readonly accessTokens: number;
  readonly refreshTokens: number;
}

/** The rider's connections, newest first. */
export async function listConnections(db: AuthDb, riderId: string): Promise<Connection[]> {
  const rows = await db
    .selectFrom('oauthConsent as consent')
    .leftJoin('oauthClient as client', 'client.clientId', 'consent.clientId')
    .select(['consent.clientId', 'consent.scopes', 'consent.createdAt', 'client.name', 'client.uri'])
    .where('consent.userId', '=', riderId)
    .orderBy('consent.createdAt', 'desc')
    .execute();
  return rows.map((row) => ({
    clientId: row.clientId,
    clientName: row.name,
    clientUri: row.uri,
    scopes: readList(row.scopes),
    connectedAt: readDate(row.createdAt),
  }));
}

/**
 * Deletes the rider's consent for one client and all its tokens. Every
 * statement filters on the rider's id, so a rider can never touch another
 * rider's grant, whatever client id is passed.
 */
export async function disconnectClient(
  db: AuthDb,
  riderId: string,
  clientId: string,
): Promise<DisconnectResult> {
  return db.transaction().execute(async (tx) => {
    const consents = await tx
      .deleteFrom('oauthConsent')
      .where('userId', '=', riderId)
      .where('clientId', '=', clientId)
      .executeTakeFirst();
    if (consents.numDeletedRows === 0n) return { disconnected: false, accessTokens: 0, refreshTokens: 0 };
    const access = await tx
      .deleteFrom('oauthAccessToken')
      .where('userId', '=', riderId)
      .where('clientId', '=', clientId)
      .executeTakeFirst();
    const refresh = await tx
      .deleteFrom('oauthRefreshToken')
      .where('userId', '=', riderId)
      .where('clientId', '=', clientId)
      .executeTakeFirst();
    return {
      disconnected: true,
      accessTokens: Number(access.numDeletedRows),
      refreshTokens: Number(refresh.numDeletedRows),
    };
  });
}

/**
 * Disconnects every assistant of the rider: all consents and tokens, so a
 * refresh fails and, since the rider check reads the consent, so does the
 * next call with an access token already handed out. For a password change
 * the rider asked to end everything with.
 */
export async function disconnectAll(db: AuthDb, riderId: string): Promise<number> {
  return db.transaction().execute(async (tx) => {
    const consents = await tx.deleteFrom('oauthConsent').where('userId', '=', riderId).executeTakeFirst();
    await tx.deleteFrom('oauthAccessToken').where('userId', '=', riderId).execute();
    await tx.deleteFrom('oauthRefreshToken').where('userId', '=', riderId).execute();
    return Number(consents.numDeletedRows);
  });
}
