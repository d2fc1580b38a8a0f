/**
 * One authorization server per public origin. The issuer, the token audience
 * and the cookie's Secure flag all derive from the origin, and `npm start` on
 * any port (or a preview deployment) must work without configuration, so the
 * origin comes from `WOS_SITE_URL` when set, else from the request, and an
 * instance is built on first use for each allowed origin.
 */
import type { ClientMetadataResourceFetch } from '@better-auth/oauth-provider';
import { LRUCache } from 'lru-cache';
import type { Store } from '../store/database.ts';
import { createMemoryWindowLimits } from '../store/shared-state/rate-limiter.ts';
import { createAuth, type AccountHooks, type Auth, type RateLimitStorage } from './auth.ts';
import type { AuthConfig } from './secret.ts';
import { oauthError } from './oauth-error.ts';

/** Origins kept warm at once; a request naming yet another one rebuilds (cheap, no I/O until used). */
const MAX_ORIGINS = 16;

export interface AuthRegistryOptions {
  readonly store: Pick<Store, 'db' | 'engine'>;
  readonly config: Pick<AuthConfig, 'secret' | 'siteUrl' | 'allowedHosts'>;
  /** CIMD transport; tests map their fake https client ids to a local server. */
  readonly cimdFetch?: ClientMetadataResourceFetch;
  readonly accessTokenTtlS?: number;
  readonly rateLimit?: boolean;
  /**
   * Shared sign-in limits (Redis); when absent, the same windows in this
   * instance's memory, shared by every origin's server (one allowance per
   * address), never better-auth's own counter, whose window works otherwise.
   */
  readonly rateLimitStorage?: RateLimitStorage;
  /** The account's mails and its erasure (see {@link AccountHooks}). */
  readonly account?: AccountHooks;
}

export interface AuthRegistry {
  readonly store: Pick<Store, 'db' | 'engine'>;
  /**
   * The public origin a request is served under, or undefined when its Host
   * is not an allowed one (a DNS-rebinding name, or a typo).
   */
  originOf(request: Request): string | undefined;
  /** The authorization server for an origin returned by {@link originOf}. */
  authFor(origin: string): Auth;
}

/** The answer to a request whose Host {@link AuthRegistry.originOf} refuses. */
export function misdirectedResponse(): Response {
  return oauthError({ status: 421, error: 'misdirected_request' });
}

export function createAuthRegistry(options: AuthRegistryOptions): AuthRegistry {
  const { store, config } = options;
  const rateLimitStorage = options.rateLimitStorage ?? createMemoryWindowLimits('auth-rate:');
  const anyHost = config.allowedHosts.includes('*');
  const instances = new LRUCache<string, Auth>({ max: MAX_ORIGINS });
  return {
    store,
    originOf(request) {
      if (config.siteUrl) return config.siteUrl;
      const url = URL.parse(request.url);
      if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) return undefined;
      return anyHost || config.allowedHosts.includes(url.hostname) ? url.origin : undefined;
    },
    authFor(origin) {
      const cached = instances.get(origin);
      if (cached) return cached;
      const auth = createAuth({
        origin,
        store,
        secret: config.secret,
        ...(options.cimdFetch ? { cimdFetch: options.cimdFetch } : {}),
        ...(options.accessTokenTtlS === undefined ? {} : { accessTokenTtlS: options.accessTokenTtlS }),
        ...(options.rateLimit === undefined ? {} : { rateLimit: options.rateLimit }),
        rateLimitStorage,
        ...(options.account ? { account: options.account } : {}),
      });
      instances.set(origin, auth);
      return auth;
    },
  };
}
