import { chartDomains, scaleOf, type Domain } from './chart-scale.ts';
import type { ChartSpec } from './chart-spec.ts';

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
  const plot = {
    left: MARGIN.left,
    right: width - MARGIN.right,
    top: MARGIN.top,
    bottom: height - MARGIN.bottom,
  };
  const domains = chartDomains(spec);
  return {
    width,
    height,
    plot,
    domains,
    x: scaleOf(domains.x, plot.left, plot.right),
    y: scaleOf(domains.y, plot.bottom, plot.top),
  };
}
