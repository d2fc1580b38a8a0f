/**
 * Times as riders read them, one way on the site and in the MCP answers: the words say back exactly
 * the seconds they were made from below an hour, and the minute nearest from an hour up.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clockTime, durationWords, minutesWords, windGainWords } from '../../src/core/duration-words.ts';

/** Reads "2 h 05 min", "48 min", "1 min 05 s" or "40 s" back into seconds. */
function secondsOf(words: string): number {
  const match = /^(?:(\d+) h (\d\d) min|(\d+) min(?: (\d\d) s)?|(\d+) s)$/.exec(words);
  if (!match) throw new Error(`not a duration: ${words}`);
  const [, h, hm, m, ms, s] = match.map((part) => Number(part ?? 0));
  return (h ?? 0) * 3600 + ((hm ?? 0) + (m ?? 0)) * 60 + (ms ?? 0) + (s ?? 0);
}

describe('duration words', () => {
  it('say every span under an hour to the second, and longer ones to the nearest minute', () => {
    fc.assert(
      fc.property(fc.integer({ min: -50 * 3600, max: 50 * 3600 }), (seconds) => {
        const read = secondsOf(durationWords(seconds));
        const whole = Math.abs(seconds);
        if (whole < 3600) expect(read).toBe(whole);
        else expect(read).toBe(Math.round(whole / 60) * 60);
      }),
    );
  });

  it('pad minutes and seconds as a clock does', () => {
    expect(durationWords(65)).toBe('1 min 05 s');
    expect(durationWords(40)).toBe('40 s');
    expect(durationWords(7530)).toBe('2 h 06 min');
    expect(minutesWords(125)).toBe('2 h 05 min');
    expect(minutesWords(48)).toBe('48 min');
    expect(secondsOf(minutesWords(48))).toBe(48 * 60);
  });

  it('put the sign of what the wind does in words, never in a minus', () => {
    expect(windGainWords(43)).toBe('gains 43 s');
    expect(windGainWords(-113)).toBe('costs 1 min 53 s');
    expect(windGainWords(0)).toBe('costs nothing');
    fc.assert(
      fc.property(fc.integer({ min: -7200, max: 7200 }), (seconds) => {
        expect(windGainWords(seconds)).not.toContain('-');
      }),
    );
  });

  it('write a segment time on the clock', () => {
    expect(clockTime(42 * 60)).toBe('42:00');
    expect(clockTime(3907)).toBe('1:05:07');
    expect(clockTime(59.6)).toBe('1:00');
  });
});
