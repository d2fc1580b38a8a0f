import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createApiReplier } from '../../src/rest/handler.ts';
import { jsonReply, CACHE } from '../../src/rest/headers.ts';
import { ReplyMemo } from '../../src/rest/reply-memo.ts';

describe('ReplyMemo', () => {
  it('keeps at most its capacity, forgetting the least recently used', () => {
    const memo = new ReplyMemo(2);
    const reply = jsonReply({}, { cache: CACHE.calculation });
    memo.remember('a', reply);
    memo.remember('b', reply);
    memo.get('a');
    memo.remember('c', reply);
    expect(memo.size).toBe(2);
    expect(memo.get('b')).toBeUndefined();
    expect(memo.get('a')).toBe(reply);
  });

  it('never keeps a reply that must not be cached', () => {
    const memo = new ReplyMemo(8);
    memo.remember('health', jsonReply({ status: 'ok' }, { cache: CACHE.none }));
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
        for (let round = 0; round < 2; round++) {
          const a = memoized(m, url);
          const b = plain(m, url);
          expect([a.status, a.headers, a.body]).toEqual([b.status, b.headers, b.body]);
        }
      }),
      { numRuns: 2000 },
    );
  });
});
