/** Which geocoder answers place names: the embedded gazetteer or Open-Meteo's (with the key of `forecast.ts`). */
import { openMeteoGeocodingOrigin } from '../../data/open-meteo-endpoints.ts';
import { setting, type SettingValues } from './setting-field.ts';
import { httpUrl, oneOf } from './text-readers.ts';

export const PLACE_SETTINGS = {
  WOS_GEOCODER: setting<'gazetteer' | 'open-meteo' | undefined>({
    group: 'data',
    shownDefault: '`gazetteer`; `open-meteo` when live',
    description: '`gazetteer` (embedded GeoNames) or `open-meteo` (Open-Meteo geocoding)',
    accepts: '"gazetteer" or "open-meteo"',
    parse: oneOf('gazetteer', 'open-meteo'),
    fallback: undefined,
  }),
  WOS_GEOCODER_URL: setting<string | undefined>({
    group: 'data',
    shownDefault: "Open-Meteo's (`customer-geocoding-api` with a key)",
    description: 'Origin of an Open-Meteo geocoding API (it serves `/v1/search`)',
    accepts: 'an http(s) URL',
    parse: httpUrl,
    fallback: undefined,
  }),
};

type PlaceEnvironment = SettingValues<typeof PLACE_SETTINGS>;

/** The geocoder: its own setting, else the one switch's; with Open-Meteo's key (shared with the forecast) and URL. */
export function geocoderOf(v: PlaceEnvironment & { OPEN_METEO_API_KEY: string | undefined }, live: boolean) {
  return {
    source: v.WOS_GEOCODER ?? (live ? 'open-meteo' : 'gazetteer'),
    apiKey: v.OPEN_METEO_API_KEY,
    baseUrl: v.WOS_GEOCODER_URL ?? openMeteoGeocodingOrigin(v.OPEN_METEO_API_KEY),
  };
}
