import { localhostAllowedHostnames } from '@modelcontextprotocol/server';

/** How the MCP endpoint guards itself; read once from the environment. */
export interface McpConfig {
  /** Host names (no port) a request may name in `Host`; `*` allows any. */
  readonly allowedHosts: readonly string[];
  /** Extra browser origins allowed besides the allowed hosts' own; `*` allows any. */
  readonly allowedOrigins: readonly string[];
  /** Per-connection token bucket. */
  readonly ratePerMinute: number;
  readonly rateBurst: number;
  /** Trust the first `X-Forwarded-For` address (behind a proxy you run). */
  readonly trustProxy: boolean;
}

const list = (value: string | undefined): string[] =>
  (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

function hostnameOf(url: string | undefined): string[] {
  if (!url) return [];
  const parsed = URL.parse(url.includes('://') ? url : `https://${url}`);
  return parsed ? [parsed.hostname] : [];
}

function positive(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value.trim() === '') return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number, got "${value}"`);
  return n;
}

/**
 * Allowed hosts default to localhost plus the host names of the configured
 * public URLs and, on Vercel, the deployment's own URLs, so a deployment
 * works without setting anything and a rebinding attacker's name never does.
 */
export function mcpConfigFromEnv(env: Record<string, string | undefined>): McpConfig {
  const explicit = list(env['WOS_MCP_ALLOWED_HOSTS']);
  const derived = [
    ...localhostAllowedHostnames(),
    ...[
      'WOS_SITE_URL',
      'WOS_BASE_URL',
      'WOS_MCP_URL',
      'VERCEL_URL',
      'VERCEL_BRANCH_URL',
      'VERCEL_PROJECT_PRODUCTION_URL',
    ].flatMap((name) => hostnameOf(env[name])),
  ];
  return {
    allowedHosts: [...new Set([...derived, ...explicit])],
    allowedOrigins: list(env['WOS_MCP_ALLOWED_ORIGINS']),
    ratePerMinute: positive('WOS_MCP_RATE_PER_MINUTE', env['WOS_MCP_RATE_PER_MINUTE'], 60),
    rateBurst: positive('WOS_MCP_RATE_BURST', env['WOS_MCP_RATE_BURST'], 20),
    trustProxy: env['WOS_TRUST_PROXY'] === '1' || env['WOS_TRUST_PROXY'] === 'true',
  };
}
