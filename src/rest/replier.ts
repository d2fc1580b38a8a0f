/**
 * The REST API as plain data (`createReplier`), with the endpoints' definitions given or loaded on
 * first need. Nothing here imports zod or a schema: a valid plain query of a synchronous endpoint is
 * answered from the route table alone (`routes.ts`), and only a query its compiled reader does not
 * accept, a problem or `/openapi.json` asks for the definitions (`endpoints.ts`), which the REST
 * function loads then (decision 0045). `handler.ts` gives them at once, for a replier whose every
 * answer to a synchronous endpoint is immediate.
 */
import { ApiError } from '../core/problems.ts';
import { resolveUrls, type ApiConfig, type ResolvedUrls } from '../http/public-urls.ts';
import { ALLOWED_METHODS, jsonReply, preflightReply, type Reply } from './headers.ts';
import type { Endpoint, EndpointContext } from './operation.ts';
import { problemReply } from './problem-reply.ts';
import type { HealthSource } from './schemas/results.ts';
import { ReplyMemo } from './reply-memo.ts';
import { parseQuery } from './query.ts';
import type { RestDataSource } from './data-port.ts';
import { ORIGIN_MEMO_SIZE, TargetReader, type RequestTarget } from './request-target.ts';
import { ROUTE_LIST, routeOf, type DataRoute, type SyncRoute } from './routes.ts';

/** Every synchronous endpoint's definition by path: `ENDPOINTS` (`endpoints.ts`). */
export type EndpointTable = Readonly<Record<string, Endpoint>>;

/** The definitions as a replier gets them: the table itself, or how to load it on first need. */
export type EndpointSource = EndpointTable | (() => Promise<EndpointTable>);

/**
 * Runs `use` over the endpoints' definitions: at once when they are at hand, else once they have
 * loaded (a failed load is tried again by the next request that needs them).
 */
function definitionsOf(source: EndpointSource) {
  let table = typeof source === 'function' ? undefined : source;
  let loading: Promise<EndpointTable> | undefined;
  return <T>(use: (endpoints: EndpointTable) => T): T | Promise<T> => {
    if (table !== undefined) return use(table);
    const load = source as () => Promise<EndpointTable>;
    loading ??= load().then(
      (loaded) => (table = loaded),
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    );
    return loading.then(use);
  };
}

type WithDefinitions = ReturnType<typeof definitionsOf>;

/** A request line or Host header that makes no URL: answered, never thrown. */
function unreadable(href: string, config: ApiConfig): Reply {
  const error = new ApiError('not_found', {
    detail: 'The request target and Host header do not form a URL.',
    hint: `Send an origin-form request such as GET /v1/tailwind with a valid Host header. The endpoints are ${ROUTE_LIST}.`,
  });
  return problemReply(error, href.replace(/^https?:\/\/[^/]*/, '') || '/', config.docsUrl ?? '/docs');
}

/**
 * The endpoint's query when the route can answer it without the endpoint's schema: none for an
 * endpoint without a query, else a plainly spelled valid one through the reader compiled from its
 * schema's plan; `undefined` for everything else, which the schema itself reads.
 */
function plainQuery(route: SyncRoute, url: RequestTarget, compiled: boolean): object | undefined {
  if (!route.query) return {};
  return compiled && url.plainQuery !== undefined ? route.compiled?.(url.plainQuery) : undefined;
}

/** A synchronous endpoint's answer through its definition: its schema reads the query (and words every problem). */
function definedReply(
  endpoints: EndpointTable,
  route: SyncRoute,
  url: RequestTarget,
  context: EndpointContext,
): Reply {
  const endpoint = endpoints[route.path];
  if (endpoint === undefined) throw new Error(`no endpoint is defined at ${route.path}`);
  const query = endpoint.query ? parseQuery(endpoint.query, url.params) : {};
  return jsonReply(endpoint.run(query, context), { cache: endpoint.cache });
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
  definitions: WithDefinitions,
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
  const context = { urls, sources };
  // A valid plain query (or none) is answered from the route table; anything else needs the definitions.
  const query = route.answer && plainQuery(route, url, compiled);
  if (route.answer && query !== undefined) {
    return jsonReply(route.answer.run(query as never, context), { cache: route.answer.cache });
  }
  return definitions((endpoints) => definedReply(endpoints, route, url, context));
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

export interface ReplierOptions {
  /** How many distinct URLs' replies to remember (0 turns the memo off). */
  readonly memo?: number;
  /** Reads valid plain queries with the readers compiled from the schemas (false: zod reads every query; for tests). */
  readonly compiled?: boolean;
  /** The server's data sources and how they fared, for `/health`. */
  readonly sources?: () => readonly HealthSource[];
  /** The forecast, catalog and geocoder behind `/v1/wind` and `/v1/segments`, built on first use. */
  readonly data?: RestDataSource;
}

/** Enough for every popular query of a deployment, about 1 MB at most. */
const DEFAULT_MEMO = 1024;

/**
 * Every request's answer, computed without any runtime's request or
 * response objects, so each server can write it the cheapest way it has.
 * GET and HEAD answers are remembered per URL (see `ReplyMemo`): a repeated
 * request costs a Map lookup instead of validation, maths and JSON.
 * `endpoints` are the synchronous endpoints' definitions, or how to load them: a loader makes the
 * first answer that needs them a promise, as a data endpoint's is.
 */
export function createReplier(
  config: ApiConfig,
  endpoints: EndpointSource,
  { memo = DEFAULT_MEMO, compiled = true, ...rest }: ReplierOptions = {},
): ApiReplier {
  const data = rest.data;
  const sources = rest.sources;
  const memory = new ReplyMemo(memo);
  const definitions = definitionsOf(endpoints);
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
      reply = answer(method, url, urls, compiled, definitions, client, data, sources);
    } catch (error) {
      reply = problemReply(error, url.pathname, docs);
    }
    // A later answer is not remembered: a data answer changes with the forecast hour (its Cache-Control
    // says so); one that waited for the definitions is remembered when next asked.
    if (reply instanceof Promise) return settled(reply, method, url.pathname, docs);
    if (memoizable) memory.remember(href, reply);
    // HEAD gets the GET answer's status and headers, without the body.
    return method === 'HEAD' ? { ...reply, body: null } : reply;
  };
}

/** A later answer (a data endpoint's, or one that waited for the definitions), or its failure as a problem; HEAD without the body. */
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
 * Wraps a replier as a fetch handler, so a server can share one replier (and its memo) between paths.
 * The client address comes beside the request (the server in front knows it), never from its headers.
 */
export function toFetchHandler(reply: ApiReplier): (request: Request, client?: string) => Promise<Response> {
  return async (request, client) => {
    const { status, headers, body } = await reply(request.method, request.url, client);
    return new Response(body, { status, headers });
  };
}
