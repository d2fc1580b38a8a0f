import { ApiError } from '../core/problems.ts';
import { resolveUrls, type ApiConfig, type ResolvedUrls } from '../http/public-urls.ts';
import { ALLOWED_METHODS, jsonReply, preflightReply, type Reply } from './headers.ts';
import { problemReply } from './problem-reply.ts';
import type { HealthSource } from './schemas/results.ts';
import { ReplyMemo } from './reply-memo.ts';
import { parseQuery } from './query.ts';
import type { RestDataSource } from './data-port.ts';
import { ORIGIN_MEMO_SIZE, TargetReader, type RequestTarget } from './request-target.ts';
import { ROUTE_LIST, routeOf, type DataRoute, type SyncRoute } from './routes.ts';

/** A request line or Host header that makes no URL: answered, never thrown. */
function unreadable(href: string, config: ApiConfig): Reply {
  const error = new ApiError('not_found', {
    detail: 'The request target and Host header do not form a URL.',
    hint: `Send an origin-form request such as GET /v1/tailwind with a valid Host header. The endpoints are ${ROUTE_LIST}.`,
  });
  return problemReply(error, href.replace(/^https?:\/\/[^/]*/, '') || '/', config.docsUrl ?? '/docs');
}

/**
 * The endpoint's query: a plainly spelled valid query through the reader compiled from its schema,
 * everything else (and every problem) through the schema itself.
 */
function readQuery(route: SyncRoute, url: RequestTarget, compiled: boolean): Record<string, unknown> {
  const { query } = route.endpoint;
  if (!query) return {};
  const fast = compiled && url.plainQuery !== undefined ? route.compiled?.(url.plainQuery) : undefined;
  return fast ?? parseQuery(query, url.params);
}

/**
 * The answer of a data endpoint (data-endpoints.ts), loaded with the first
 * request that names one: a promise (bad input included, as its problem). A
 * replier built without the data sources (the docs' live examples, some
 * tests) fails these paths as internal_error, synchronously.
 */
function dataReply(
  { path }: DataRoute,
  rawId: string,
  url: RequestTarget,
  urls: ResolvedUrls,
  client: string | undefined,
  data: RestDataSource | undefined,
): Promise<Reply> {
  if (!data) throw new Error('the data endpoints were asked of a replier built without their data');
  // Loaded with the first data request: a calculation's cold start compiles none of it.
  return import('./data-endpoints.ts').then(({ dataAnswer }) =>
    dataAnswer(path, rawId, url, urls, client ?? 'unknown', data),
  );
}

function answer(
  method: string,
  url: RequestTarget,
  urls: ResolvedUrls,
  compiled: boolean,
  // Two arguments rather than an object: the synchronous endpoints' path allocates nothing for them.
  client: string | undefined,
  data: RestDataSource | undefined,
  sources: (() => readonly HealthSource[]) | undefined,
): Reply | Promise<Reply> {
  if (!(ALLOWED_METHODS as readonly string[]).includes(method)) {
    throw new ApiError('method_not_allowed', {
      detail: `${method} is not supported: the API is read-only.`,
      hint: `Use ${ALLOWED_METHODS.join(', ')}.`,
    });
  }
  const match = routeOf(url.pathname);
  if (!match) {
    throw new ApiError('not_found', {
      detail: `There is no endpoint at ${url.pathname}.`,
      hint: `The endpoints are ${ROUTE_LIST} (GET). Paths are case-sensitive.`,
    });
  }
  if (method === 'OPTIONS') return preflightReply();
  const { route } = match;
  if (route.kind === 'data') return dataReply(route, match.rawId, url, urls, client, data);
  const body = route.endpoint.run(readQuery(route, url, compiled), { urls, sources });
  return jsonReply(body, { cache: route.endpoint.cache });
}

/** The target's parts by the URL parser, for what `TargetReader` leaves to it. */
function parsedTarget(href: string): RequestTarget | undefined {
  const url = URL.parse(href);
  return url ? { origin: url.origin, pathname: url.pathname, params: url.searchParams } : undefined;
}

/**
 * The API as plain data: a method and an absolute URL in, a `Reply` out.
 * The URL comes as text so a remembered answer is found without parsing it.
 * The data endpoints answer later (a promise) and count requests per client
 * address, which the server passes as the third argument.
 */
