/** One figure of a route answer: its test key, its term and its value in words. */
export type Figure = readonly [key: string, term: string, value: string];

/**
 * Fills a `<dl>` with the figures, one `<div>` of `<dt>` and `<dd>` each (the `dd` keyed by
 * `data-figure`), so the typed-wind and forecast answers read and test the same way.
 */
export function renderFigures(list: HTMLElement, figures: readonly Figure[]): void {
  list.replaceChildren(
    ...figures.map(([key, term, value]) => {
      const group = document.createElement('div');
      const dt = document.createElement('dt');
      dt.textContent = term;
      const dd = document.createElement('dd');
      dd.textContent = value;
      dd.dataset['figure'] = key;
      group.append(dt, dd);
      return group;
    }),
  );
}
