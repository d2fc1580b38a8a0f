/**
 * Each synchronous endpoint's path, in the order of `ENDPOINTS`, with how the route table reads its
 * query: whether it has one, and the plan (`queryPlan`) a valid plain query is read by without zod.
 *
 * Run from source, the table is read off the schemas here. The function bundles swap this module for
 * one generated at build time from the same schemas (`scripts/vercel/prebuilt-sync-queries.ts`): the
 * plans as data, each rule named in `QUERY_RULES`, so the REST function's route table is built
 * without loading zod or a schema, which load with the first query the plan does not accept
 * (decision 0045). `tests/unit/prebuilt-sync-queries.test.ts` holds the two tables equal.
 */
import { ENDPOINTS } from './endpoints.ts';
import type { QueryPlan } from './query-rules.ts';
import { queryPlan } from './schemas/query-schemas.ts';

/** How one synchronous endpoint's query is read. */
export interface SyncQuery {
  /** Whether the endpoint reads a query at all. */
  readonly query: boolean;
  /** The plan of its query schema, when it has one: then a valid plain query needs no schema. */
  readonly plan?: QueryPlan;
}

export const SYNC_QUERIES: Readonly<Record<string, SyncQuery>> = Object.fromEntries(
  Object.entries(ENDPOINTS).map(([path, { query }]) => {
    const plan = query && queryPlan(query);
    return [path, { query: query !== undefined, ...(plan ? { plan } : {}) }];
  }),
);
