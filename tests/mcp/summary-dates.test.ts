import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { day } from '../../src/mcp/tools/public-summaries.ts';

/** What the summaries used to ask ICU for; the written-out formatter must read the same. */
const EN_GB_SHORT = new Intl.DateTimeFormat('en-GB', {
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  timeZone: 'UTC',
});

describe('the date in tool summaries', () => {
  it('reads as en-GB short UTC dates for any instant from 1970 to 2200', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Date.UTC(2200, 0, 1) }), (ms) => {
        const date = new Date(ms);
        expect(day(date)).toBe(EN_GB_SHORT.format(date));
      }),
      { numRuns: 2000 },
    );
  });

  it('goes by UTC at the edges of a day and names every month', () => {
    expect(day(new Date('2026-09-01T23:59:59.999Z'))).toBe('Tue 1 Sept');
    expect(day(new Date('2026-09-02T00:00:00Z'))).toBe('Wed 2 Sept');
    const months = Array.from({ length: 12 }, (_, m) => day(new Date(Date.UTC(2026, m, 15))).split(' ')[2]);
    expect(months).toEqual(
      Array.from({ length: 12 }, (_, m) => EN_GB_SHORT.format(new Date(Date.UTC(2026, m, 15))).split(' ')[2]),
    );
  });
});
