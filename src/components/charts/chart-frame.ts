import { chartDomains, scaleOf, ticksOf, Y_TICK_COUNT, type Domain } from './chart-scale.ts';
import { formatValue, type ChartSpec } from './chart-spec.ts';

/** Where the y axis title's glyphs end, from the drawing's left edge (12 px text turned upright at x 14). */
const Y_TITLE_RIGHT = 18;

/**
 * Room left of the plot: the default, or more when the widest y tick label (right-aligned 6 units
 * left of the plot, 12 px text, no glyph wider than 0.62 em on average) would reach the axis title,
 * as "+20.0" on the route's wind chart once did.
 */
function leftMargin(spec: ChartSpec, y: Domain): number {
  const widths = ticksOf(spec.y, y, Y_TICK_COUNT).map((tick) => formatValue(spec.y, tick).length * 12 * 0.62);
  return Math.max(MARGIN.left, Math.ceil(Y_TITLE_RIGHT + 6 + Math.max(0, ...widths) + 6));
}

/** Room around the plot for tick labels (left, bottom), the axis titles and band labels (top). */
export const MARGIN = { top: 22, right: 14, bottom: 42, left: 56 } as const;

/** The plot's box in viewBox units; `top < bottom` (SVG's y grows downwards). */
export interface PlotBox {
  readonly left: number;
  readonly right: number;
  readonly top: number;
  readonly bottom: number;
}

/** Where a chart draws: its size, the plot box, the domains and the scales from values to the box. */
export interface ChartFrame {
  readonly width: number;
  readonly height: number;
  readonly plot: PlotBox;
  readonly domains: { readonly x: Domain; readonly y: Domain };
  readonly x: (value: number) => number;
  readonly y: (value: number) => number;
}

/**
 * The geometry of a chart, apart from the drawing so a unit test can check
 * without a browser that every value lands inside the plot box.
 */
export function chartFrame(spec: ChartSpec): ChartFrame {
  const width = spec.width ?? 640;
  const height = spec.height ?? 260;
  const domains = chartDomains(spec);
  const plot = {
    left: leftMargin(spec, domains.y),
    right: width - MARGIN.right,
    top: MARGIN.top,
    bottom: height - MARGIN.bottom,
  };
  return {
    width,
    height,
    plot,
    domains,
    x: scaleOf(domains.x, plot.left, plot.right),
    y: scaleOf(domains.y, plot.bottom, plot.top),
  };
}
