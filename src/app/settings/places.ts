/** Which geocoder answers place names: the embedded gazetteer or Open-Meteo's (with the key of `forecast.ts`). */
import { z } from 'zod';
import { settingField } from './setting-field.ts';
import { oneOf } from './text-readers.ts';

export const PlaceSettingsSchema = z.object({
  WOS_GEOCODER: settingField<'gazetteer' | 'open-meteo'>({
    group: 'data',
    shownDefault: '`gazetteer`',
    description: '`gazetteer` (embedded GeoNames) or `open-meteo` (Open-Meteo geocoding)',
    accepts: '"gazetteer" or "open-meteo"',
    parse: oneOf('gazetteer', 'open-meteo'),
    fallback: 'gazetteer',
  }),
});
