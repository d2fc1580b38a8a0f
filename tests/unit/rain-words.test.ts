import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rainText } from '../../src/core/rain-words.ts';
import { rainText as mcpRainText } from '../../src/mcp/report/weather-words.ts';

const amount = fc.option(fc.double({ min: 0, max: 50, noNaN: true }), { nil: null });
const chance = fc.option(fc.integer({ min: 0, max: 100 }), { nil: null });

describe('rainText', () => {
  it('is the one the MCP answers use, so the site and the tools word rain alike', () => {
    expect(mcpRainText).toBe(rainText);
  });

  it('says each case as the answers always have', () => {
    expect(rainText(0, 0)).toBe('dry');
    expect(rainText(0, null)).toBe('dry');
    expect(rainText(0, 55)).toBe('55% chance of rain');
    expect(rainText(0.3, 45)).toBe('rain up to 0.3 mm/h, 45% chance of rain');
    expect(rainText(1.2, 0)).toBe('rain up to 1.2 mm/h');
    expect(rainText(null, 20)).toBe('20% chance of rain');
    expect(rainText(null, null)).toBeNull();
  });

  it('names the amount and the chance apart, and says "dry" only when both are nil', () => {
    fc.assert(
      fc.property(amount, chance, (mm, pct) => {
        const text = rainText(mm, pct);
        const wet = mm !== null && mm > 0;
        const likely = pct !== null && pct > 0;
        expect(text === 'dry').toBe(mm === 0 && !likely);
        expect(text?.includes(`up to ${mm} mm/h`) ?? false).toBe(wet);
        expect(text?.includes(`${pct}% chance of rain`) ?? false).toBe(likely);
        expect(text === null).toBe(mm === null && !likely);
      }),
    );
  });
});
