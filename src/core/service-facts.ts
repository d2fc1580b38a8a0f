/**
 * Facts about the service itself that every surface reports the same way:
 * the REST API (`/health`, the OpenAPI `info.version`), the MCP server's
 * `serverInfo`, the docs and the changelog. Kept here, below every layer, so
 * none of them has to import another surface to learn its own version.
 *
 * Two versions, on purpose:
 * - the **service version** (`SERVICE_VERSION`) names a release of the whole
 *   service (site, REST, MCP, alerts, billing): `/health`, the MCP
 *   `serverInfo` and `package.json` report it, and it is the newest release of
 *   the changelog (`RELEASES`);
 * - the **API version** (`API_VERSION`) is the version of the REST contract,
 *   the OpenAPI document's `info.version`; it changes only when the REST
 *   contract does (new or changed fields, paths, errors).
 * `tests/unit/versions.test.ts` ties them to `package.json` and the changelog.
 */

/** The service name, as the MCP `serverInfo` and the docs give it. */
export const SERVICE_NAME = 'wind-on-segment';

/** One release of the service, as the changelog heads it. */
export interface Release {
  readonly version: string;
  /** The day it was released (UTC, YYYY-MM-DD); null only where it was never recorded. */
  readonly date: string | null;
  /** The REST contract it serves. */
  readonly apiVersion: string;
}

/**
 * Every release, newest first: the changelog's sections (`src/pages/changelog.astro`) in the same
 * order. A new release goes on top, with `package.json`'s `version` bumped to match.
 */
export const RELEASES: readonly Release[] = [
  { version: '1.8.2', date: '2026-12-07', apiVersion: '1.4.0' },
  { version: '1.8.1', date: '2026-12-07', apiVersion: '1.4.0' },
  { version: '1.8.0', date: '2026-12-07', apiVersion: '1.4.0' },
  { version: '1.7.3', date: '2026-11-28', apiVersion: '1.3.0' },
  { version: '1.7.2', date: '2026-11-28', apiVersion: '1.3.0' },
  { version: '1.7.1', date: '2026-11-28', apiVersion: '1.2.0' },
  { version: '1.7.0', date: '2026-11-28', apiVersion: '1.2.0' },
  { version: '1.6.0', date: '2026-11-27', apiVersion: '1.1.0' },
  { version: '1.5.0', date: '2026-11-26', apiVersion: '1.1.0' },
  { version: '1.4.0', date: '2026-11-24', apiVersion: '1.1.0' },
  { version: '1.3.0', date: '2026-11-23', apiVersion: '1.1.0' },
  { version: '1.2.0', date: '2026-11-22', apiVersion: '1.1.0' },
  { version: '1.1.0', date: '2026-11-21', apiVersion: '1.1.0' },
  { version: '1.0.0', date: null, apiVersion: '1.0.0' },
];

const [newest] = RELEASES;
if (newest === undefined) throw new Error('RELEASES lists no release.');

/** The service version reported by `/health` and the MCP `serverInfo`: the changelog's newest release. */
export const SERVICE_VERSION: string = newest.version;

/** The REST contract's version: the OpenAPI `info.version`. */
export const API_VERSION: string = newest.apiVersion;
