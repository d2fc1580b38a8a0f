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
 * and a reply held long enough to be copied by the garbage collector, for an
 * entry that was never read.
 *
 * Which URLs were asked once is kept as 32-bit hashes in a fixed table
 * (`SeenUrls`), not as the URL strings: a server answering tens of thousands
 * of new URLs a second held each string long enough for a young-generation
 * collection to move it to the old generation, a steady few MB a second
 * that set off a full mark of the server's heap every few seconds (decision
 * 0036). A hash that two URLs share only makes the second one remembered on
 * its first answer; the memo itself is keyed by the whole URL, so no answer
 * can be wrong.
 *
 * Hand-written rather than a cache library: a Map already keeps insertion
 * order, which is all a least-recently-used policy needs, and the Vercel
 * function stays free of another dependency.
 */
export class ReplyMemo {
  readonly #replies = new Map<string, Reply>();
  readonly #seen: SeenUrls;
  readonly #capacity: number;

  constructor(capacity: number) {
    this.#capacity = capacity;
    this.#seen = new SeenUrls(capacity);
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
    if (!this.#seen.checkIn(key)) return;
    this.#replies.set(key, reply);
    if (this.#replies.size > this.#capacity) {
      const oldest = this.#replies.keys().next().value;
      if (oldest !== undefined) this.#replies.delete(oldest);
    }
  }
}

/**
 * The URLs answered once, as a direct-mapped table of their 32-bit FNV-1a
 * hashes: each hash has one slot (its low bits), and a newer URL takes the
 * slot of an older one. Nothing is allocated per URL, so nothing outlives the
 * request that asked it.
 */
export class SeenUrls {
  readonly #slots: Int32Array;
  readonly #mask: number;

  /**
   * Four slots per URL of `capacity`, rounded up to a power of two (16 KB for the replier's 1,024),
   * so that two URLs asked in the same stretch rarely share a slot.
   */
  constructor(capacity: number) {
    const size = 2 ** Math.ceil(Math.log2(Math.max(1, capacity * 4)));
    this.#slots = new Int32Array(size);
    this.#mask = size - 1;
  }

  /**
   * True when `url` (or a URL with the same hash) was checked in before and
   * not displaced since; the slot is then freed, as the caller remembers the
   * URL itself. Otherwise records it and answers false.
   */
  checkIn(url: string): boolean {
    let hash = 0x811c9dc5;
    for (let i = 0; i < url.length; i++) hash = Math.imul(hash ^ url.charCodeAt(i), 0x01000193);
    // FNV's low bits follow the last characters closely; mixing the high bits in spreads URLs that
    // differ early (the wind speed) over all the slots. 0 marks an empty slot, so no hash may be 0.
    hash ^= hash >>> 15;
    hash = Math.imul(hash, 0x2c1b3c6d);
    hash ^= hash >>> 12;
    hash |= 1;
    const slot = hash & this.#mask;
    if (this.#slots[slot] === hash) {
      this.#slots[slot] = 0;
      return true;
    }
    this.#slots[slot] = hash;
    return false;
  }
}
