import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chartFrame } from '../../src/components/charts/chart-frame.ts';
import { ticksOf } from '../../src/components/charts/chart-scale.ts';
import type { ChartSpec, SeriesSpec } from '../../src/components/charts/chart-spec.ts';
import { linePath, titleThatFits } from '../../src/components/charts/chart-svg.ts';

/** Values of every shape a chart meets: mixed sign, all negative, flat, single, huge range. */
const value = fc.oneof(
  fc.double({ min: -50, max: 50, noNaN: true }),
  fc.double({ min: -1e7, max: -1e-3, noNaN: true }),
  fc.double({ min: -1e9, max: 1e9, noNaN: true }),
  fc.constant(-7),
);
const values = fc.oneof(
  fc.array(value, { minLength: 1, maxLength: 40 }),
  value.map((v) => [v]),
  fc.tuple(value, fc.integer({ min: 2, max: 20 })).map(([v, n]) => Array<number>(n).fill(v)),
);
const kind = fc.constantFrom<SeriesSpec['kind']>('line', 'area', 'bars');

const specOf = (ys: readonly number[], seriesKind: SeriesSpec['kind'], width: number): ChartSpec => ({
  title: 't',
  width,
  x: { label: 'km' },
  y: { label: 'km/h' },
  series: [
    {
      id: 's',
      label: 'S',
      kind: seriesKind,
      points: ys.map((y, i) => ({ x: i, xEnd: i + 1, y })),
    },
  ],
});

describe('chart frame', () => {
  it('every value drawn, and a bar or area base at zero, lies inside the plot box', () => {
    fc.assert(
      fc.property(values, kind, fc.integer({ min: 240, max: 1600 }), (ys, seriesKind, width) => {
        const spec = specOf(ys, seriesKind, width);
        const { plot, x, y } = chartFrame(spec);
        const slack = 1e-6 * (plot.bottom - plot.top);
        const inside = (px: number, py: number) => {
          expect(px).toBeGreaterThanOrEqual(plot.left - slack);
          expect(px).toBeLessThanOrEqual(plot.right + slack);
          expect(py).toBeGreaterThanOrEqual(plot.top - slack);
          expect(py).toBeLessThanOrEqual(plot.bottom + slack);
        };
        for (const [i, v] of ys.entries()) inside(x(i), y(v));
        if (seriesKind !== 'line') inside(x(0), y(0));
        // The path as drawn (without the renderer's clamp) stays inside too.
        const d = linePath(spec.series[0]?.points ?? [], x, y);
        for (const [, px, py] of d.matchAll(/[ML](-?[\d.]+) (-?[\d.]+)/g))
          inside(Number(px), Number(py) - Math.sign(Number(py) - plot.bottom) * 0.05);
      }),
    );
  });

  it('the y range ends on labelled ticks', () => {
    fc.assert(
      fc.property(values, kind, (ys, seriesKind) => {
        const spec = specOf(ys, seriesKind, 640);
        const { domains } = chartFrame(spec);
        const ticks = ticksOf(spec.y, domains.y, 5);
        const span = domains.y.max - domains.y.min;
        expect(ticks.length).toBeGreaterThanOrEqual(2);
        expect(Math.abs((ticks[0] ?? NaN) - domains.y.min)).toBeLessThanOrEqual(span * 1e-6);
        expect(Math.abs((ticks.at(-1) ?? NaN) - domains.y.max)).toBeLessThanOrEqual(span * 1e-6);
      }),
    );
  });

  it('a -13 km/h bar gets a tick below it, not the plot edge', () => {
    const { domains } = chartFrame(specOf([12, -13, 4], 'bars', 640));
    expect(domains.y).toEqual({ min: -20, max: 20 });
  });
});

describe('axis titles', () => {
  it('the short title replaces a title longer than its room, never a fitting one', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), fc.integer({ min: 50, max: 1600 }), (label, room) => {
        const axis = { label, shortLabel: 'short' };
        const fits = label.length * 12 * 0.66 <= room;
        expect(titleThatFits(axis, room)).toBe(fits ? label : 'short');
        expect(titleThatFits({ label }, room)).toBe(label);
      }),
    );
    // The route's wind chart: 196 units of plot height at the default 260.
    expect(
      titleThatFits({ label: 'Along-track wind (km/h at 10 m)', shortLabel: 'Tailwind (km/h)' }, 196),
    ).toBe('Tailwind (km/h)');
  });
});
