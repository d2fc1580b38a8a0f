import { formatValue, type ChartSpec } from './chart-spec.ts';

/**
 * The chart as rows of text: one row per x value of any series, one column
 * per series, and a "Marked" column naming the bands that cover the row and
 * the markers nearest it. Built from the same {@link ChartSpec} as the
 * drawing, so a screen reader hears what the eye sees.
 */
export interface ChartRows {
  readonly head: readonly string[];
  readonly rows: readonly (readonly string[])[];
}

const NO_DATA = 'no data';

/** The table's text, without the DOM (what {@link fillChartTable} writes, and what tests read). */
export function chartRows(spec: ChartSpec): ChartRows {
  const xs = [...new Set(spec.series.flatMap((s) => s.points.map((p) => p.x)))].sort((a, b) => a - b);
  const ends = new Map<number, number>();
  for (const series of spec.series)
    for (const point of series.points) if (point.xEnd !== undefined) ends.set(point.x, point.xEnd);
  const marked = new Map<number, string[]>();
  for (const marker of spec.markers ?? []) {
    const nearest = xs.reduce<number | undefined>(
      (best, x) => (best === undefined || Math.abs(x - marker.x) < Math.abs(best - marker.x) ? x : best),
      undefined,
    );
    if (nearest !== undefined) marked.set(nearest, [...(marked.get(nearest) ?? []), marker.label]);
  }
  const hasNotes = (spec.bands ?? []).length > 0 || (spec.markers ?? []).length > 0;
  const head = [spec.x.label, ...spec.series.map((s) => s.label), ...(hasNotes ? ['Marked'] : [])];
  const rows = xs.map((x) => {
    const end = ends.get(x);
    const xText =
      end === undefined ? formatValue(spec.x, x) : `${formatValue(spec.x, x)}–${formatValue(spec.x, end)}`;
    const values = spec.series.map((series) => {
      const point = series.points.find((p) => p.x === x);
      return point === undefined || point.y === null ? NO_DATA : formatValue(spec.y, point.y);
    });
    const covering = (spec.bands ?? [])
      .filter((band) => x >= band.from && x < band.to)
      .map((band) => band.label);
    const notes = [...covering, ...(marked.get(x) ?? [])];
    return [xText, ...values, ...(hasNotes ? [notes.join('; ')] : [])];
  });
  return { head, rows };
}

/** Fills a `<table>` (caption, head and body) with {@link chartRows}; the table's own attributes stay. */
export function fillChartTable(table: HTMLTableElement, spec: ChartSpec): void {
  const { head, rows } = chartRows(spec);
  const caption = table.caption ?? table.createCaption();
  caption.textContent = spec.title;
  const headRow = document.createElement('tr');
  for (const text of head) {
    const cell = document.createElement('th');
    cell.scope = 'col';
    cell.textContent = text;
    headRow.append(cell);
  }
  (table.tHead ?? table.createTHead()).replaceChildren(headRow);
  const body = table.tBodies[0] ?? table.createTBody();
  body.replaceChildren(
    ...rows.map((cells) => {
      const row = document.createElement('tr');
      cells.forEach((text, i) => {
        const cell = document.createElement(i === 0 ? 'th' : 'td');
        if (i === 0) cell.setAttribute('scope', 'row');
        cell.textContent = text;
        row.append(cell);
      });
      return row;
    }),
  );
}
