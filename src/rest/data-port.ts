import type { LiveCatalog } from '../data/discovery/live-catalog.ts';
import type { CallAllowance } from '../service/call-allowance.ts';
import type { CatalogSegmentParts } from '../service/catalog-segment.ts';
import type { SegmentsNearParts } from '../service/segments-near.ts';

/**
 * What the data endpoints (`/v1/wind`, `/v1/segments`, `/v1/segments/{id}`)
 * read, as the composition root hands it over (`src/app/parts.ts`): the
 * parts the use cases of `src/service` read (the forecast, the catalog with
 * discovery, the place search, the profiles, the clock), the same the MCP
 * tools read, and the per-client limit. The endpoints call the use cases
 * themselves; the handler loads them with the first data request only, so
 * `/v1/tailwind` and the REST function's cold start load none of it.
 */
export interface RestData extends SegmentsNearParts, CatalogSegmentParts {
  readonly discovery?: Pick<LiveCatalog, 'prepare' | 'load'> | undefined;
  /** The per-client allowance (shared through Redis when configured); a route takes one request of it (`admitCall`). */
  readonly limiter: CallAllowance;
}

/** The port as the replier receives it: built on the first data request. */
export type RestDataSource = () => Promise<RestData>;

/**
 * The data endpoints' allowance per client address: a window of `burst`
 * requests lasting `burst / perMinute` minutes. Generous enough for a page
 * judging a 300 km route (about one `/v1/wind` per 0.05° cell it crosses, so
 * under a hundred at once), tight enough that one address cannot drive the
 * forecast, place search and discovery services the answers reach.
 */
export const DATA_RATE_LIMIT = { perMinute: 120, burst: 120 } as const;
