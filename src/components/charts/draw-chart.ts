import type { ChartSpec } from './chart-spec.ts';
import { renderChart } from './chart-svg.ts';
import { fillChartTable } from './chart-table.ts';

/**
 * Draws a chart into the figure `Chart.astro` rendered with the same `id`:
 * the SVG (`#<id>-svg`), its key (`#<id>-legend`: one entry per series and
 * per kind of band and marker, so dashes and shading are explained in words) and the
 * table beside it (`#<id>-table`). Call it again with a new spec to redraw.
 *
 * @example
 * drawChart('gain-chart', {
 *   title: 'Time gained by start hour',
 *   x: { label: 'Start', kind: 'time', format: (ms) => localHour(ms) },
 *   y: { label: 'Gained (s)' },
 *   series: [{ id: 'as-given', label: 'As given', kind: 'line', points }],
 *   bands: [{ from, to, label: 'Dark', kind: 'dark', showLabel: false }],
 *   markers: [{ x: best, y: gained, label: 'Best start', kind: 'best' }],
 * });
 */
export function drawChart(id: string, spec: ChartSpec): void {
  const svg = document.getElementById(`${id}-svg`);
  const table = document.getElementById(`${id}-table`);
  const legend = document.getElementById(`${id}-legend`);
  if (!(svg instanceof SVGSVGElement) || !(table instanceof HTMLTableElement))
    throw new Error(`chart: #${id}-svg or #${id}-table is missing (render <Chart id="${id}" />)`);
  drawAtShownWidth(svg, spec);
  fillChartTable(table, spec);
  if (legend) legend.replaceChildren(...legendItems(spec));
}

/** The resize watch of each chart drawn, replaced when the chart is drawn again. */
const watches = new WeakMap<SVGSVGElement, ResizeObserver>();

/** Narrowest and widest drawing, in CSS pixels; the width of a hidden chart (0) falls back to the spec's. */
const MIN_WIDTH = 240;
const MAX_WIDTH = 1600;

/**
 * Draws the chart as wide as it is shown, one unit of the drawing to one
 * CSS pixel, so its 12 px labels are 12 px on a phone and on a desktop: a
 * fixed 640-unit drawing scaled to the box made them 7 px at 390 px wide and
 * 21 px at 1280. Drawn again when the box's width changes (rotation, a
 * hidden section shown), never for a change of height, which the drawing
 * itself causes.
 */
function drawAtShownWidth(svg: SVGSVGElement, spec: ChartSpec): void {
  watches.get(svg)?.disconnect();
  let drawnWidth = -1;
  const draw = () => {
    const shown = Math.round(svg.getBoundingClientRect().width);
    if (shown === drawnWidth) return;
    drawnWidth = shown;
    const width = shown > 0 ? Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, shown)) : undefined;
    renderChart(svg, spec.width === undefined && width !== undefined ? { ...spec, width } : spec);
  };
  draw();
  if (spec.width !== undefined || typeof ResizeObserver === 'undefined') return;
  const watch = new ResizeObserver(draw);
  watch.observe(svg);
  watches.set(svg, watch);
}

function legendItems(spec: ChartSpec): HTMLLIElement[] {
  const item = (className: string, text: string): HTMLLIElement => {
    const li = document.createElement('li');
    const swatch = document.createElement('span');
    swatch.className = `chart-swatch ${className}`;
    swatch.setAttribute('aria-hidden', 'true');
    li.append(swatch, text);
    return li;
  };
  const series = spec.series.flatMap((s) =>
    s.bySign
      ? [
          item(`chart-swatch-${s.kind} chart-positive`, `${s.label}: above zero`),
          item(`chart-swatch-${s.kind} chart-negative`, `${s.label}: below zero`),
        ]
      : [item(`chart-swatch-${s.kind} chart-series-${s.id}${s.dashed ? ' chart-dashed' : ''}`, s.label)],
  );
  const kinds = new Map<string, string>();
  for (const band of spec.bands ?? [])
    if (!kinds.has(band.kind ?? 'plain')) kinds.set(band.kind ?? 'plain', band.label);
  const bands = [...kinds].map(([kind, label]) => item(`chart-swatch-band chart-band-${kind}`, label));
  const markers = [...new Map((spec.markers ?? []).map((m) => [m.kind ?? 'plain', m.label]))].map(
    ([kind, label]) => item(`chart-swatch-marker chart-marker-${kind}`, label),
  );
  return spec.series.length + bands.length + markers.length > 1 ? [...series, ...bands, ...markers] : [];
}
