/**
 * Who the bearer check at `/mcp/rider` found: the authorization server
 * produces it and the rider tools read it, so it lives in the rider domain
 * below both surfaces.
 */

/** A signed-in rider at the rider address, as the verified access token says. */
export interface RiderCaller {
  readonly kind: 'rider';
  readonly riderId: string;
  /** The OAuth grant (one connected assistant); limits and disconnects work per grant. */
  readonly grantId: string;
  readonly clientId: string;
  readonly scopes: readonly string[];
}
