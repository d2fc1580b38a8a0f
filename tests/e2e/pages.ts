/** Every page of the site, for the checks that must hold on all of them. */
export const PAGES = [
  '/',
  '/segments',
  '/docs',
  '/docs/mcp',
  '/docs/routes',
  '/pricing',
  '/reference',
  '/changelog',
  '/login',
  '/signup',
  '/consent',
  '/connect-error',
  '/settings',
  '/billing/success',
  '/billing/cancel',
  '/no-such-page',
] as const;

/** Pages that must ship no JavaScript at all (`/pricing` has its Buy buttons: see bench/size/js-budget.ts). */
export const STATIC_PAGES = ['/docs', '/docs/mcp', '/docs/routes', '/changelog'] as const;

/** A page asked for on purpose that answers 404 logs that status as a console error. */
export const EXPECTED_404 = /status of 404 .*\/no-such-page/;
