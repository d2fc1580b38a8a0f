/**
 * Where the service lives. Every URL is optional: unset ones derive from the
 * request's origin, so a preview deployment or `npm start` on any port links
 * to itself without configuration.
 */
export interface ApiConfig {
  /** `{base_url}`: the API's public origin (env `WOS_BASE_URL`). */
  readonly baseUrl?: string | undefined;
  /** `{docs_url}`: the API guide, target of problem `type` URIs (env `WOS_DOCS_URL`). */
  readonly docsUrl?: string | undefined;
  /** `{mcp_url}`: the public MCP address (env `WOS_MCP_URL`). */
  readonly mcpUrl?: string | undefined;
  /** The documentation site's origin, for the pricing link (env `WOS_SITE_URL`). */
  readonly siteUrl?: string | undefined;
}

export interface ResolvedUrls {
  readonly base: string;
  readonly docs: string;
  readonly mcp: string;
  /** The page that documents the MCP server. */
  readonly mcpDocs: string;
  readonly pricing: string;
}

/** Fills the unset URLs from the origin the request came to. */
export function resolveUrls(config: ApiConfig, requestUrl: Pick<URL, 'origin'>): ResolvedUrls {
  const site = config.siteUrl ?? requestUrl.origin;
  return {
    base: config.baseUrl ?? requestUrl.origin,
    docs: config.docsUrl ?? `${site}/docs`,
    mcp: config.mcpUrl ?? `${site}/mcp`,
    mcpDocs: `${site}/docs/mcp`,
    pricing: `${site}/pricing`,
  };
}
