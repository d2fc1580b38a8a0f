/**
 * The authorization server for the rider MCP address: better-auth (accounts,
 * sessions, scrypt passwords, CSRF checks) with the OAuth 2.1 provider plugin
 * (authorization code + PKCE, DCR, rotating refresh tokens, revocation), the
 * jwt plugin (EdDSA-signed access tokens with an audience) and the CIMD plugin
 * (an https URL as client_id). Its tables live in our own store, through the
 * same Kysely instance.
 */
import { cimd } from '@better-auth/cimd';
import { fetchClientMetadataResource } from '@better-auth/cimd/node';
import { oauthProvider, type ClientMetadataResourceFetch } from '@better-auth/oauth-provider';
import { betterAuth, type BetterAuthOptions } from 'better-auth';
import { jwt } from 'better-auth/plugins';
import { CLIENT_ADDRESS_HEADER } from '../http/client-address.ts';
import type { Store } from '../store/database.ts';
import { createMemoryWindowLimits } from '../store/shared-state/rate-limiter.ts';
import { CONNECT_ERROR_PATH } from './client-refusal.ts';
import { ensureRider } from '../rider/rider-account.ts';
import type { Mailer, MailMessage } from '../data/mail/mailer.ts';
import { resetMail, verificationMail } from './account-mail.ts';
import {
  ACCESS_TOKEN_TTL_S,
  ACCOUNT_MAILS_PER_HOUR,
  RESET_TOKEN_TTL_S,
  VERIFY_TOKEN_TTL_S,
  AUTH_BASE_PATH,
  AUTH_SCOPES,
  CODE_TTL_S,
  MAX_PASSWORD_LENGTH,
  MIN_PASSWORD_LENGTH,
  REFRESH_REUSE_INTERVAL_S,
  REFRESH_TOKEN_TTL_S,
  issuerFor,
  riderResourcesFor,
} from '../rider/access-policy.ts';

/**
 * Endpoints better-auth serves by default that riders must not reach: the
 * session-to-JWT endpoint (we only sign OAuth access tokens), the
 * session-backed client management (any signed-in rider could mint
 * confidential clients), and the consent endpoints that revoke nothing
 * (disconnecting goes through /api/rider/connections/…/disconnect).
 */
export const DISABLED_AUTH_PATHS = [
  '/token',
  '/oauth2/create-client',
  '/oauth2/get-client',
  '/oauth2/get-clients',
  '/oauth2/update-client',
  '/oauth2/delete-client',
  '/oauth2/client/rotate-secret',
  '/oauth2/get-consent',
  '/oauth2/get-consents',
  '/oauth2/update-consent',
  '/oauth2/delete-consent',
];

export interface CreateAuthOptions {
  /** The public origin (`https://host` or `http://127.0.0.1:PORT`): issuer, audience and cookie scope derive from it. */
  readonly origin: string;
  readonly store: Pick<Store, 'db' | 'engine'>;
  /** At least 32 random characters: signs the login/consent query, encrypts the signing keys. */
  readonly secret: string;
  /** How CIMD documents are fetched; defaults to the DNS-pinning https-only Node transport. */
  readonly cimdFetch?: ClientMetadataResourceFetch;
  /** Access-token lifetime; tests shorten it to watch a token expire. */
  readonly accessTokenTtlS?: number;
  /** better-auth's per-address rate limits (3 sign-ins per 10 s…); on unless a test turns it off. */
  readonly rateLimit?: boolean;
  /**
   * Where those limits are counted (`src/store/shared-state/rate-limiter.ts`):
   * this instance's memory, or Redis (`createRedisWindowLimits`) so that
   * every instance counts against one allowance per address; the same
   * windows either way.
   */
  readonly rateLimitStorage?: RateLimitStorage;
  /** What the account does beyond signing in: its mails, and what goes with it when it is deleted. */
  readonly account?: AccountHooks;
}

/**
 * The account's ties to the rest of the service, filled by the composition
 * root: the mailer (verification and reset links; without one, none are
 * sent and verification cannot happen) and the erasure that runs before
 * better-auth deletes the user (payments cancelled, every row of the rider
 * removed; throwing refuses the deletion and keeps everything).
 */
export interface AccountHooks {
  readonly mail?: Mailer;
  readonly beforeDelete?: (userId: string) => Promise<void>;
}

/** better-auth's custom rate-limit storage: one atomic check-and-count per request. */
export type RateLimitStorage = NonNullable<NonNullable<BetterAuthOptions['rateLimit']>['customStorage']>;

