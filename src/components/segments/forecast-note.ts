import type { ForecastSourceInfo } from '../../rest/schemas/forecast-result.ts';
import { el } from './dom.ts';

/**
 * What the pages say about the forecast under the figures: a visible label
 * when the weather is the synthetic demo (never mistaken for a forecast), a
 * note when it is stale, and every credit line the answer asks to be shown
 * (the forecast's, and OpenStreetMap's ODbL for discovered segments).
 */
export function showForecastNotes(
  labelTarget: HTMLElement,
  creditsTarget: HTMLElement,
  forecast: ForecastSourceInfo,
  attribution: readonly string[],
): void {
  const notes: HTMLElement[] = [];
  if (forecast.demo) {
    notes.push(
      el('p', {
        className: 'demo-label',
        text: 'Demo forecast: this deployment shows synthetic weather for trying the site, not a real forecast.',
      }),
    );
  }
  if (forecast.stale) {
    notes.push(
      el('p', {
        className: 'stale-label',
        text: 'The forecast provider did not answer, so this forecast is older than usual.',
      }),
    );
  }
  labelTarget.replaceChildren(...notes);
  labelTarget.hidden = notes.length === 0;
  const lines = [...new Set([forecast.attribution, ...attribution].filter((line) => line.trim() !== ''))];
  creditsTarget.replaceChildren(...lines.map((line) => el('li', { text: line })));
  creditsTarget.hidden = lines.length === 0;
}
