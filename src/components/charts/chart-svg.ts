import { chartFrame } from './chart-frame.ts';
import { ticksOf, Y_TICK_COUNT, type Domain } from './chart-scale.ts';
import { svgNode as node } from '../dom/svg-node.ts';
import {
  formatValue,
  type AxisSpec,
  type ChartSpec,
  type SeriesPoint,
  type SeriesSpec,
} from './chart-spec.ts';

/**
 * Draws a {@link ChartSpec} into an `<svg>` the page already holds
 * (Chart.astro renders one, with its styles): axes with ticks and labels,
 * shaded bands, line, area and bar series, markers. Hand-written rather than
 * a charting library: the site needs two shapes (a line over time, bars over
 * distance) and an SVG that screen readers and the page's colours reach;
 * uPlot, the smallest well-kept one we measured, is 22 KB gzip and draws on
 * a canvas (docs/decisions/0023-route-forecast-in-the-browser.md).
 */

const fixed = (value: number): string => value.toFixed(1);

/** A polyline's `d`, broken at every `null` (a gap in the data is not drawn across). */
export function linePath(
  points: readonly SeriesPoint[],
  x: (v: number) => number,
  y: (v: number) => number,
): string {
  let d = '';
  let pen = false;
  for (const point of points) {
    if (point.y === null) {
      pen = false;
      continue;
    }
    d += `${pen ? 'L' : 'M'}${fixed(x(point.x))} ${fixed(y(point.y))}`;
    pen = true;
  }
  return d;
}

/** An area's `d`: each unbroken run closed down to `baseY`. */
export function areaPath(
  points: readonly SeriesPoint[],
  x: (v: number) => number,
  y: (v: number) => number,
  baseY: number,
): string {
  const runs: SeriesPoint[][] = [[]];
  for (const point of points) {
    if (point.y === null) runs.push([]);
    else runs.at(-1)?.push(point);
  }
  return runs
    .filter((run) => run.length > 0)
    .map((run) => {
      const first = run[0] as SeriesPoint;
      const last = run.at(-1) as SeriesPoint;
      return `${linePath(run, x, y)}L${fixed(x(last.x))} ${fixed(baseY)}L${fixed(x(first.x))} ${fixed(baseY)}Z`;
    })
    .join('');
}

/** Width of a tick label in viewBox units, at most: 12 px text, no glyph wider than 0.62 em on average. */
const tickLabelWidth = (label: string): number => label.length * 12 * 0.62;

/**
 * The class that keeps an x tick's label inside the viewBox: a label centred
 * on a tick near either edge leans inwards instead (a "Tue 00:00" centred on
 * the last tick once reached past the drawing and widened a phone's page).
 */
function tickLean(at: number, label: string, width: number): string {
  const half = tickLabelWidth(label) / 2;
  if (at + half > width) return ' chart-tick-end';
  if (at - half < 0) return ' chart-tick-start';
  return '';
}

/**
 * The x ticks whose labels fit side by side: about one per 90 px, at most
 * six, and of a chart's own tick list (local midnights and noons) every
 * second or third when its labels would touch, so a phone's narrow chart
 * never prints "Sat 12:00" over "Sun 00:00".
 */
function xTicksThatFit(spec: ChartSpec, domain: Domain, plotWidth: number): number[] {
  const ticks = ticksOf(spec.x, domain, Math.max(2, Math.min(6, Math.round(plotWidth / 90))));
  const widest = Math.max(0, ...ticks.map((tick) => tickLabelWidth(formatValue(spec.x, tick))));
  const every = Math.max(1, Math.ceil((widest + 8) / (plotWidth / Math.max(1, ticks.length))));
  return ticks.filter((_, index) => index % every === 0);
}

/**
 * An axis title that fits in `room` units: its `shortLabel` when the label,
 * at 12 px bold (no glyph wider than 0.66 em on average), is longer; the
 * route's "Along-track wind (km/h at 10 m)" ran past a 260-unit chart's height.
 */
export function titleThatFits(axis: AxisSpec, room: number): string {
  return axis.shortLabel !== undefined && axis.label.length * 12 * 0.66 > room ? axis.shortLabel : axis.label;
}

const signClass = (series: SeriesSpec, value: number): string =>
  series.bySign ? (value >= 0 ? ' chart-positive' : ' chart-negative') : '';

/**
 * Draws `spec` into `svg`, replacing what it held. The svg gets `role="img"`
 * and is labelled by its title and summary; give it an `id` so the clip
 * paths of a signed area are unique on the page.
 */
