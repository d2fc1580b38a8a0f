/**
 * The public addresses the service names in links, problem types, the OpenAPI
 * `servers` entry and the MCP host guard; each falls back to the request's
 * own origin when unset.
 */
import type { ApiConfig } from '../../http/public-urls.ts';
import { setting, type SettingValues } from './setting-field.ts';
import { httpUrl } from './text-readers.ts';

export const URL_SETTINGS = {
  WOS_SITE_URL: setting<string | undefined>({
    group: 'server',
    shownDefault: 'request origin',
    description: 'Origin of the documentation site (pricing link, sign-in origin, defaults below)',
    accepts: 'an http(s) URL',
    parse: httpUrl,
    fallback: undefined,
  }),
  WOS_BASE_URL: setting<string | undefined>({
    group: 'server',
    shownDefault: 'request origin',
    description: '`{base_url}`: the API origin, the OpenAPI `servers` entry',
    accepts: 'an http(s) URL',
    parse: httpUrl,
    fallback: undefined,
  }),
  WOS_DOCS_URL: setting<string | undefined>({
    group: 'server',
    shownDefault: '`<site>/docs`',
    description: '`{docs_url}`: base of every problem `type` URI',
    accepts: 'an http(s) URL',
    parse: httpUrl,
    fallback: undefined,
  }),
  WOS_MCP_URL: setting<string | undefined>({
    group: 'server',
    shownDefault: '`<site>/mcp`',
    description: '`{mcp_url}`: the public MCP address',
    accepts: 'an http(s) URL',
    parse: httpUrl,
    fallback: undefined,
  }),
};

type UrlEnvironment = SettingValues<typeof URL_SETTINGS>;

/** The addresses as the link builders take them: only those set, the rest follow the request. */
export function publicUrlsOf(v: UrlEnvironment): ApiConfig {
  return {
    ...(v.WOS_SITE_URL ? { siteUrl: v.WOS_SITE_URL } : {}),
    ...(v.WOS_BASE_URL ? { baseUrl: v.WOS_BASE_URL } : {}),
    ...(v.WOS_DOCS_URL ? { docsUrl: v.WOS_DOCS_URL } : {}),
    ...(v.WOS_MCP_URL ? { mcpUrl: v.WOS_MCP_URL } : {}),
  };
}
