/**
 * A segment's pages in the REST function on Vercel (`api/_entries/rest.ts`): the path table sends
 * `/segments/…` there, since the function holds the catalog that says whether an id exists. The
 * rules are the listener's (`src/rest/segment-page.ts`); the built shell and 404 pages are read from
 * beside the bundle, where `scripts/vercel/bundle-functions.ts` copies them, or from `dist/` when
 * run from the repository.
 */
import { existsSync, readFileSync } from 'node:fs';
import type { ApiReplier } from '../rest/replier.ts';
import { segmentPageReply, type BuiltPages, type PageReply } from '../rest/segment-page.ts';

/**
 * Beside the bundle (each named here, so the deployment's file tracing finds them), else the
 * repository's build; read once, with the first page asked for.
 */
function readPages(): BuiltPages {
  // Each URL written out inside its read: the tracing follows a literal there, not one passed along.
  if (existsSync(new URL('./segment-shell.html', import.meta.url))) {
    return {
      shell: readFileSync(new URL('./segment-shell.html', import.meta.url), 'utf8'),
      notFound: readFileSync(new URL('./not-found.html', import.meta.url), 'utf8'),
    };
  }
  return {
    shell: readFileSync(new URL('../../dist/segments/segment_page/index.html', import.meta.url), 'utf8'),
    notFound: readFileSync(new URL('../../dist/404.html', import.meta.url), 'utf8'),
  };
}

let pages: BuiltPages | undefined;
const builtPages = () => (pages ??= readPages());

/** The page answer for a request with this method and absolute URL. */
export function segmentPage(reply: ApiReplier, method: string, href: string): Promise<PageReply> {
  return segmentPageReply(reply, method, new URL(href), builtPages());
}

/** The same answer as a web Response, for the function's `fetch` form. */
export const pageResponse = ({ status, headers, body }: PageReply): Response =>
  new Response(body, { status, headers });
