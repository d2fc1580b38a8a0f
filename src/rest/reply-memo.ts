import { CACHE, type Reply } from './headers.ts';

/**
 * A bounded memo of finished replies, keyed by the full URL as the request
 * spelled it (the origin is part of the answer: problem `type` links and
 * `pricing_url` derive from it; two spellings of one URL are two entries).
 * Every answer of this API is a pure function of its URL within one
 * deployment, so a remembered reply is never stale; only replies that may be
 * cached at all are kept (never `no-store` ones such as /health or 405s).
 *
 * A reply is kept from the second time its URL is asked, not the first: most
 * URLs real clients send are asked once (each carries its own forecast), and
 * keeping every one of them cost each new URL a map insertion, an eviction
 * and a reply held long enough to be copied by the garbage collector, about a
 * fifth of the replier's time per new URL, for an entry that was never read.
 * A URL asked once costs one insertion into a set of keys instead, emptied
 * whenever it reaches the capacity (a URL asked again after that is simply
 * computed once more).
 *
 * Hand-written rather than a cache library: a Map already keeps insertion
 * order, which is all a least-recently-used policy needs, and the Vercel
 * function stays free of another dependency.
 */
export class ReplyMemo {
  readonly #replies = new Map<string, Reply>();
  /** URLs answered once and not remembered yet. */
  readonly #seen = new Set<string>();
  readonly #capacity: number;

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  get size(): number {
    return this.#replies.size;
  }

  /** The remembered reply, refreshed as most recently used. */
  get(key: string): Reply | undefined {
    const reply = this.#replies.get(key);
    if (reply === undefined) return undefined;
    this.#replies.delete(key);
    this.#replies.set(key, reply);
    return reply;
  }

  /**
   * Remembers a cacheable reply if its URL was answered before (see above), forgetting the least
   * recently used beyond capacity.
   */
  remember(key: string, reply: Reply): void {
    if (this.#capacity === 0 || reply.headers['cache-control'] === CACHE.none) return;
    if (!this.#seen.has(key)) {
      if (this.#seen.size >= this.#capacity) this.#seen.clear();
      this.#seen.add(key);
      return;
    }
    this.#seen.delete(key);
    this.#replies.set(key, reply);
    if (this.#replies.size > this.#capacity) {
      const oldest = this.#replies.keys().next().value;
      if (oldest !== undefined) this.#replies.delete(oldest);
    }
  }
}
