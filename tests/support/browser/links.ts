import { LinkChecker, LinkState } from 'linkinator';

export interface BrokenLink {
  /** The link as resolved, with its fragment when the fragment is what is missing. */
  readonly url: string;
  /** The page the link was found on (undefined for a start page that itself failed). */
  readonly source: string | undefined;
  /** HTTP status of the target (so 200 when only the fragment is missing), 0 when the request failed. */
  readonly status: number;
  readonly reason: string;
}

/**
 * Crawls the served site from `paths` and returns every broken same-origin link, including links
 * to a `#fragment` that no element on the target page has (`/docs#error-not-found` from another
 * page as well as `#id` on the same page). Uses linkinator's `checkFragments`, which checks the
 * server-rendered HTML for a matching `id` (or `<a name>`). Links to other origins are skipped:
 * there is no internet here, and the test is about our site. So are links into the signed-in
 * rider's API (`/api/rider/…`, the data export on /settings): a crawler is signed out, and the
 * riders' tests follow them signed in.
 */
export async function checkLinks(baseUrl: string, paths: readonly string[]): Promise<BrokenLink[]> {
  const origin = new URL(baseUrl).origin;
  const { links } = await new LinkChecker().check({
    path: paths.map((path) => new URL(path, baseUrl).href),
    recurse: true,
    checkFragments: true,
    concurrency: 8,
    timeout: 10_000,
    linksToSkip: async (link) => {
      const url = URL.parse(link);
      return url?.origin !== origin || url.pathname.startsWith('/api/rider/');
    },
  });
  return links
    .filter((link) => link.state === LinkState.BROKEN)
    .map((link) => ({
      url: link.url,
      source: link.parent,
      status: link.status ?? 0,
      reason: (link.failureDetails ?? [])
        .map((detail) => (detail instanceof Error ? detail.message : `HTTP ${detail.status}`))
        .join('; '),
    }));
}
