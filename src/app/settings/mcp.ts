/**
 * The MCP endpoint's guards: which hosts and origins may call it (beyond the
 * service's own public hosts, which the composition adds) and how fast.
 */
import { setting, type SettingValues } from './setting-field.ts';
import { flag, list, positiveNumber } from './text-readers.ts';

export const MCP_SETTINGS = {
  WOS_MCP_ALLOWED_HOSTS: setting<readonly string[]>({
    group: 'mcp',
    shownDefault: "localhost, the `WOS_*_URL` hosts, Vercel's",
    description: 'Extra host names a request may name in `Host` (DNS-rebinding guard); `*` allows any',
    accepts: 'a comma-separated list of host names',
    parse: list,
    fallback: [],
  }),
  WOS_MCP_ALLOWED_ORIGINS: setting<readonly string[]>({
    group: 'mcp',
    shownDefault: 'none beyond the allowed hosts',
    description: 'Extra browser origin host names allowed to call the server; `*` allows any',
    accepts: 'a comma-separated list of host names',
    parse: list,
    fallback: [],
  }),
  WOS_MCP_RATE_PER_MINUTE: setting({
    group: 'mcp',
    shownDefault: '`60`',
    description:
      'Tool calls per minute per connection, on average: a window of the burst lasts burst ÷ rate min',
    accepts: 'a positive number',
    parse: positiveNumber,
    fallback: 60,
  }),
  WOS_MCP_RATE_BURST: setting({
    group: 'mcp',
    shownDefault: '`20`',
    description: 'Tool calls a connection may make in one window (at once, if it likes)',
    accepts: 'a positive number',
    parse: positiveNumber,
    fallback: 20,
  }),
  WOS_TRUST_PROXY: setting({
    group: 'mcp',
    shownDefault: 'unset',
    description:
      '`1`: `npm start` takes the client IP from the first `X-Forwarded-For` entry (behind your proxy)',
    accepts: '"1", "true", "0" or "false"',
    parse: flag,
    fallback: false,
  }),
};

type McpEnvironment = SettingValues<typeof MCP_SETTINGS>;

/** The guards as the MCP service takes them; `publicHosts` are the host names of the service's own addresses. */
export function mcpOf(v: McpEnvironment, publicHosts: string[]) {
  return {
    publicHosts,
    extraHosts: v.WOS_MCP_ALLOWED_HOSTS,
    allowedOrigins: v.WOS_MCP_ALLOWED_ORIGINS,
    ratePerMinute: v.WOS_MCP_RATE_PER_MINUTE,
    rateBurst: v.WOS_MCP_RATE_BURST,
    trustProxy: v.WOS_TRUST_PROXY,
  };
}
