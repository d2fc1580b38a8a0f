import type * as z from 'zod';
import type { ResolvedUrls } from '../http/public-urls.ts';
import type { CachePolicy } from './headers.ts';
import type { HealthSource } from './schemas/results.ts';

/** What an operation can know about the request besides its query. */
export interface EndpointContext {
  readonly urls: ResolvedUrls;
  /** The server's data sources and how they fared (`/health`); absent where the replier was built without. */
  readonly sources: (() => readonly HealthSource[]) | undefined;
}

/**
 * One GET operation: its schemas (which validate, type the result, and
 * generate the OpenAPI entry), its cache policy, and the work it does.
 */
export interface Endpoint<Q extends z.ZodObject = z.ZodObject, R extends z.ZodType = z.ZodType> {
  readonly operationId: string;
  readonly summary: string;
  readonly description: string;
  readonly tag: 'Wind' | 'Plans' | 'Service';
  readonly query?: Q;
  readonly result: R;
  readonly cache: CachePolicy;
  readonly run: (query: z.output<Q>, context: EndpointContext) => z.input<R>;
}

/** Keeps the query and result types of an endpoint tied to its schemas. */
export function defineEndpoint<Q extends z.ZodObject, R extends z.ZodType>(
  endpoint: Endpoint<Q, R>,
): Endpoint<Q, R> {
  return endpoint;
}
