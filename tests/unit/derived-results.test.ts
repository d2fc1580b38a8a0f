import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createDerivedResults,
  derivation,
  type DerivedResults,
} from '../../src/data/forecast/derived-results.ts';
import { hourSetId, hourSetWithin, type HourSetId } from '../../src/data/forecast/hour-set.ts';

const WIND = derivation<{ readonly subject: number; readonly hourSet: string }>('test wind');
const LINE = derivation<string>('test line');

/** The cache's calls with a closure, as a test may make them (the code passes module-level functions). */
const onHours = <T extends { subject: number; hourSet: string }>(
  derived: DerivedResults,
  subject: object,
  hourSet: HourSetId | null,
  compute: () => T,
) => derived.onHours(subject, hourSet, WIND, compute, null);
const fromValue = (derived: DerivedResults, value: object, compute: () => string) =>
  derived.fromValue(value, LINE, compute, null);

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
            const result = onHours(derived, subjects[call.subject] ?? {}, hourSet, () => {
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
    const first = onHours(derived, subject, null, () => ({ subject: 1, hourSet: '' }));
    const again = onHours(derived, subject, null, () => ({ subject: 1, hourSet: '' }));
    expect(again).not.toBe(first);
    let lines = 0;
    fromValue(derived, first, () => `line ${(lines += 1)}`);
    fromValue(derived, first, () => `line ${(lines += 1)}`);
    expect(lines).toBe(2);
  });

  it('derives from a remembered value once, and from any other value each time', () => {
    const derived = createDerivedResults();
    const subject = {};
    const wind = onHours(derived, subject, id(1, 1), () => ({ subject: 1, hourSet: 'a' }));
    let lines = 0;
    const line = () => `line ${(lines += 1)}`;
    expect(fromValue(derived, wind, line)).toBe('line 1');
    expect(fromValue(derived, wind, line)).toBe('line 1');
    expect(fromValue(derived, { ...wind }, line)).toBe('line 2');
    const held = derived.hold({ day: 1 });
    expect(fromValue(derived, held, line)).toBe('line 3');
    expect(fromValue(derived, held, line)).toBe('line 3');
  });

  it('keeps at most its bound of subjects, the least recently used going first', () => {
    const derived = createDerivedResults(2);
    const [a, b, c] = [{}, {}, {}];
    let computed = 0;
    const compute = () => ({ subject: (computed += 1), hourSet: 'x' });
    const first = onHours(derived, a, id(0, 0), compute);
    onHours(derived, b, id(0, 0), compute);
    expect(onHours(derived, a, id(0, 0), compute)).toBe(first);
    onHours(derived, c, id(0, 0), compute);
    expect(onHours(derived, a, id(0, 0), compute)).toBe(first);
    expect(computed).toBe(3);
    onHours(derived, b, id(0, 0), compute);
    expect(computed).toBe(4);
  });
});
