import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { ServerMiddleware } from 'srvx';

/** Where the built shell page lives, and the path it is served for: `/segments/<one part>`. */
export const SEGMENT_SHELL_FILE = 'segments/segment_page/index.html';
const SEGMENT_PATH = /^\/segments\/[^/]+\/?$/;

async function isBuiltFile(siteDir: string, path: string): Promise<boolean> {
  const relative = decodeURIComponent(path).replace(/^\/+|\/+$/g, '');
  for (const candidate of [relative, join(relative, 'index.html'), `${relative}.html`]) {
    const file = join(siteDir, candidate);
    // Never look outside the site: an encoded ".." is no segment id either.
    if (!file.startsWith(siteDir)) return true;
    if ((await stat(file).catch(() => undefined))?.isFile()) return true;
  }
  return false;
}

/**
 * Serves the one static segment page for every `/segments/<id>` the built
 * site has no file for: the page reads the id from its address and asks the
 * API, so a segment discovered a minute ago has a page as a catalog one does.
 * The same rewrite is in vercel.json for the deployment. Read per request
 * (a few KB from the page cache) so a rebuild under `npm start` is served at once.
 */
export function segmentShell(siteDir: string): ServerMiddleware {
  return async (request, next) => {
    const { pathname } = new URL(request.url);
    if ((request.method !== 'GET' && request.method !== 'HEAD') || !SEGMENT_PATH.test(pathname))
      return next();
    if (await isBuiltFile(siteDir, pathname)) return next();
    const html = await readFile(join(siteDir, SEGMENT_SHELL_FILE), 'utf8').catch(() => undefined);
    if (html === undefined) return next();
    return new Response(request.method === 'HEAD' ? null : html, {
      status: 200,
      headers: { 'Content-Type': 'text/html; charset=utf-8' },
    });
  };
}
