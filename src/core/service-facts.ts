/**
 * Facts about the service itself that every surface reports the same way:
 * the REST API (`/health`, the OpenAPI `info.version`), the MCP server's
 * `serverInfo` and the docs. Kept here, below every layer, so none of them
 * has to import another surface to learn its own version.
 */

/** The service name, as the MCP `serverInfo` and the docs give it. */
export const SERVICE_NAME = 'wind-on-segment';

/** The service version reported by `/health`, `info.version` and the MCP `serverInfo`. */
export const API_VERSION = '1.1.0';
