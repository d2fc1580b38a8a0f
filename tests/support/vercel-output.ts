import { spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { createServer, METHODS, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { standaloneFunction } from '../../scripts/vercel/build-output.ts';

interface VercelRoute {
  src?: string;
  dest?: string;
  status?: number;
  handle?: string;
  check?: boolean;
}

type Handler = (request: Request) => Promise<Response>;

/**
 * Imports a built function from a copy of its `.func` folder alone
 * (`standaloneFunction`). The first import runs in a plain Node process,
 * because Vitest's own resolver would find the project's packages from
 * anywhere.
 */
async function loadFunction(output: string, name: string): Promise<Handler | undefined> {
  const copy = standaloneFunction(output, name);
  if (!copy) return undefined;
  const alone = spawnSync(
    process.execPath,
    ['--input-type=module', '-e', `await import(${JSON.stringify(copy.entry)})`],
    { encoding: 'utf8' },
  );
  if (alone.status !== 0) throw new Error(`${name} does not load on its own:\n${alone.stderr}`);
  return asTheRuntimeCalls(((await import(copy.entry)) as { default: unknown }).default);
}

type NodeHandler = (request: IncomingMessage, response: ServerResponse) => void;

/**
 * The form of a function Vercel's Node runtime calls: it unwraps `default` as far as it goes, and calls
 * a function with no `fetch` with Node's request and response (the REST function, decision 0045), an
 * object's `fetch` with a web `Request` (the MCP function). A Node handler is served on loopback and
 * asked over HTTP, the URL the client asked for in the forwarded host and protocol Vercel sets.
 */
async function asTheRuntimeCalls(exported: unknown): Promise<Handler> {
  let handler = exported;
  while (typeof handler === 'object' && handler !== null && 'default' in handler) {
    handler = (handler as { default: unknown }).default;
  }
  if (typeof handler === 'object' && handler !== null && 'fetch' in handler) {
    return (handler as { fetch: Handler }).fetch;
  }
  if (typeof handler !== 'function') throw new Error('The function exports neither a handler nor fetch.');
  // A method Node's HTTP parser refuses (`FOO`) never reaches a Node handler, on Vercel's runtime
  // either; the function's `fetch` form, where it has one, shows what its code answers to it.
  const fetchForm = (exported as { fetch?: Handler }).fetch;
  const server = createServer(handler as NodeHandler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  server.unref();
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return async (request) => {
    if (!METHODS.includes(request.method) && fetchForm) return fetchForm(request);
    const url = new URL(request.url);
    const headers = new Headers(request.headers);
    headers.set('x-forwarded-host', url.host);
    headers.set('x-forwarded-proto', url.protocol.slice(0, -1));
    const body = request.body === null ? null : await request.arrayBuffer();
    return fetch(`${base}${url.pathname}${url.search}`, { method: request.method, headers, body });
  };
}

function staticFile(output: string, pathname: string): string | undefined {
  const base = join(output, 'static', pathname);
  return [base, `${base}.html`, join(base, 'index.html')].find((file) =>
    statSync(file, { throwIfNoEntry: false })?.isFile(),
  );
}

/**
 * Where the built routes (after the filesystem) send a path: a function's
 * path (`/api/mcp`), a page's, or undefined when no rewrite takes it (a status route is not one).
 */
export function routeDestination(output: string, pathname: string): string | undefined {
  const { routes } = JSON.parse(readFileSync(join(output, 'config.json'), 'utf8')) as {
    routes: VercelRoute[];
  };
  const after = routes.slice(routes.findIndex((route) => route.handle === 'filesystem') + 1);
  const end = after.findIndex((route) => route.handle !== undefined);
  return (end < 0 ? after : after.slice(0, end)).find(
    (route) =>
      route.src !== undefined &&
      route.dest !== undefined &&
      route.status === undefined &&
      new RegExp(route.src).test(pathname),
  )?.dest;
}

/**
 * A small stand-in for Vercel's router over `config.json`: the filesystem
 * phase, then `dest` routes to functions (the function sees the URL the
 * client asked for, as on Vercel), then status routes. Enough for the routes
 * this project generates; an unknown route shape fails the test loudly.
 */
export async function createVercelRouter(output: string): Promise<Handler> {
  const { routes } = JSON.parse(readFileSync(join(output, 'config.json'), 'utf8')) as {
    routes: VercelRoute[];
  };
  // Each function is copied, checked and imported once, on its first request.
  const functions = new Map<string, Promise<Handler | undefined>>();
  const fetchFunction = (name: string) => {
    const loaded = functions.get(name) ?? loadFunction(output, name);
    functions.set(name, loaded);
    return loaded;
  };
  return async (request) => {
    const { pathname } = new URL(request.url);
    let filesystemDone = false;
    for (const route of routes) {
      if (route.handle === 'filesystem') {
        const file = staticFile(output, pathname);
        if (file && request.method === 'GET') return new Response(readFileSync(file), { status: 200 });
        filesystemDone = true;
        continue;
      }
      if (route.handle) break;
      if (!filesystemDone || !route.src || !new RegExp(route.src).test(pathname)) continue;
      if (route.dest && route.status === undefined && !route.dest.startsWith('/api/')) {
        // A rewrite to a page (a shell serving many paths): the page when the build has it, else on.
        const page = staticFile(output, route.dest);
        if (page && request.method === 'GET') return new Response(readFileSync(page), { status: 200 });
        continue;
      }
      if (route.dest && route.status === undefined) {
        const fn = await fetchFunction(route.dest.replace(/^\//, ''));
        if (!fn) throw new Error(`route ${route.src} points at a missing function ${route.dest}`);
        return fn(request);
      }
      if (route.status) return new Response(null, { status: route.status });
    }
    return new Response(null, { status: 404 });
  };
}
