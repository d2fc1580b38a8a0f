import type * as z from 'zod';
import type { ResolvedUrls } from '../http/public-urls.ts';
import type { CachePolicy } from './headers.ts';

/** What an operation can know about the request besides its query. */
export interface RouteContext {
  readonly urls: ResolvedUrls;
}

/**
 * One GET operation: its schemas (which validate, type the result, and
 * generate the OpenAPI entry), its cache policy, and the work it does.
 */
export interface Route<Q extends z.ZodObject = z.ZodObject, R extends z.ZodType = z.ZodType> {
  readonly operationId: string;
  readonly summary: string;
  readonly description: string;
  readonly tag: 'Wind' | 'Plans' | 'Service';
  readonly query?: Q;
  readonly result: R;
  readonly cache: CachePolicy;
  readonly run: (query: z.output<Q>, context: RouteContext) => z.input<R>;
}

/** Keeps the query and result types of a route tied to its schemas. */
export function defineRoute<Q extends z.ZodObject, R extends z.ZodType>(route: Route<Q, R>): Route<Q, R> {
  return route;
}
