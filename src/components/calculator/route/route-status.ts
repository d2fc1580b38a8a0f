import { byId } from '../../dom/by-id.ts';

/**
 * The route calculator's status line, a live region: what it says is announced to screen readers.
 * `shown: false` keeps the sentence announced but off the screen, for when the page already shows
 * the same words (the forecast's lead sentence), which sighted riders otherwise read twice.
 */
export function setRouteStatus(text: string, shown = true): void {
  const status = byId('route-status');
  status.textContent = text;
  status.classList.toggle('visually-hidden', !shown);
}
