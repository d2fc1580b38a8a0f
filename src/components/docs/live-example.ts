import type { ApiError } from '../../core/problems.ts';
import { createApiHandler } from '../../rest/handler.ts';
import { internalError, problemReply } from '../../rest/problem-reply.ts';

export interface LiveExample {
  readonly url: string;
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
}

/**
 * Runs a request through the real handler while the site builds, so every
 * example answer in the docs is what the API returns, not a copy of it.
 */
export async function liveExample(site: URL, path: string, method = 'GET'): Promise<LiveExample> {
  const handle = createApiHandler({ siteUrl: site.origin });
  const url = new URL(path, site).href;
  const response = await handle(new Request(url, { method }));
  const text = await response.text();
  return {
    url,
    status: response.status,
    contentType: response.headers.get('content-type') ?? '',
    body: text ? JSON.stringify(JSON.parse(text), null, 2) : '',
  };
}

/** The one problem no request can provoke on purpose, built by the code that builds it for real. */
export function internalErrorExample(site: URL): LiveExample {
  const docs = new URL('/docs', site).href;
  const reply = problemReply(internalError(), '/v1/tailwind', docs);
  return {
    url: new URL('/v1/tailwind', site).href,
    status: reply.status,
    contentType: reply.headers['content-type'] ?? '',
    body: JSON.stringify(JSON.parse(reply.body ?? 'null'), null, 2),
  };
}

/**
 * A problem the Node listener's edge answers (a refused Host, target or
 * head), built by the code that builds it for real: no route can provoke
 * these, so they are rendered from the same error the edge throws.
 */
export function edgeProblemExample(site: URL, error: ApiError, path: string): LiveExample {
  const docs = new URL('/docs', site).href;
  const reply = problemReply(error, path, docs);
  return {
    url: new URL(path, site).href,
    status: reply.status,
    contentType: reply.headers['content-type'] ?? '',
    body: JSON.stringify(JSON.parse(reply.body ?? 'null'), null, 2),
  };
}
