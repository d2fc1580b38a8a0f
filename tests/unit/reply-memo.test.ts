import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createApiReplier } from '../../src/rest/handler.ts';
import { jsonReply, CACHE, type Reply } from '../../src/rest/headers.ts';
import { ReplyMemo } from '../../src/rest/reply-memo.ts';

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

  it('forgets the URLs answered once when there are more than its capacity', () => {
    const memo = new ReplyMemo(3);
    const reply = jsonReply({}, { cache: CACHE.calculation });
    for (const key of ['a', 'b', 'c', 'd']) memo.remember(key, reply);
    // 'd' found the set of URLs answered once full, emptied it and started it again.
    memo.remember('a', reply);
    expect(memo.get('a')).toBeUndefined();
    memo.remember('d', reply);
    expect(memo.get('d')).toBe(reply);
  });

  it('never keeps a reply that must not be cached', () => {
    const memo = new ReplyMemo(8);
    const health = jsonReply({ status: 'ok' }, { cache: CACHE.none });
    answerTwice(memo, 'health', health);
    expect(memo.get('health')).toBeUndefined();
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
