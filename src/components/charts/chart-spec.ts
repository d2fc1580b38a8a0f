/**
 * What a chart shows, as plain data: the site's charts are described once
 * here and drawn twice, as SVG ({@link renderChart}) and as a table beside it
 * ({@link fillChartTable}), so the picture and the words a screen reader
 * hears can never disagree. Nothing here touches the DOM, so the shapes are
 * checked in unit tests without a browser.
 */

/** One axis. `format` writes a value as the tick labels, the table and the title say it. */
export interface AxisSpec {
  /** Said under (x) or beside (y) the plot and used as the table's column head. */
  readonly label: string;
  /**
   * Written on the drawing instead of `label` when `label` would not fit
   * beside (y) or under (x) the plot; the table keeps `label`.
   */
  readonly shortLabel?: string;
  /**
   * `number` for distances and the like; `time` for instants in unix
   * milliseconds (ticks fall on whole hours of UTC unless `ticks` is given,
   * so in a zone a fraction of an hour from UTC give your own).
   */
  readonly kind?: 'number' | 'time';
  readonly format?: (value: number) => string;
  /** The range shown; by default the data's (with 0 included on y for bars and areas). */
  readonly min?: number;
  readonly max?: number;
  /** Tick positions; by default "nice" steps (1, 2, 5 × 10ⁿ, or 1, 2, 3, 6, 12, 24 hours). */
  readonly ticks?: readonly number[];
}

/** A point of a series; `y: null` is a gap (a line breaks there, the table says "no data"). */
export interface SeriesPoint {
  readonly x: number;
  readonly y: number | null;
  /** For bars: where the bar ends on x (it starts at `x`). Ignored by lines and areas. */
  readonly xEnd?: number;
}

/**
 * A series. `line` joins the points; `area` fills between the line and y = 0;
 * `bars` draws one rectangle per point from `x` to `xEnd`. With `bySign`,
 * each bar or area part is classed `chart-positive` or `chart-negative`;
 * the sign also shows as the side of the zero line, so it reads without colour.
 */
export interface SeriesSpec {
  /** Stable id: a CSS hook (`chart-series-<id>`) and the table's column key. */
  readonly id: string;
  /** The column head in the table and the legend entry. */
  readonly label: string;
  readonly kind: 'line' | 'area' | 'bars';
  readonly points: readonly SeriesPoint[];
  readonly bySign?: boolean;
  /** Dashed line (a second series beside a solid one, told apart without colour). */
  readonly dashed?: boolean;
}

/** An x range shaded across the plot, with a label (a best window, darkness, a rain hour). */
export interface BandSpec {
  readonly from: number;
  readonly to: number;
  readonly label: string;
  /** A CSS hook: `chart-band-<kind>` (e.g. `best`, `dark`, `rain`, `gust`). */
  readonly kind?: string;
  /** Drawn as text at the top of the band; false for many narrow bands (the table still names them). */
  readonly showLabel?: boolean;
}

/** A marked point (with `y`) or a vertical rule at `x` (without), with a label. */
export interface MarkerSpec {
  readonly x: number;
  readonly y?: number;
  readonly label: string;
  /** A CSS hook: `chart-marker-<kind>` (e.g. `best`). */
  readonly kind?: string;
}

/** A whole chart. */
export interface ChartSpec {
  /** The short text equivalent: the SVG's title, and the table's caption. */
  readonly title: string;
  /** What the chart says in a sentence or two (the SVG's description): the finding, not the drawing. */
  readonly summary?: string;
  readonly x: AxisSpec;
  readonly y: AxisSpec;
  readonly series: readonly SeriesSpec[];
  readonly bands?: readonly BandSpec[];
  readonly markers?: readonly MarkerSpec[];
  /** The drawing's size in SVG units (it scales to its box); 640 × 260 by default. */
  readonly width?: number;
  readonly height?: number;
}

/** The value as an axis writes it: its `format`, else a time as UTC "HH:MM", else the number. */
export function formatValue(axis: AxisSpec, value: number): string {
  if (axis.format) return axis.format(value);
  if (axis.kind === 'time') return new Date(value).toISOString().slice(11, 16);
  return String(Math.round(value * 100) / 100);
}
