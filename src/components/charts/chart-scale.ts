import type { AxisSpec, ChartSpec } from './chart-spec.ts';

const HOUR_MS = 3_600_000;

/** A range of values, `min < max` always (a flat range is widened so it can be drawn). */
export interface Domain {
  readonly min: number;
  readonly max: number;
}

/** A value's position between `from` and `to` (pixels) for a domain; outside values are not clamped. */
export function scaleOf(domain: Domain, from: number, to: number): (value: number) => number {
  const span = domain.max - domain.min;
  return (value) => from + ((value - domain.min) / span) * (to - from);
}

/** `min`/`max` of the axis where given, else of the values; a single value (or a flat series) gets ±1 around it. */
export function domainOf(axis: AxisSpec, values: readonly number[], includeZero: boolean): Domain {
  const finite = values.filter(Number.isFinite);
  let min = axis.min ?? Math.min(...finite, ...(includeZero ? [0] : []));
  let max = axis.max ?? Math.max(...finite, ...(includeZero ? [0] : []));
  if (!Number.isFinite(min) || !Number.isFinite(max)) [min, max] = [0, 1];
  // A range too thin to divide into ticks (a flat line, or one differing in the last bits) is drawn as flat.
  if (max - min <= 1e-9 * Math.max(1, Math.abs(min), Math.abs(max))) [min, max] = [min - 1, max + 1];
  return { min, max };
}

/** The step of about `count` ticks over `span`: 1, 2 or 5 times a power of ten. */
export function niceStep(span: number, count: number): number {
  const raw = span / Math.max(1, count);
  const power = 10 ** Math.floor(Math.log10(raw));
  const factor = [1, 2, 5, 10].find((f) => f * power >= raw) ?? 10;
  return factor * power;
}

/** Hour steps a time axis may use: readable whole-hour spacings. */
const HOUR_STEPS = [1, 2, 3, 6, 12, 24, 48];

/**
 * Ticks of an axis: the given ones inside the domain, else multiples of a
 * nice step (hours on a time axis) from the first inside the domain.
 */
export function ticksOf(axis: AxisSpec, domain: Domain, count = 6): number[] {
  const span = domain.max - domain.min;
  // A tick a hair outside the range (floating point) still counts: 0.30000000000000004 is 0.3.
  const slack = span * 1e-9;
  const inside = (value: number) => value >= domain.min - slack && value <= domain.max + slack;
  if (axis.ticks) return axis.ticks.filter(inside);
  const step =
    axis.kind === 'time'
      ? (HOUR_STEPS.find((h) => h * HOUR_MS >= span / count) ?? 48) * HOUR_MS
      : niceStep(span, count);
  const ticks: number[] = [];
  let first = Math.ceil(domain.min / step) * step;
  if (!inside(first)) first += step;
  for (let i = 0, tick = first; inside(tick); tick = first + ++i * step)
    ticks.push(Math.abs(tick) < step * 1e-9 ? 0 : tick);
  return ticks;
}

/** How many y ticks a chart aims for; the y range is rounded out to this many steps or so. */
export const Y_TICK_COUNT = 5;

/**
 * A domain widened outwards to whole multiples of a nice step, at the ends the
 * axis does not fix, so the lowest and highest values drawn sit on or inside a
 * labelled tick: a -13 km/h bar once ran to the plot's edge below the last
 * tick at -10. Rounded again until the step the wider range picks is the one
 * its ends are multiples of, so the ticks land on both ends.
 */
export function niceDomain(axis: AxisSpec, domain: Domain, count = Y_TICK_COUNT): Domain {
  let { min, max } = domain;
  for (let round = 0; round < 4; round++) {
    const step = niceStep(max - min, count);
    const lower = axis.min ?? Math.min(min, Math.floor(min / step) * step);
    const upper = axis.max ?? Math.max(max, Math.ceil(max / step) * step);
    if (lower === min && upper === max) break;
    [min, max] = [lower, upper];
  }
  return { min, max };
}

/** Both domains of a chart: x over every point (bands and markers outside it are cut off); y over the values (and 0 for bars and areas), rounded out to nice ticks. */
export function chartDomains(spec: ChartSpec): { x: Domain; y: Domain } {
  const xs = spec.series.flatMap((s) =>
    s.points.flatMap((p) => (p.xEnd === undefined ? [p.x] : [p.x, p.xEnd])),
  );
  const ys = spec.series.flatMap((s) => s.points.flatMap((p) => (p.y === null ? [] : [p.y])));
  const markerYs = (spec.markers ?? []).flatMap((m) => (m.y === undefined ? [] : [m.y]));
  const fromZero = spec.series.some((s) => s.kind !== 'line');
  return {
    x: domainOf(spec.x, xs, false),
    y: niceDomain(spec.y, domainOf(spec.y, [...ys, ...markerYs], fromZero)),
  };
}
