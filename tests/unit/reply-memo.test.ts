import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createApiReplier } from '../../src/rest/handler.ts';
import { jsonReply, CACHE, type Reply } from '../../src/rest/headers.ts';
import { ReplyMemo, SeenUrls } from '../../src/rest/reply-memo.ts';

describe('ReplyMemo', () => {
  /** What the replier does on a miss: remember the reply it computed. Twice, so the memo keeps it. */
  const answerTwice = (memo: ReplyMemo, key: string, reply: Reply) => {
    memo.remember(key, reply);
    memo.remember(key, reply);
  };

  it('keeps at most its capacity, forgetting the least recently used', () => {
    const memo = new ReplyMemo(2);
    const reply = jsonReply({}, { cache: CACHE.calculation });
    answerTwice(memo, 'a', reply);
    answerTwice(memo, 'b', reply);
    memo.get('a');
    answerTwice(memo, 'c', reply);
    expect(memo.size).toBe(2);
    expect(memo.get('b')).toBeUndefined();
    expect(memo.get('a')).toBe(reply);
  });

  it('keeps a reply from the second time its URL is answered, not the first', () => {
    const memo = new ReplyMemo(4);
    const reply = jsonReply({}, { cache: CACHE.calculation });
    memo.remember('once', reply);
    expect(memo.get('once')).toBeUndefined();
    expect(memo.size).toBe(0);
    memo.remember('once', reply);
    expect(memo.get('once')).toBe(reply);
  });

  it('forgets a URL answered once after many other new URLs have taken the slots', () => {
    const memo = new ReplyMemo(4);
    const reply = jsonReply({}, { cache: CACHE.calculation });
    memo.remember('first', reply);
    // 16 slots for a capacity of 4: a thousand other URLs leave none of them to 'first'.
    for (let i = 0; i < 1000; i++) memo.remember(`other-${i}`, reply);
    memo.remember('first', reply);
    expect(memo.get('first')).toBeUndefined();
    memo.remember('first', reply);
    expect(memo.get('first')).toBe(reply);
  });

  it('never keeps a reply that must not be cached', () => {
    const memo = new ReplyMemo(8);
    const health = jsonReply({ status: 'ok' }, { cache: CACHE.none });
    answerTwice(memo, 'health', health);
    expect(memo.get('health')).toBeUndefined();
  });
});

describe('SeenUrls', () => {
  const url = fc.string({ minLength: 0, maxLength: 120 });

  it('says a URL is new the first time and seen the second, then new again', () => {
    fc.assert(
      fc.property(url, fc.integer({ min: 0, max: 4096 }), (u, capacity) => {
        const seen = new SeenUrls(capacity);
        expect(seen.checkIn(u)).toBe(false);
        expect(seen.checkIn(u)).toBe(true);
        // The second check-in frees the slot: the memo holds the URL from then on.
        expect(seen.checkIn(u)).toBe(false);
      }),
    );
  });

  it('keeps most URLs through the next few hundred new ones', () => {
    const urls = Array.from(
      { length: 3000 },
      (_, i) =>
        `http://127.0.0.1:3000/v1/tailwind?wind_speed_kmh=${(i / 1000).toFixed(3)}&wind_direction_deg=250`,
    );
    const seen = new SeenUrls(1024);
    // Each URL is asked again after the 256 that follow it.
    let kept = 0;
    for (const [i, u] of urls.entries()) {
      seen.checkIn(u);
      const back = urls[i - 256];
      if (back !== undefined && seen.checkIn(back)) kept += 1;
    }
    // About three in four keep their slot through the ~512 check-ins in between (each URL and each
    // return); the set of 1,024 strings this table replaced, emptied whenever full, kept about half.
    expect(kept / (urls.length - 256)).toBeGreaterThan(0.7);
  });
});

describe('the memoized replier', () => {
  const query = fc
    .array(
      fc.tuple(
        fc.constantFrom('wind_speed_kmh', 'wind_direction_deg', 'segment_bearing_deg', 'x'),
        fc.oneof(fc.integer({ min: -10, max: 400 }).map(String), fc.constantFrom('', 'abc')),
      ),
      { maxLength: 4 },
    )
    .map((pairs) => new URLSearchParams(pairs).toString());
  const path = fc.constantFrom('/v1/tailwind', '/v1/plans', '/health', '/nope');
  const method = fc.constantFrom('GET', 'HEAD', 'POST', 'OPTIONS');

  it('answers exactly what the unmemoized replier answers, however often it is asked', () => {
    const memoized = createApiReplier({}, { memo: 8 });
    const plain = createApiReplier({}, { memo: 0 });
    fc.assert(
      fc.property(method, path, query, (m, p, q) => {
        const url = `http://memo.test${p}?${q}`;
        // Three times: a reply is remembered on the second and served from the memo on the third.
        for (let round = 0; round < 3; round++) {
          const a = memoized(m, url);
          const b = plain(m, url);
          expect([a.status, a.headers, a.body]).toEqual([b.status, b.headers, b.body]);
        }
      }),
      { numRuns: 2000 },
    );
  });
});
