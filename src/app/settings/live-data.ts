/**
 * The one switch for real data: `WOS_DATA=live` (or `npm start -- --live`)
 * turns on every live source at once: the real forecast, discovery on
 * demand, the online geocoder, and the ensemble where its terms allow. Each
 * source's own variable (`WOS_FORECAST`, `WOS_DISCOVERY`, `WOS_GEOCODER`,
 * `WOS_ENSEMBLE`) still wins when set, so an operator can run live with one
 * source held back, or demo with one turned on. A Vercel deployment is live
 * unless `WOS_DATA=demo` says otherwise: a deployment is for riders, and a
 * public site serving synthetic weather by default would mislead.
 */
import { setting } from './setting-field.ts';
import { oneOf } from './text-readers.ts';

export const LIVE_DATA_SETTINGS = {
  WOS_DATA: setting<'demo' | 'live' | undefined>({
    group: 'data',
    shownDefault: '`demo`; `live` on Vercel',
    description:
      '`live` turns on every live source below at once (the Open-Meteo forecast, discovery on demand, the Open-Meteo geocoder, and the Open-Meteo ensemble when `OPEN_METEO_API_KEY` is set); `demo` keeps them all offline. Each source’s own variable still wins. `npm start -- --live` sets it',
    accepts: '"demo" or "live"',
    parse: oneOf('demo', 'live'),
    fallback: undefined,
  }),
};

/** Whether the live sources are on by default: `WOS_DATA`, else live on Vercel only. */
export function liveByDefault(v: { WOS_DATA: 'demo' | 'live' | undefined; VERCEL: boolean }): boolean {
  return v.WOS_DATA === undefined ? v.VERCEL : v.WOS_DATA === 'live';
}
