import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

interface OpenApiDoc {
  paths: Record<string, { get: { responses: Record<string, { content?: Record<string, unknown> }> } }>;
}

/**
 * Validates response bodies against the schemas of a served OpenAPI 3.1
 * document (JSON Schema 2020-12), by path, status and media type — so the
 * contract tests check what the API says about itself, not a copy of it.
 */
export function createResponseValidator(doc: unknown) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  const id = 'https://wind-on-segment.test/openapi.json';
  ajv.addSchema({ ...(doc as object), $id: id });
  const { paths } = doc as OpenApiDoc;
  // A path with a parameter (`/v1/segments/{id}`) holds every path it matches.
  const templates = Object.keys(paths)
    .filter((path) => path.includes('{'))
    .map((path) => ({ path, pattern: new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}$`) }));
  const described = (path: string): string =>
    paths[path] ? path : (templates.find((t) => t.pattern.test(path))?.path ?? path);

  const run = (pointer: string, body: unknown): string[] => {
    const check = ajv.getSchema(`${id}#/${pointer}`);
    if (!check) return [`no schema at ${pointer}`];
    return check(body) ? [] : (check.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''}`);
  };

  /** Errors of `body` against the operation's response, or the Problem schema off the map. */
  return function validate(spelled: string, status: number, contentType: string, body: unknown): string[] {
    // One trailing slash names the same endpoint (issue 28), so it is held to the same description.
    const bare = spelled.length > 1 && spelled.endsWith('/') ? spelled.slice(0, -1) : spelled;
    const path = described(bare);
    if (!paths[path]) return run('components/schemas/Problem', body);
    const operation = paths[path]?.get;
    const key = operation?.responses[String(status)] ? String(status) : 'default';
    const mediaType = contentType.split(';')[0]?.trim() ?? '';
    if (!operation?.responses[key]?.content?.[mediaType]) {
      return [`${path} ${status} ${mediaType} is not described by the OpenAPI document`];
    }
    const pointer = ['paths', path, 'get', 'responses', key, 'content', mediaType, 'schema']
      .map((part) => part.replaceAll('~', '~0').replaceAll('/', '~1'))
      .join('/');
    return run(pointer, body);
  };
}

export type ResponseValidator = ReturnType<typeof createResponseValidator>;
