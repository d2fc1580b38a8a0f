/**
 * The parts of a request URL the API reads (origin, path, query), found
 * without the WHATWG URL parser for the common, plain spelling of a request.
 * Profiling `/v1/tailwind` with a new URL on every request showed URL parsing
 * and `URLSearchParams` at well over half of the handler's own time; a real
 * client sends a plain ASCII target that needs no normalising, so that case
 * is read by slicing. Anything that the URL parser could rewrite (percent
 * escapes, `+`, dot segments, a fragment, spaces, non-ASCII, an unusual host)
 * is not handled here: `quickTarget` returns `undefined` and the caller parses
 * the URL as before, so both roads give the same parts by construction.
 */

/** What the API reads of a request URL. `params.getAll` is all `parseQuery` uses. */
export interface RequestTarget {
  readonly origin: string;
  readonly pathname: string;
  readonly params: QueryParams;
  /**
   * The query as sent, without its `?`, when it is plainly spelled (`PLAIN_QUERY`): its text is
   * then exactly what `params` holds, so a compiled reader (compiled-query.ts) may read it directly.
   */
  readonly plainQuery?: string;
}

/** A host and port the URL parser keeps as sent, lower case aside: letters, digits, dots, hyphens. */
const PLAIN_HOST = /^[A-Za-z0-9.-]+(?::[0-9]{1,5})?$/;
/** A path with no dot segments, escapes or doubled slashes: the URL parser leaves it as it is. */
const PLAIN_PATH = /^(?:\/[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)?)*$/;
/** A query the URL parser and `URLSearchParams` leave as sent: no `%`, `+`, `#`, spaces or non-ASCII. */
const PLAIN_QUERY = /^[A-Za-z0-9_.=&-]*$/;

/**
 * How many distinct hosts' origins are remembered. A deployment is reached
 * under a handful of names; the bound only stops a client that varies the
 * Host header from growing the map.
 */
export const ORIGIN_MEMO_SIZE = 64;

/** What the API reads of a query: `URLSearchParams` has both. */
export interface QueryParams {
  getAll(name: string): string[];
  keys(): Iterable<string>;
}

/**
 * A query's name/value pairs read the way `URLSearchParams` reads a string without escapes, split
 * on first use: a query the compiled reader accepts never needs them.
 */
class PlainParams implements QueryParams {
  readonly #query: string;
  #split: readonly (readonly [string, string])[] | undefined;

  constructor(query: string) {
    this.#query = query;
  }

  get #pairs(): readonly (readonly [string, string])[] {
    if (this.#split === undefined) {
      const pairs: [string, string][] = [];
      for (const part of this.#query.split('&')) {
        if (part === '') continue;
        const equals = part.indexOf('=');
        pairs.push(equals < 0 ? [part, ''] : [part.slice(0, equals), part.slice(equals + 1)]);
      }
      this.#split = pairs;
    }
    return this.#split;
  }

  getAll(name: string): string[] {
    const values: string[] = [];
    for (const [key, value] of this.#pairs) if (key === name) values.push(value);
    return values;
  }

  /** Every name sent, in order (repeats included), as `URLSearchParams.keys` gives them. */
  keys(): Iterable<string> {
    return this.#pairs.map(([key]) => key);
  }
}

/** Reads plain request targets, remembering each host's origin as the URL parser spells it. */
export class TargetReader {
  readonly #origins = new Map<string, string | null>();
  /** The last `scheme://authority` read and its origin: nearly every request repeats it. */
  #lastAuthority = '';
  #lastOrigin: string | null = null;

  /** The origin of `scheme://authority` as `URL` gives it, or null when the URL parser refuses it. */
  #origin(authority: string): string | null {
    let origin = this.#origins.get(authority);
    if (origin === undefined) {
      origin = URL.parse(`${authority}/`)?.origin ?? null;
      if (this.#origins.size >= ORIGIN_MEMO_SIZE) this.#origins.clear();
      this.#origins.set(authority, origin);
    }
    return origin;
  }

  /** The target's parts when `href` is plainly spelled, or undefined to parse it with `URL`. */
  read(href: string): RequestTarget | undefined {
    const last = this.#lastAuthority;
    // The same scheme and authority as the last request (`href` goes on with the path's `/`): already read.
    const repeated = last !== '' && href.startsWith(last) && href.charCodeAt(last.length) === 0x2f;
    let slash = last.length;
    let origin = this.#lastOrigin;
    if (!repeated) {
      const hostStart = href.startsWith('http://') ? 7 : href.startsWith('https://') ? 8 : -1;
      if (hostStart < 0) return undefined;
      slash = href.indexOf('/', hostStart);
      if (slash < 0 || !PLAIN_HOST.test(href.slice(hostStart, slash))) return undefined;
      const authority = href.slice(0, slash);
      origin = this.#origin(authority);
      if (origin === null) return undefined;
      this.#lastAuthority = authority;
      this.#lastOrigin = origin;
    }
    if (origin === null) return undefined;
    const question = href.indexOf('?', slash);
    const pathname = question < 0 ? href.slice(slash) : href.slice(slash, question);
    const query = question < 0 ? '' : href.slice(question + 1);
    if (!PLAIN_PATH.test(pathname) || !PLAIN_QUERY.test(query)) return undefined;
    return { origin, pathname, params: new PlainParams(query), plainQuery: query };
  }
}
