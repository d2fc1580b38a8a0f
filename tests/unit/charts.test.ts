import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  chartDomains,
  domainOf,
  niceStep,
  scaleOf,
  ticksOf,
} from '../../src/components/charts/chart-scale.ts';
import type { ChartSpec } from '../../src/components/charts/chart-spec.ts';
import { areaPath, linePath } from '../../src/components/charts/chart-svg.ts';
import { chartRows } from '../../src/components/charts/chart-table.ts';

const HOUR_MS = 3_600_000;
const finite = fc.double({ min: -1e6, max: 1e6, noNaN: true, noDefaultInfinity: true });

describe('chart scales and ticks', () => {
  it('maps a domain end to end', () => {
    fc.assert(
      fc.property(finite, finite, (a, b) => {
        fc.pre(Math.abs(a - b) > 1e-6);
        const domain = { min: Math.min(a, b), max: Math.max(a, b) };
        const at = scaleOf(domain, 10, 110);
        expect(at(domain.min)).toBeCloseTo(10, 6);
        expect(at(domain.max)).toBeCloseTo(110, 6);
      }),
    );
  });

  it('numeric ticks are inside the domain, ascending, evenly spaced by a 1-2-5 step', () => {
    fc.assert(
      fc.property(finite, fc.double({ min: 1e-3, max: 1e5, noNaN: true }), (min, span) => {
        const domain = { min, max: min + span };
        const ticks = ticksOf({ label: 'x' }, domain, 6);
        expect(ticks.length).toBeGreaterThanOrEqual(1);
        const step = niceStep(domain.max - domain.min, 6);
        expect(String(step / 10 ** Math.floor(Math.log10(step) + 1e-12))).toMatch(/^(1|2|5)(\.0*\d?)?$/);
        for (const tick of ticks) {
          expect(tick).toBeGreaterThanOrEqual(domain.min - span * 1e-6);
          expect(tick).toBeLessThanOrEqual(domain.max + span * 1e-6);
        }
        for (let i = 1; i < ticks.length; i++)
          expect((ticks[i] ?? 0) - (ticks[i - 1] ?? 0)).toBeCloseTo(step, 6);
      }),
    );
  });

  it('time ticks fall on whole UTC hours', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1.7e12, max: 1.9e12 }),
        fc.integer({ min: 2, max: 96 }),
        (start, hours) => {
          const ticks = ticksOf({ label: 't', kind: 'time' }, { min: start, max: start + hours * HOUR_MS });
          expect(ticks.length).toBeGreaterThan(0);
          for (const tick of ticks) expect(tick % HOUR_MS).toBe(0);
        },
      ),
    );
  });

  it('a flat or empty range is widened so it can be drawn; bars include zero', () => {
    expect(domainOf({ label: 'y' }, [3, 3], false)).toEqual({ min: 2, max: 4 });
    expect(domainOf({ label: 'y' }, [], false)).toEqual({ min: 0, max: 1 });
    const spec: ChartSpec = {
      title: 't',
      x: { label: 'km' },
      y: { label: 'km/h' },
      series: [{ id: 'w', label: 'Wind', kind: 'bars', points: [{ x: 0, xEnd: 1, y: 4 }] }],
    };
    expect(chartDomains(spec).y.min).toBe(0);
  });
});

describe('chart paths', () => {
  const id = (v: number) => v;
  it('a line breaks at every gap and an area closes each run to the base', () => {
    const points = [
      { x: 0, y: 1 },
      { x: 1, y: 2 },
      { x: 2, y: null },
      { x: 3, y: 4 },
    ];
    expect(linePath(points, id, id)).toBe('M0.0 1.0L1.0 2.0M3.0 4.0');
    expect(areaPath(points, id, id, 0)).toBe('M0.0 1.0L1.0 2.0L1.0 0.0L0.0 0.0ZM3.0 4.0L3.0 0.0L3.0 0.0Z');
  });
});

describe('the chart as a table', () => {
  it('has one row per x, one column per series, and names bands and markers', () => {
    const spec: ChartSpec = {
      title: 'Gain',
      x: { label: 'Hour', format: (v) => `${v}h` },
      y: { label: 's', format: (v) => `${v} s` },
      series: [
        {
          id: 'a',
          label: 'As given',
          kind: 'line',
          points: [
            { x: 6, y: 10 },
            { x: 7, y: null },
          ],
        },
        { id: 'b', label: 'Reversed', kind: 'line', dashed: true, points: [{ x: 7, y: -3 }] },
      ],
      bands: [{ from: 6.5, to: 8, label: 'Dark', kind: 'dark' }],
      markers: [{ x: 6.1, y: 10, label: 'Best start', kind: 'best' }],
    };
    const { head, rows } = chartRows(spec);
    expect(head).toEqual(['Hour', 'As given', 'Reversed', 'Marked']);
    expect(rows).toEqual([
      ['6h', '10 s', 'no data', 'Best start'],
      ['7h', 'no data', '-3 s', 'Dark'],
    ]);
  });

  it('writes a bar as its x range', () => {
    const { rows } = chartRows({
      title: 'Wind per km',
      x: { label: 'km' },
      y: { label: 'km/h' },
      series: [
        { id: 'w', label: 'Tailwind', kind: 'bars', bySign: true, points: [{ x: 0, xEnd: 1, y: -2.5 }] },
      ],
    });
    expect(rows).toEqual([['0–1', '-2.5']]);
  });
});
