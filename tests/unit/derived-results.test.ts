import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createDerivedResults, derivation } from '../../src/data/forecast/derived-results.ts';
import { hourSetId, hourSetWithin, type HourSetId } from '../../src/data/forecast/hour-set.ts';

const WIND = derivation<{ readonly subject: number; readonly hourSet: string }>('test wind');
const LINE = derivation<string>('test line');

const id = (cell: number, hour: number): HourSetId =>
  hourSetWithin(hourSetId({ cellKey: `0:${cell}`, fetchedAt: 100, issuedAt: 90, fromHour: hour }), hour);

describe('hour set names', () => {
  it('differ whenever what fixes the hours differs, and agree otherwise (property)', () => {
    const origin = fc.record({
      cellKey: fc.constantFrom('1:2', '12:0', '-3:7'),
      fetchedAt: fc.integer({ min: 0, max: 5 }),
      issuedAt: fc.integer({ min: 0, max: 5 }),
      fromHour: fc.integer({ min: 0, max: 5 }).map((h) => h * 3600),
    });
    fc.assert(
      fc.property(origin, origin, (a, b) => {
        const same = JSON.stringify(a) === JSON.stringify(b);
        expect(hourSetId(a) === hourSetId(b)).toBe(same);
      }),
    );
  });
});

describe('the derived results', () => {
  it('computes a derivation once per subject and hour set, again for another set (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ subject: fc.nat(5), cell: fc.nat(2), hour: fc.nat(2) }), { maxLength: 60 }),
        (calls) => {
          const derived = createDerivedResults(100);
          const subjects = Array.from({ length: 6 }, (_, i) => ({ i }));
          const current = new Map<number, string>();
          let computed = 0;
          let expectedComputed = 0;
          for (const call of calls) {
            const hourSet = id(call.cell, call.hour);
            if (current.get(call.subject) !== hourSet) expectedComputed += 1;
            current.set(call.subject, hourSet);
            const result = derived.onHours(subjects[call.subject] ?? {}, hourSet, WIND, () => {
              computed += 1;
              return { subject: call.subject, hourSet };
            });
            expect(result).toEqual({ subject: call.subject, hourSet });
          }
          expect(computed).toBe(expectedComputed);
        },
      ),
    );
  });

  it('remembers nothing for unnamed hours', () => {
    const derived = createDerivedResults();
    const subject = {};
    const first = derived.onHours(subject, null, WIND, () => ({ subject: 1, hourSet: '' }));
    const again = derived.onHours(subject, null, WIND, () => ({ subject: 1, hourSet: '' }));
    expect(again).not.toBe(first);
    let lines = 0;
    derived.fromValue(first, LINE, () => `line ${(lines += 1)}`);
    derived.fromValue(first, LINE, () => `line ${(lines += 1)}`);
    expect(lines).toBe(2);
  });

  it('derives from a remembered value once, and from any other value each time', () => {
    const derived = createDerivedResults();
    const subject = {};
    const wind = derived.onHours(subject, id(1, 1), WIND, () => ({ subject: 1, hourSet: 'a' }));
    let lines = 0;
    const line = () => `line ${(lines += 1)}`;
    expect(derived.fromValue(wind, LINE, line)).toBe('line 1');
    expect(derived.fromValue(wind, LINE, line)).toBe('line 1');
    expect(derived.fromValue({ ...wind }, LINE, line)).toBe('line 2');
    const held = derived.hold({ day: 1 });
    expect(derived.fromValue(held, LINE, line)).toBe('line 3');
    expect(derived.fromValue(held, LINE, line)).toBe('line 3');
  });

  it('keeps at most its bound of subjects, the least recently used going first', () => {
    const derived = createDerivedResults(2);
    const [a, b, c] = [{}, {}, {}];
    let computed = 0;
    const compute = () => ({ subject: (computed += 1), hourSet: 'x' });
    const first = derived.onHours(a, id(0, 0), WIND, compute);
    derived.onHours(b, id(0, 0), WIND, compute);
    expect(derived.onHours(a, id(0, 0), WIND, compute)).toBe(first);
    derived.onHours(c, id(0, 0), WIND, compute);
    expect(derived.onHours(a, id(0, 0), WIND, compute)).toBe(first);
    expect(computed).toBe(3);
    derived.onHours(b, id(0, 0), WIND, compute);
    expect(computed).toBe(4);
  });
});
