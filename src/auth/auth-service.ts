/**
 * What a server mounts: the auth routes and the rider check for `/mcp/rider`,
 * sharing one registry of authorization servers over one store.
 */
import type { RiderCaller } from '../rider/rider-caller.ts';
import {
  createAuthRegistry,
  misdirectedResponse,
  type AuthRegistry,
  type AuthRegistryOptions,
} from './registry.ts';
import { verifyRiderRequest } from './resource.ts';
import { createAuthEndpoints, type PathHandler } from './auth-endpoints.ts';
import { SCOPE_READ } from '../rider/access-policy.ts';

export type RiderAuthenticator = (request: Request) => Promise<RiderCaller | Response>;

export interface AuthService {
  readonly registry: AuthRegistry;
  /** Answers the auth paths; undefined for every other path. */
  readonly endpoints: PathHandler;
  /**
   * The check in front of `/mcp/rider`, shaped for `createMcpEndpoint`'s
   * `authenticate` option. Every call needs `rider:read`; pass more scopes
   * with {@link AuthService.authenticator} for a stricter check.
   */
  readonly authenticate: RiderAuthenticator;
  authenticator(requiredScopes: readonly string[]): RiderAuthenticator;
}

export function createAuthService(options: AuthRegistryOptions): AuthService {
  const registry = createAuthRegistry(options);
  const authenticator = (requiredScopes: readonly string[]): RiderAuthenticator => {
    return async (request) => {
      const origin = registry.originOf(request);
      if (!origin) return misdirectedResponse();
      const auth = registry.authFor(origin);
      return verifyRiderRequest(request, { auth, db: registry.store.db, origin, requiredScopes });
    };
  };
  return {
    registry,
    endpoints: createAuthEndpoints({ registry }),
    authenticate: authenticator([SCOPE_READ]),
    authenticator,
  };
}
