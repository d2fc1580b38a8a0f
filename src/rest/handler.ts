/**
 * The REST API with its endpoints' definitions at hand (`ENDPOINTS`, and with them zod): every answer
 * of a synchronous endpoint is immediate, problems included. For the scripts, the docs' live examples
 * and the tests; the composition root (`src/app/app.ts`) builds its replier with `createReplier`
 * (`replier.ts`) instead, loading the definitions on first need, so the REST function's first
 * `/v1/tailwind` loads no zod (decision 0045).
 */
import type { ApiConfig } from '../http/public-urls.ts';
import type { RestDataSource } from './data-port.ts';
import { ENDPOINTS } from './endpoints.ts';
import type { Reply } from './headers.ts';
import { createReplier, toFetchHandler, type ApiReplier, type ReplierOptions } from './replier.ts';

/** A replier without the data endpoints' sources: every answer is immediate. */
export type SyncApiReplier = (method: string, href: string, client?: string) => Reply;

/** Options of a replier that also serves the data endpoints. */
export interface DataReplierOptions extends ReplierOptions {
  /** The forecast, catalog and geocoder behind `/v1/wind` and `/v1/segments`, built on first use. */
  readonly data: RestDataSource;
}

/** The REST API as plain data (`createReplier`) over the definitions themselves. */
export function createApiReplier(config?: ApiConfig, options?: Omit<ReplierOptions, 'data'>): SyncApiReplier;
export function createApiReplier(config: ApiConfig, options: DataReplierOptions): ApiReplier;
export function createApiReplier(config: ApiConfig = {}, options: ReplierOptions = {}): ApiReplier {
  return createReplier(config, ENDPOINTS, options);
}

/**
 * The REST API as a fetch handler: `Request` in, `Response` out, no runtime
 * APIs beyond the web platform, for Vercel functions and in-process tests.
 */
export function createApiHandler(
  config: ApiConfig = {},
  options: ReplierOptions | DataReplierOptions = {},
): (request: Request, client?: string) => Promise<Response> {
  return toFetchHandler(createApiReplier(config, options as DataReplierOptions));
}
