import type { SegmentForecastInfo, WindUnavailable } from '../../rest/schemas/forecast-result.ts';
import { el } from './dom.ts';

/**
 * The one sentence a page says where the wind cannot be read, told apart as the API tells them
 * (`forecast.unavailable.code`): a server that cannot reach the weather service at all, or a service
 * that is busy until a time, given on the reader's own clock.
 */
export function windUnavailableSentence(unavailable: WindUnavailable): string {
  if (unavailable.code === 'forecast_unreachable') {
    return 'No wind here for now: this server cannot reach the weather service Open-Meteo (no network or DNS), so its operator should check its connection.';
  }
  const at = unavailable.retry_at === null ? null : new Date(unavailable.retry_at);
  const clock = at?.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  return `No wind just now: the weather service Open-Meteo is busy, so try again${clock ? ` at ${clock}` : ' in a few minutes'}.`;
}

/**
 * What the pages say about the forecast under the figures: a visible label
 * when the weather is the synthetic demo (never mistaken for a forecast), a
 * note when it is stale, and every credit line the answer asks to be shown
 * (the forecast's, and OpenStreetMap's ODbL for discovered segments).
 */
export function showForecastNotes(
  labelTarget: HTMLElement,
  creditsTarget: HTMLElement,
  forecast: SegmentForecastInfo,
  attribution: readonly string[],
): void {
  const notes: HTMLElement[] = [];
  if (forecast.unavailable) {
    notes.push(
      el('p', { className: 'wind-unavailable', text: windUnavailableSentence(forecast.unavailable) }),
    );
  }
  if (forecast.demo && !forecast.unavailable) {
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
