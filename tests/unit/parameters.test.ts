import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PARAMETERS, parseDecimal, rangeHint } from '../../src/core/parameters.ts';

describe('parseDecimal', () => {
  it.each(['20', '-3.5', '0', '0.5', '.5', '5.', '2e1', '2E-1', '1e+2', '007'])('reads %s', (text) => {
    expect(parseDecimal(text)).toBe(Number(text));
  });

  it.each([
    '',
    ' 5',
    '5 ',
    '+5',
    '0x10',
    '0b1',
    '0o7',
    'NaN',
    'Infinity',
    '-Infinity',
    '1,5',
    '1e',
    'e1',
    '.',
    '-',
    '1e999',
    '５',
  ])('refuses %j', (text) => {
    expect(parseDecimal(text)).toBeUndefined();
  });

  it('reads back every finite number JavaScript prints', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (value) => {
        expect(parseDecimal(String(value))).toBe(value === 0 ? 0 : value);
      }),
    );
  });
});

describe('rangeHint', () => {
  it('names the parameter, its bounds and unit for every parameter', () => {
    for (const [name, { min, max, unit }] of Object.entries(PARAMETERS)) {
      const hint = rangeHint(name as keyof typeof PARAMETERS);
      expect(hint).toContain(name);
      expect(hint).toContain(`from ${min} to ${max} (${unit})`);
    }
  });
});
