import * as z from 'zod';
import { createDocument, type ZodOpenApiOperationObject } from 'zod-openapi';
import { PROBLEM_CODES } from '../core/problems.ts';
import { PROBLEM_MEDIA_TYPE, PROBLEM_STATUS } from '../http/problem-json.ts';
import { API_VERSION } from '../core/service-facts.ts';
import type { ResolvedUrls } from '../http/public-urls.ts';
import type { Endpoint } from './operation.ts';
import { DATA_ENDPOINTS, type DataEndpoint } from './data-endpoints.ts';
import { ProblemSchema } from './schemas/problem.ts';

const headers = {
  'Cache-Control': {
    description: 'How long browsers and the CDN may keep this answer.',
    schema: { type: 'string' as const },
  },
  'Access-Control-Allow-Origin': {
    description: 'Always `*`: CORS is open to every origin.',
    schema: { type: 'string' as const },
  },
};

function operation(endpoint: Endpoint): ZodOpenApiOperationObject {
  const problem = (description: string) => ({
    description,
    headers,
    content: { [PROBLEM_MEDIA_TYPE]: { schema: ProblemSchema } },
  });
  return {
    operationId: endpoint.operationId,
    summary: endpoint.summary,
    description: endpoint.description,
    tags: [endpoint.tag],
    ...(endpoint.query ? { requestParams: { query: endpoint.query } } : {}),
    responses: {
      '200': {
        description: endpoint.summary,
        headers,
        content: { 'application/json': { schema: endpoint.result } },
      },
      ...(endpoint.query
        ? {
            '400': problem(
              'A parameter is missing (missing_parameter), or is not a number, out of range ' +
                'or sent twice (invalid_parameter).',
            ),
          }
        : {}),
      default: problem('Unexpected failure (internal_error); the client may retry.'),
    },
  };
}

/** The problems a data endpoint may answer, grouped by status as OpenAPI lists responses. */
function dataProblems(endpoint: DataEndpoint, problem: (description: string) => object) {
  const byStatus = new Map<number, string[]>();
  for (const code of endpoint.problems) {
    const { title } = PROBLEM_CODES[code];
    const status = PROBLEM_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), `${title} (${code})`]);
  }
  const retry = {
    'Retry-After': {
      description: 'Seconds to wait before asking again.',
      schema: { type: 'integer' as const },
    },
  };
  return Object.fromEntries(
    [...byStatus].map(([status, names]) => {
      const response = problem(`${names.join('; ')}.`) as { headers: object };
      const headersOf =
        status === 429 || status === 503 ? { ...response.headers, ...retry } : response.headers;
      return [String(status), { ...response, headers: headersOf }];
    }),
  );
}

/** A data endpoint's operation: its query or `{id}`, its answer and every problem it may give. */
function dataOperation(endpoint: DataEndpoint): ZodOpenApiOperationObject {
  const problem = (description: string) => ({
    description,
    headers,
    content: { [PROBLEM_MEDIA_TYPE]: { schema: ProblemSchema } },
  });
  const requestParams = endpoint.pathParameter
    ? { path: z.object({ id: endpoint.pathParameter }) }
    : endpoint.query
      ? { query: endpoint.query }
      : undefined;
  return {
    operationId: endpoint.operationId,
    summary: endpoint.summary,
    description: endpoint.description,
    tags: [endpoint.tag],
    ...(requestParams ? { requestParams } : {}),
    responses: {
      '200': {
        description: endpoint.summary,
        headers,
        content: { 'application/json': { schema: endpoint.result } },
      },
      '400': problem('A parameter is missing (missing_parameter) or invalid (invalid_parameter).'),
      ...dataProblems(endpoint, problem),
      default: problem('Unexpected failure (internal_error); the client may retry.'),
    },
  };
}

type OpenApiDocument = ReturnType<typeof createDocument>;

const cache = new Map<string, OpenApiDocument>();

/**
 * The OpenAPI 3.1 document, derived from the endpoint table and its zod schemas.
 * Built once per set of URLs (they differ only between deployments).
 */
export function openApiDocument(
  endpoints: Readonly<Record<string, Endpoint>>,
  urls: ResolvedUrls,
): OpenApiDocument {
  const key = `${urls.base} ${urls.docs}`;
  const cached = cache.get(key);
  if (cached) return cached;
  const codes = Object.keys(PROBLEM_CODES).join('`, `');
  const document = createDocument({
    openapi: '3.1.0',
    info: {
      title: 'wind-on-segment API',
      version: API_VERSION,
      summary: 'Tailwind, headwind and crosswind along a cycling segment.',
      description:
        'A free, keyless, read-only JSON API. Errors are RFC 9457 problem details ' +
        `(\`application/problem+json\`) with a \`code\` of \`${codes}\`; ` +
        'each `type` links to the explanation in the API guide (see externalDocs).',
    },
    servers: [{ url: urls.base, description: 'This deployment' }],
    security: [],
    externalDocs: { description: 'API guide', url: urls.docs },
    tags: [
      { name: 'Wind', description: 'Wind components, bearings and forecast hours.' },
      { name: 'Segments', description: 'Catalog segments and their best tailwind windows.' },
      { name: 'Plans', description: 'Plans and prices.' },
      { name: 'Service', description: 'Health and this description.' },
    ],
    paths: Object.fromEntries([
      ...Object.entries(endpoints).map(([path, endpoint]) => [path, { get: operation(endpoint) }]),
      ...Object.entries(DATA_ENDPOINTS).map(([path, endpoint]) => [path, { get: dataOperation(endpoint) }]),
    ]),
  });
  cache.set(key, document);
  return document;
}