export function renderChart(svg: SVGSVGElement, spec: ChartSpec): void {
  const { width, height, plot, domains, x, y } = chartFrame(spec);
  const id = svg.id || 'chart';
  // A last resort only: the y range holds every value (chartDomains), unless a spec fixes it narrower.
  const clampY = (value: number) => Math.min(plot.bottom, Math.max(plot.top, y(value)));
  const zeroY = clampY(0);
  svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-labelledby', `${id}-title${spec.summary ? ` ${id}-desc` : ''}`);
  const parts: SVGElement[] = [node('title', { id: `${id}-title` }, spec.title)];
  if (spec.summary) parts.push(node('desc', { id: `${id}-desc` }, spec.summary));

  for (const band of spec.bands ?? []) {
    const from = Math.max(plot.left, x(band.from));
    const to = Math.min(plot.right, x(band.to));
    if (to <= from) continue;
    const group = node('g', { class: `chart-band chart-band-${band.kind ?? 'plain'}` });
    group.append(
      node('rect', { x: fixed(from), y: plot.top, width: fixed(to - from), height: plot.bottom - plot.top }),
    );
    if (band.showLabel !== false)
      group.append(
        node('text', { x: fixed((from + to) / 2), y: plot.top - 6, class: 'chart-band-label' }, band.label),
      );
    parts.push(group);
  }

  const yTicks = ticksOf(spec.y, domains.y, Y_TICK_COUNT);
  for (const tick of yTicks) {
    const at = fixed(y(tick));
    parts.push(
      node('line', {
        class: tick === 0 ? 'chart-zero' : 'chart-grid',
        x1: plot.left,
        x2: plot.right,
        y1: at,
        y2: at,
      }),
      node('text', { class: 'chart-tick chart-tick-y', x: plot.left - 6, y: at }, formatValue(spec.y, tick)),
    );
  }
  for (const tick of xTicksThatFit(spec, domains.x, plot.right - plot.left)) {
    const at = fixed(x(tick));
    const label = formatValue(spec.x, tick);
    parts.push(
      node('line', { class: 'chart-axis-tick', x1: at, x2: at, y1: plot.bottom, y2: plot.bottom + 4 }),
      node(
        'text',
        { class: `chart-tick chart-tick-x${tickLean(x(tick), label, width)}`, x: at, y: plot.bottom + 16 },
        label,
      ),
    );
  }
  parts.push(
    node('line', { class: 'chart-axis', x1: plot.left, x2: plot.right, y1: plot.bottom, y2: plot.bottom }),
    node(
      'text',
      { class: 'chart-label chart-label-x', x: (plot.left + plot.right) / 2, y: height - 6 },
      titleThatFits(spec.x, plot.right - plot.left),
    ),
    node(
      'text',
      {
        class: 'chart-label chart-label-y',
        transform: `translate(14 ${(plot.top + plot.bottom) / 2}) rotate(-90)`,
      },
      titleThatFits(spec.y, plot.bottom - plot.top),
    ),
  );

  for (const series of spec.series) {
    const group = node('g', {
      class: `chart-series chart-series-${series.kind} chart-series-${series.id}${series.dashed ? ' chart-dashed' : ''}`,
    });
    if (series.kind === 'bars') {
      for (const point of series.points) {
        if (point.y === null) continue;
        const left = x(point.x);
        const right = x(point.xEnd ?? point.x);
        const top = clampY(Math.max(point.y, 0));
        const bottom = clampY(Math.min(point.y, 0));
        group.append(
          node('rect', {
            class: `chart-bar${signClass(series, point.y)}`,
            x: fixed(left + 0.5),
            y: fixed(top),
            width: fixed(Math.max(1, right - left - 1)),
            height: fixed(Math.max(0.5, bottom - top)),
          }),
        );
      }
    } else {
      if (series.kind === 'area') {
        const d = areaPath(series.points, x, clampY, zeroY);
        if (series.bySign) {
          // One area drawn twice, each copy clipped to its side of zero, so the sign shows as colour and place.
          for (const [sign, top, bottom] of [
            ['positive', plot.top, zeroY],
            ['negative', zeroY, plot.bottom],
          ] as const) {
            const clipId = `${id}-${series.id}-${sign}`;
            const clip = node('clipPath', { id: clipId });
            clip.append(
              node('rect', {
                x: plot.left,
                y: fixed(top),
                width: plot.right - plot.left,
                height: fixed(bottom - top),
              }),
            );
            group.append(
              clip,
              node('path', { class: `chart-area chart-${sign}`, d, 'clip-path': `url(#${clipId})` }),
            );
          }
        } else group.append(node('path', { class: 'chart-area', d }));
      }
      group.append(node('path', { class: 'chart-line', d: linePath(series.points, x, clampY) }));
    }
    parts.push(group);
  }

  for (const marker of spec.markers ?? []) {
    const at = x(marker.x);
    if (at < plot.left - 0.5 || at > plot.right + 0.5) continue;
    const group = node('g', { class: `chart-marker chart-marker-${marker.kind ?? 'plain'}` });
    const labelY = marker.y === undefined ? plot.top + 12 : clampY(marker.y) - 10;
    if (marker.y === undefined)
      group.append(node('line', { x1: fixed(at), x2: fixed(at), y1: plot.top, y2: plot.bottom }));
    else group.append(node('circle', { cx: fixed(at), cy: fixed(clampY(marker.y)), r: 5 }));
    // The label stays inside the plot, clear of the y tick labels: after the point where it fits,
    // else before it, else as far left as it fits (on a phone's narrow chart "Peak of the best
    // window", leaning left from a point just past the middle, once ran over the tick labels).
    const wide = tickLabelWidth(marker.label);
    const anchor = at + 8 + wide <= plot.right ? 'start' : at - 8 - wide >= plot.left ? 'end' : 'start';
    const labelX = anchor === 'end' ? at - 8 : Math.max(plot.left + 2, Math.min(at + 8, plot.right - wide));
    group.append(
      node(
        'text',
        {
          class: 'chart-marker-label',
          x: fixed(labelX),
          y: fixed(Math.max(plot.top + 10, labelY)),
          'text-anchor': anchor,
        },
        marker.label,
      ),
    );
    parts.push(group);
  }
  svg.replaceChildren(...parts);
}
