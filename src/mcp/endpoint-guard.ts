import { localhostAllowedHostnames } from '@modelcontextprotocol/server';

/** How the MCP endpoint guards itself: DNS-rebinding allow-lists, the rate limit, the proxy rule. */
export interface McpConfig {
  /** Host names (no port) a request may name in `Host`; `*` allows any. */
  readonly allowedHosts: readonly string[];
  /** Extra browser origins allowed besides the allowed hosts' own; `*` allows any. */
  readonly allowedOrigins: readonly string[];
  /** The per-connection limit: `rateBurst` calls per window of `rateBurst / ratePerMinute` minutes. */
  readonly ratePerMinute: number;
  readonly rateBurst: number;
  /** Trust the first `X-Forwarded-For` address (behind a proxy you run). */
  readonly trustProxy: boolean;
}

/** What the settings give for the guard; the allow-list adds localhost to the hosts named. */
export interface McpGuardSettings {
  /** Host names of the configured public URLs and of the deployment itself. */
  readonly publicHosts: readonly string[];
  /** `WOS_MCP_ALLOWED_HOSTS`. */
  readonly extraHosts: readonly string[];
  readonly allowedOrigins: readonly string[];
  readonly ratePerMinute: number;
  readonly rateBurst: number;
  readonly trustProxy: boolean;
}

/**
 * Allowed hosts default to localhost plus the host names of the configured
 * public URLs and, on Vercel, the deployment's own URLs, so a deployment
 * works without setting anything and a rebinding attacker's name never does.
 */
export function mcpGuardConfig(settings: McpGuardSettings): McpConfig {
  const hosts = [...localhostAllowedHostnames(), ...settings.publicHosts, ...settings.extraHosts];
  return {
    allowedHosts: [...new Set(hosts)],
    allowedOrigins: settings.allowedOrigins,
    ratePerMinute: settings.ratePerMinute,
    rateBurst: settings.rateBurst,
    trustProxy: settings.trustProxy,
  };
}
