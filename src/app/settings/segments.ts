/** Which segments the service knows: the catalog file and whether more are discovered on demand, from where. */
import { setting, type SettingValues } from './setting-field.ts';
import { anyText, httpUrl, oneOf, wholeNumber } from './text-readers.ts';

export const SEGMENT_SETTINGS = {
  WOS_SEGMENTS_FILE: setting<string | undefined>({
    group: 'data',
    shownDefault: 'embedded catalog',
    description:
      'A packed segment index (`npm run segments:import`) or GeoJSON catalog used instead of the embedded one',
    accepts: 'a file path',
    parse: anyText,
    fallback: undefined,
  }),
  WOS_DISCOVERY: setting<'seed' | 'online' | undefined>({
    group: 'data',
    shownDefault: '`seed`; `online` when live',
    description:
      '`seed` (segments discovered from the shipped OpenStreetMap extracts only, and elevation profiles from the shipped SRTM tiles only, offline) or `online` (a place with too few segments is discovered from Overpass and the elevation API on demand, stored in the rider store; profiles outside the shipped tiles come from the elevation API)',
    accepts: '"seed" or "online"',
    parse: oneOf('seed', 'online'),
    fallback: undefined,
  }),
  WOS_OVERPASS_URL: setting<string>({
    group: 'data',
    shownDefault: '`https://overpass-api.de/api/interpreter`',
    description:
      'Overpass API interpreter that `online` discovery reads roads from (a self-hosted one is welcome)',
    accepts: 'an http(s) URL',
    parse: httpUrl,
    fallback: 'https://overpass-api.de/api/interpreter',
  }),
  WOS_ELEVATION_URL: setting<string>({
    group: 'data',
    shownDefault: '`https://api.open-meteo.com/v1/elevation`',
    description:
      "Open-Meteo's Elevation API (or a server speaking it) that `online` discovery and elevation profiles read heights from",
    accepts: 'an http(s) URL',
    parse: httpUrl,
    fallback: 'https://api.open-meteo.com/v1/elevation',
  }),
  WOS_DISCOVERY_AREAS: setting({
    group: 'data',
    shownDefault: '`512`',
    description:
      'Discovered areas `online` discovery keeps in memory (least recently used go; the store keeps them all)',
    accepts: 'a whole number from 9 to 100000',
    parse: wholeNumber(9, 100_000),
    fallback: 512,
  }),
  WOS_OVERPASS_CONCURRENCY: setting({
    group: 'data',
    shownDefault: '`2`',
    description:
      'Overpass queries in flight at once: per instance, and across all instances when `REDIS_URL` is set',
    accepts: 'a whole number from 1 to 32',
    parse: wholeNumber(1, 32),
    fallback: 2,
  }),
};

type SegmentEnvironment = SettingValues<typeof SEGMENT_SETTINGS>;

/** How segments beyond the catalog are found (its own setting, else the one switch's), as the discovery service takes it. */
export function discoveryOf(v: SegmentEnvironment, live: boolean) {
  return {
    mode: v.WOS_DISCOVERY ?? (live ? 'online' : 'seed'),
    overpassUrl: v.WOS_OVERPASS_URL,
    elevationUrl: v.WOS_ELEVATION_URL,
    areasInMemory: v.WOS_DISCOVERY_AREAS,
    overpassConcurrency: v.WOS_OVERPASS_CONCURRENCY,
  };
}