/** The option object shared by the running server and the migration (which only reads its schema). */
export function authOptions(options: CreateAuthOptions) {
  const { origin, store } = options;
  const db = store.db;
  const limits = options.rateLimitStorage ?? createMemoryWindowLimits('auth-rate:');
  const mailer = options.account?.mail;
  /**
   * Sends an account mail unless the address had its hourly share, whoever
   * asked; a refusal or an SMTP failure is logged, never told to the caller
   * (the answer is the same whether an address exists, got a mail or not).
   */
  const sendAccountMail = async (kind: string, message: MailMessage): Promise<void> => {
    if (!mailer) return;
    const key = `account-mail:${message.to.toLowerCase()}`;
    const decision = await limits.consume(key, { window: 3600, max: ACCOUNT_MAILS_PER_HOUR });
    if (!decision.allowed) {
      console.warn(
        `sign-in: ${kind} mail not sent: this address had ${ACCOUNT_MAILS_PER_HOUR} in the last hour`,
      );
      return;
    }
    await mailer.send(message).catch((error: unknown) => {
      console.error(
        `sign-in: ${kind} mail not sent: ${error instanceof Error ? error.message : String(error)}`,
      );
    });
  };
  return {
    appName: 'wind-on-segment',
    baseURL: origin,
    basePath: AUTH_BASE_PATH,
    secret: options.secret,
    database: { db, type: store.engine === 'postgres' ? 'postgres' : 'sqlite' },
    telemetry: { enabled: false },
    trustedOrigins: [origin],
    disabledPaths: DISABLED_AUTH_PATHS,
    emailAndPassword: {
      enabled: true,
      minPasswordLength: MIN_PASSWORD_LENGTH,
      maxPasswordLength: MAX_PASSWORD_LENGTH,
      // A reset link is single-use (better-auth consumes it) and short-lived; a reset ends every browser session.
      resetPasswordTokenExpiresIn: RESET_TOKEN_TTL_S,
      revokeSessionsOnPasswordReset: true,
      ...(mailer
        ? {
            sendResetPassword: ({ user, url }: { user: { email: string }; url: string }) =>
              sendAccountMail('password reset', resetMail(user.email, url)),
          }
        : {}),
    },
    ...(mailer
      ? {
          emailVerification: {
            sendOnSignUp: true,
            autoSignInAfterVerification: true,
            expiresIn: VERIFY_TOKEN_TTL_S,
            sendVerificationEmail: ({ user, url }: { user: { email: string }; url: string }) =>
              sendAccountMail('verification', verificationMail(user.email, url)),
          },
        }
      : {}),
    user: {
      deleteUser: {
        enabled: true,
        // Runs before better-auth deletes the user row; throwing keeps the account whole.
        beforeDelete: async (user: { id: string }) => {
          await options.account?.beforeDelete?.(user.id);
        },
      },
    },
    rateLimit: {
      enabled: options.rateLimit ?? true,
      storage: 'memory',
      // Our windows even without Redis: better-auth's own counter restarts its window only after a quiet one.
      customStorage: limits,
      // Per address: a few reset and verification requests a minute (the mail itself is also limited per address).
      customRules: {
        '/request-password-reset': { window: 60, max: 3 },
        '/send-verification-email': { window: 60, max: 3 },
        '/reset-password': { window: 60, max: 5 },
        '/delete-user': { window: 60, max: 5 },
      },
    },
    // Requests the provider refuses before it can trust the client's redirect address land on our page.
    onAPIError: { errorURL: `${origin}${CONNECT_ERROR_PATH}` },
    advanced: {
      // Browsers drop Secure cookies on http://localhost; production runs on https.
      useSecureCookies: origin.startsWith('https://'),
      // better-auth turns its Origin (CSRF) check off when NODE_ENV=test; keep it on everywhere.
      disableOriginCheck: false,
      // Set by our routes (any client copy replaced): the sign-in limit counts per caller, not per X-Forwarded-For.
      ipAddress: { ipAddressHeaders: [CLIENT_ADDRESS_HEADER] },
    },
    databaseHooks: {
      user: {
        create: {
          // Runs after the sign-up transaction commits; ensureRider repairs a missed row later.
          after: async (user: { id: string; email: string; createdAt: Date }) => {
            await ensureRider(db, user);
          },
        },
      },
    },
    plugins: [
      jwt({ jwt: { issuer: issuerFor(origin) }, disableSettingJwtHeader: true }),
      oauthProvider({
        loginPage: '/login',
        consentPage: '/consent',
        signup: { page: '/signup' },
        scopes: [...AUTH_SCOPES],
        grantTypes: ['authorization_code', 'refresh_token'],
        // Both spellings of the rider address (`/mcp/rider` and `/mcp/rider/`) are the one resource:
        // a client given either may name it in `resource`, and the token is good at both.
        resources: [...riderResourcesFor(origin)],
        clientRegistrationDefaultResources: [...riderResourcesFor(origin)],
        clientRegistrationAllowedResources: [...riderResourcesFor(origin)],
        allowDynamicClientRegistration: true,
        allowUnauthenticatedClientRegistration: true,
        accessTokenExpiresIn: options.accessTokenTtlS ?? ACCESS_TOKEN_TTL_S,
        refreshTokenExpiresIn: REFRESH_TOKEN_TTL_S,
        // Sequential reuse inside the interval gets the stored answer again; truly
        // simultaneous refreshes are lined up by our token route (refresh-grace.ts).
        refreshTokenReuseInterval: REFRESH_REUSE_INTERVAL_S,
        codeExpiresIn: CODE_TTL_S,
        ...(options.rateLimit === false
          ? {
              rateLimit: {
                register: false,
                token: false,
                authorize: false,
                revoke: false,
                introspect: false,
              },
            }
          : {}),
      }),
      cimd({
        fetchClientMetadataResource: options.cimdFetch ?? fetchClientMetadataResource,
        metadataProfile: 'mcp-2026-07-28',
      }),
    ],
  } satisfies BetterAuthOptions;
}

/** One authorization server for one public origin. */
export function createAuth(options: CreateAuthOptions) {
  return betterAuth(authOptions(options));
}

export type Auth = ReturnType<typeof createAuth>;
