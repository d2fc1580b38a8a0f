import type { ForecastSource } from '../data/forecast/types.ts';
import type { Geocoder } from '../data/geocoding/types.ts';
import type { SegmentCatalog } from '../data/segments/types.ts';
import type { ResolvedUrls } from '../http/config.ts';

/** The data sources behind the tools; built once per process. */
export interface McpDeps {
  readonly catalog: SegmentCatalog;
  readonly geocoder: Geocoder;
  readonly forecast: ForecastSource;
  /** Milliseconds since the epoch; injected so tests control "now". */
  readonly now: () => number;
}

/** Who is calling: anonymous at the public address; riders come with sign-in. */
export interface Caller {
  readonly kind: 'anonymous';
}

/** What one tool call sees. */
export interface ToolContext extends McpDeps {
  readonly caller: Caller;
  readonly urls: ResolvedUrls;
}
