/**
 * Where the flow test's browser gets the sign-in, consent and settings pages.
 * `npm test` builds the site first, so dist/ holds them and they are served
 * as `npm start` serves them (CSP included). Without a build (or with
 * WOS_AUTH_TEST_PAGES=dev) Astro's dev server renders them and the test
 * server proxies to it, so the test never needs `astro build` to run.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ServerRequest } from 'srvx';
import { staticMiddleware } from 'srvx/static';
import { startDevServer, type RunningService } from '../../../scripts/service/launch.ts';

export type PageHandler = (request: Request) => Promise<Response | undefined>;

export interface PageHost {
  readonly mode: 'dist' | 'dev';
  readonly handle: PageHandler;
  stop(): Promise<void>;
}

const DIST = fileURLToPath(new URL('../../../dist/', import.meta.url));
const PAGES = [
  'login',
  'signup',
  'consent',
  'settings',
  'connect-error',
  'pricing',
  'billing/success',
  'forgot-password',
  'reset-password',
  'unsubscribe',
];

function distHasPages(): boolean {
  return PAGES.every((page) => existsSync(`${DIST}${page}/index.html`));
}

function distHost(): PageHost {
  const serve = staticMiddleware({ dir: DIST });
  const handle: PageHandler = async (request) => {
    const response = await serve(request as ServerRequest, () => new Response(null, { status: 404 }));
    return response.status === 404 ? undefined : response;
  };
  return { mode: 'dist', handle, stop: () => Promise.resolve() };
}

/** Forwards GETs to the dev server; the body is re-sent decoded, so encoding headers go. */
function devHost(dev: RunningService): PageHost {
  const handle: PageHandler = async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return undefined;
    const url = new URL(request.url);
    const upstream = await fetch(`${dev.baseUrl}${url.pathname}${url.search}`, {
      headers: { accept: request.headers.get('accept') ?? '*/*' },
    });
    const headers = new Headers(upstream.headers);
    headers.delete('content-encoding');
    headers.delete('content-length');
    return new Response(await upstream.arrayBuffer(), { status: upstream.status, headers });
  };
  return { mode: 'dev', handle, stop: () => dev.stop() };
}

export async function startPageHost(): Promise<PageHost> {
  const wanted = process.env['WOS_AUTH_TEST_PAGES'];
  if (wanted !== 'dev' && distHasPages()) return distHost();
  const dev = await startDevServer();
  // Vite optimises dependencies on the first request and may reload once: warm every page first.
  for (const page of PAGES) {
    for (let attempt = 0; attempt < 60; attempt++) {
      const response = await fetch(`${dev.baseUrl}/${page}`).catch(() => undefined);
      if (response?.ok) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  return devHost(dev);
}
