/**
 * The REST function's two forms (`api/_entries/rest.ts`), with a segment's pages in front: the path
 * table sends `/segments/…` here on Vercel (the part `segment-page`: the function holds the catalog
 * that says whether an id exists), and every other path it sends here is the API's. The pages' code,
 * the picture's encoder among it, loads with the first page asked for
 * (`segment-page-function.ts`), so an API call's cold start does not carry it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApiReplier } from '../rest/replier.ts';
import { failureWriter, requestHref, write } from './node-rest-function.ts';

/** The paths of the part `segment-page` in the path table (a unit test holds the two together). */
export const isSegmentPage = (pathname: string): boolean => pathname.startsWith('/segments/');

const pages = () => import('./segment-page-function.ts');

export interface RestForms {
  readonly fetch: (request: Request) => Promise<Response>;
  readonly node: (request: IncomingMessage, response: ServerResponse) => void;
}

export function withSegmentPages(reply: ApiReplier, api: RestForms): RestForms {
  return {
    fetch: async (request) => {
      if (!isSegmentPage(new URL(request.url).pathname)) return api.fetch(request);
      const { segmentPage, pageResponse } = await pages();
      return pageResponse(await segmentPage(reply, request.method, request.url));
    },
    node: (request, response) => {
      if (!isSegmentPage(request.url ?? '/')) return api.node(request, response);
      pages()
        .then(async ({ segmentPage }) =>
          write(response, await segmentPage(reply, request.method ?? 'GET', requestHref(request))),
        )
        .catch(failureWriter(response, 'segment page'));
    },
  };
}
