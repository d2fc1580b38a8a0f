import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { groupDigits } from '../../src/core/group-digits.ts';

describe('groupDigits', () => {
  it("writes every safe integer as toLocaleString('en') does", () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), (value) => {
        expect(groupDigits(value)).toBe(value.toLocaleString('en'));
      }),
      { numRuns: 2000 },
    );
  });

  it('groups at each power of a thousand', () => {
    expect([0, 999, 1000, 50_000, 999_999, 1_000_000, -1234].map(groupDigits)).toEqual([
      '0',
      '999',
      '1,000',
      '50,000',
      '999,999',
      '1,000,000',
      '-1,234',
    ]);
  });
});