export type ApiReplier = (method: string, href: string, client?: string) => Reply | Promise<Reply>;

/** A replier without the data endpoints' sources: every answer is immediate. */
export type SyncApiReplier = (method: string, href: string, client?: string) => Reply;

export interface ReplierOptions {
  /** How many distinct URLs' replies to remember (0 turns the memo off). */
  readonly memo?: number;
  /** Reads valid plain queries with the readers compiled from the schemas (false: zod reads every query; for tests). */
  readonly compiled?: boolean;
  /** The server's data sources and how they fared, for `/health`. */
  readonly sources?: () => readonly HealthSource[];
}

/** Options of a replier that also serves the data endpoints. */
export interface DataReplierOptions extends ReplierOptions {
  /** The forecast, catalog and geocoder behind `/v1/wind` and `/v1/segments`, built on first use. */
  readonly data: RestDataSource;
}

/** Enough for every popular query of a deployment, about 1 MB at most. */
const DEFAULT_MEMO = 1024;

/**
 * Every request's answer, computed without any runtime's request or
 * response objects, so each server can write it the cheapest way it has.
 * GET and HEAD answers are remembered per URL (see `ReplyMemo`): a repeated
 * request costs a Map lookup instead of validation, maths and JSON.
 */
export function createApiReplier(config?: ApiConfig, options?: ReplierOptions): SyncApiReplier;
export function createApiReplier(config: ApiConfig, options: DataReplierOptions): ApiReplier;
export function createApiReplier(
  config: ApiConfig = {},
  { memo = DEFAULT_MEMO, compiled = true, ...rest }: ReplierOptions & { data?: RestDataSource } = {},
): ApiReplier {
  const data = rest.data;
  const sources = rest.sources;
  const memory = new ReplyMemo(memo);
  const targets = new TargetReader();
  // The URLs follow from the origin alone, so each origin's are built once (bounded like the origins).
  const urlsByOrigin = new Map<string, ResolvedUrls>();
  const urlsOf = (origin: string): ResolvedUrls => {
    let urls = urlsByOrigin.get(origin);
    if (urls === undefined) {
      urls = resolveUrls(config, { origin });
      if (urlsByOrigin.size >= ORIGIN_MEMO_SIZE) urlsByOrigin.clear();
      urlsByOrigin.set(origin, urls);
    }
    return urls;
  };
  // Methods are case-sensitive (RFC 9110 §9.1): `get` is not GET, so it is a 405 here as on the Node listener.
  return (method, href, client) => {
    const memoizable = method === 'GET' || method === 'HEAD';
    const remembered = memoizable ? memory.get(href) : undefined;
    if (remembered) return method === 'HEAD' ? { ...remembered, body: null } : remembered;
    const url = targets.read(href) ?? parsedTarget(href);
    if (!url) return unreadable(href, config);
    // The docs URL the problem links to, even when resolving the configuration is what failed.
    let docs = `${url.origin}/docs`;
    let reply: Reply | Promise<Reply>;
    try {
      const urls = urlsOf(url.origin);
      docs = urls.docs;
      reply = answer(method, url, urls, compiled, client, data, sources);
    } catch (error) {
      reply = problemReply(error, url.pathname, docs);
    }
    // A data answer is never remembered: it changes with the forecast hour (its Cache-Control says so).
    if (reply instanceof Promise) return settled(reply, method, url.pathname, docs);
    if (memoizable) memory.remember(href, reply);
    // HEAD gets the GET answer's status and headers, without the body.
    return method === 'HEAD' ? { ...reply, body: null } : reply;
  };
}

/** A data answer, or its failure as a problem; HEAD without the body. */
async function settled(pending: Promise<Reply>, method: string, path: string, docs: string): Promise<Reply> {
  let reply: Reply;
  try {
    reply = await pending;
  } catch (error) {
    reply = problemReply(error, path, docs);
  }
  return method === 'HEAD' ? { ...reply, body: null } : reply;
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

/**
 * Wraps a replier as a fetch handler, so a server can share one replier (and its memo) between paths.
 * The client address comes beside the request (the server in front knows it), never from its headers.
 */
export function toFetchHandler(reply: ApiReplier): (request: Request, client?: string) => Promise<Response> {
  return async (request, client) => {
    const { status, headers, body } = await reply(request.method, request.url, client);
    return new Response(body, { status, headers });
  };
}
