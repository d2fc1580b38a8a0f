// @ts-check
import vercel from '@astrojs/vercel';
import { defineConfig } from 'astro/config';
import { toNodeHandler } from 'srvx/node';

/**
 * Mounts the REST API on Astro's dev server, so `npm run dev` serves the API
 * beside the pages: the path table (src/app/paths.ts) says which paths are
 * the REST function's. The API comes from the composition root as `npm
 * start` builds it (src/app/app.ts), so the data endpoints (`/v1/wind`,
 * `/v1/segments`) read the same demo forecast and seed catalog instead of
 * failing as internal errors. Both are loaded through Vite, so edits to
 * src/rest and src/core apply without a restart; the API is built once per
 * loaded module, so its catalog and caches live across requests.
 * @returns {import('astro').AstroIntegration}
 */
function apiInDev() {
  /** @type {WeakMap<object, (request: Request, client?: string) => Promise<Response>>} */
  const built = new WeakMap();
  return {
    name: 'wind-on-segment:api-in-dev',
    hooks: {
      'astro:server:setup': ({ server }) => {
        server.middlewares.use(async (req, res, next) => {
          const { pathname } = new URL(req.url ?? '/', 'http://dev.local');
          const paths = await server.ssrLoadModule('/src/app/paths.ts');
          if (paths['pathFacts'](pathname).function !== 'rest') return next();
          const app = await server.ssrLoadModule('/src/app/app.ts');
          const rest = await server.ssrLoadModule('/src/rest/replier.ts');
          const handle = built.get(app) ?? rest['toFetchHandler'](app['createApp']().restReplier);
          built.set(app, handle);
          const client = req.socket.remoteAddress;
          await toNodeHandler((request) => handle(request, client))(
            /** @type {any} */ (req),
            /** @type {any} */ (res),
          );
        });
      },
    },
  };
}

/**
 * Lets the browser bundle's preload helper (the code that fetches a lazy chunk's imports in
 * parallel with it) say `modulepreload` outright instead of testing for it on every page load.
 * Astro turns Vite's `modulePreload.polyfill` off and has no HTML entry the polyfill would be put
 * in, so `true` here ships no polyfill: it only drops the test, 52 B gzip off every page with a
 * lazy chunk (the home page among them). A browser without `modulepreload` (Safari before 17,
 * Firefox before 115) ignores the hint and fetches the imports when it reads the chunk; nothing
 * else changes (decision 0031).
 * @returns {import('vite').Plugin}
 */
function modulePreloadWithoutDetection() {
  return {
    name: 'wind-on-segment:module-preload-without-detection',
    apply: 'build',
    configEnvironment(name) {
      return name === 'client' ? { build: { modulePreload: { polyfill: true } } } : undefined;
    },
  };
}

export default defineConfig({
  // The production origin, for canonical links and absolute URLs in the docs' examples.
  site: process.env['WOS_SITE_URL'] ?? 'https://wind-on-segment.vercel.app',
  output: 'static',
  adapter: vercel(),
  // A meta CSP on every page, with hashes for the scripts and styles Astro emits.
  // frame-ancestors cannot live in a meta tag: vercel.json sends it as a header.
  security: {
    csp: {
      directives: [
        "default-src 'self'",
        "img-src 'self' data:",
        "font-src 'self' data:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
      ],
    },
  },
  integrations: [apiInDev()],
  // Astro 7's default compression ("jsx") follows JSX's whitespace rules and drops the space between
  // text and an inline element that starts a new source line ("flags such as wet,gusty"). `true`
  // collapses whitespace as HTML renders it instead: 1.4 KB gzip more over the whole site.
  compressHTML: true,
  // No Markdown pages; Shiki's inline styles would also break the CSP.
  markdown: { syntaxHighlight: false },
  vite: {
    plugins: [modulePreloadWithoutDetection()],
    build: {
      rollupOptions: {
        output: {
          // The home page's calculator and the map and route pages share a few small core modules; left
          // to itself the bundler gives each its own chunk, and the home page's eager JS grows by three
          // requests and 300 B gzip. One chunk for the wind maths keeps the home page where it was. It
          // holds only what the calculator runs: the sixteen-point compass (compass-16.ts) stays out.
          manualChunks(id) {
            return /\/src\/core\/(angles|round|bearing|compass|wind)\.ts$/.test(id) ? 'wind-core' : undefined;
          },
        },
      },
    },
  },
});
