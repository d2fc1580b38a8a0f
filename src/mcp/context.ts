import type { EnsembleSource } from '../data/forecast/ensemble-types.ts';
import type { ForecastSource } from '../data/forecast/types.ts';
import type { Geocoder } from '../data/geocoding/types.ts';
import type { LiveCatalog } from '../data/discovery/live-catalog.ts';
import type { SegmentCatalog } from '../data/segments/types.ts';
import type { ResolvedUrls } from '../http/public-urls.ts';
import type { RiderCaller } from '../rider/rider-caller.ts';
import type { Store } from '../store/database.ts';

export type { RiderCaller };

/** The data sources behind the tools; built once per process. */
export interface McpDeps {
  readonly catalog: SegmentCatalog;
  readonly geocoder: Geocoder;
  readonly forecast: ForecastSource;
  /** The ensemble behind the chance of a tailwind; absent or null = answers carry no probabilities. */
  readonly ensemble?: EnsembleSource | null;
  /** Milliseconds since the epoch; injected so tests control "now". */
  readonly now: () => number;
  /**
   * Discovery on demand (`WOS_DISCOVERY=online`): brings the areas around a
   * place and stored segment ids into `catalog`; absent when the catalog is
   * all there is (seed mode).
   */
  readonly discovery?: Pick<LiveCatalog, 'prepare' | 'load'>;
  /** The rider store; only the rider address needs it. */
  readonly store?: Store;
}

/** Someone calling the public address: no identity beyond the limit's key. */
export interface AnonymousCaller {
  readonly kind: 'anonymous';
}

/** Who is calling: anonymous at the public address; a rider at the rider address. */
export type Caller = AnonymousCaller | RiderCaller;

/**
 * What differs from one request to the next: who calls, the public URLs as
 * this request spells them, and the key the per-connection limit counts
 * against. It travels with the request (the SDK's `authInfo`) to the tool
 * handler, never in the server, so a server can serve one request after
 * another without one caller ever seeing another's (`server-pool.ts`).
 */
export interface RequestFacts {
  readonly caller: Caller;
  readonly urls: ResolvedUrls;
  readonly limitKey: string;
}

/** What one tool call sees: the shared data sources and its request's facts. */
export type ToolContext = McpDeps & Omit<RequestFacts, 'limitKey'>;
