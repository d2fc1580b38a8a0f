import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ensureGazetteer } from '../../scripts/data/gazetteer.ts';
import { REGION_TABLE, regionRows } from '../../scripts/data/regions.ts';
import { AREAS } from '../../src/data/geocoding/areas.ts';
import { AREA_OUTRANKS_TOWNS_BELOW, loadGazetteer } from '../../src/data/geocoding/gazetteer.ts';
import { parsePlaceQuery } from '../../src/data/geocoding/qualifier.ts';
import { findRegions, regionOf } from '../../src/data/geocoding/regions.ts';
import type { Geocoder, Place } from '../../src/data/geocoding/types.ts';
import { foldName } from '../../src/data/names.ts';

/** The shared list of places riders type (also used to measure whole answers). */
const CyclingPlacesSchema = z.object({
  places: z
    .array(
      z.object({
        query: z.string().min(1),
        country_code: z.string().regex(/^[A-Z]{2}$/),
        latitude: z.number().min(-90).max(90),
        longitude: z.number().min(-180).max(180),
        tolerance_km: z.number().positive(),
        note: z.string(),
      }),
    )
    .min(40),
});

let gazetteer: Geocoder;
let cyclingPlaces: z.infer<typeof CyclingPlacesSchema>['places'];
/** Town lines of the generated file, as [name, country, lat, lon, population, admin1, names]. */
let towns: string[][];

beforeAll(async () => {
  const path = await ensureGazetteer();
  gazetteer = await loadGazetteer(path);
  const fixture = new URL('../fixtures/places/cycling-places.json', import.meta.url);
  cyclingPlaces = CyclingPlacesSchema.parse(JSON.parse(await readFile(fixture, 'utf8'))).places;
  const lines = (await readFile(path, 'utf8')).split('\n');
  const placeCount = Number(lines[0]?.split('\t')[2]);
  towns = lines
    .slice(1, 1 + placeCount)
    .map((line) => line.split('\t'))
    .filter((fields) => fields[7] === undefined);
});

/** Great-circle distance, km. */
function distanceKm(a: { lat: number; lon: number }, b: { lat: number; lon: number }): number {
  const rad = Math.PI / 180;
  const h =
    Math.sin(((b.lat - a.lat) * rad) / 2) ** 2 +
    Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(((b.lon - a.lon) * rad) / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.sqrt(h));
}

const label = (place: Place | undefined) => (place ? `${place.name}, ${place.countryCode}` : 'nothing');
const first = async (query: string) => (await gazetteer.search(query, 6))[0];

describe('places riders type (tests/fixtures/places/cycling-places.json)', () => {
  it('resolves every one to the place a rider means: right country, within its tolerance', async () => {
    const misses: string[] = [];
    for (const expected of cyclingPlaces) {
      const place = await first(expected.query);
      const where = { lat: expected.latitude, lon: expected.longitude };
      const off = place === undefined ? Infinity : distanceKm(place, where);
      if (place?.countryCode !== expected.country_code || off > expected.tolerance_km) {
        misses.push(`${expected.query} → ${label(place)} (${off.toFixed(0)} km off)`);
      }
    }
    expect(misses).toEqual([]);
  });

  it('covers the cases the list is for', () => {
    const notes = cyclingPlaces.map((place) => place.note).join(' ');
    for (const kind of [
      'region name',
      'region code',
      'island',
      'cycling region',
      'shared name',
      'accent',
      'other script',
    ])
      expect(notes, kind).toContain(kind);
  });
});

describe('"Town, Region"', () => {
  it('reads a first-level region by name, ISO 3166-2 code, full code or local name', async () => {
    const boulder = await first('Boulder, Colorado');
    expect(label(boulder)).toBe('Boulder, US');
    expect(boulder?.region).toBe('Colorado');
    for (const query of [
      'Boulder, CO',
      'boulder, co',
      'Boulder, US-CO',
      'Boulder, Colorado, USA',
      'Boulder,CO',
    ])
      expect(await first(query), query).toEqual(boulder);
    const girona = await first('Girona');
    for (const query of [
      'Girona, Catalonia',
      'Girona, Cataluña',
      'Girona, Catalogne',
      'Girona, CT',
      'Girona, Catalonia, ES',
    ])
      expect(await first(query), query).toEqual(girona);
    expect(girona?.region).toBe('Catalonia');
  });

  it('uses postal-style codes for Canadian provinces and Australian states', async () => {
    expect((await first('Victoria, BC'))?.region).toBe('British Columbia');
    expect((await first('Bright, VIC'))?.region).toBe('Victoria');
    expect((await first('Perth, WA'))?.countryCode).toBe('AU'); // not Washington, not Scotland
    expect((await first('Perth, Scotland'))?.countryCode).toBe('GB');
  });

  it('keeps only places in the region; all of them, not just the first', async () => {
    const inCalifornia = await gazetteer.search('Santa Rosa, California', 10);
    expect(inCalifornia.length).toBeGreaterThan(0);
    expect(inCalifornia.every((place) => place.countryCode === 'US' && place.region === 'California')).toBe(
      true,
    );
    const all = await gazetteer.search('Santa Rosa', 50);
    expect(all.filter((place) => place.region === 'California')).toEqual(inCalifornia);
  });

  it('reads a two-letter code as the country first, then as a region', async () => {
    // "CA": Canada and California; "US": the United States and Ústí (Czechia).
    const london = await gazetteer.search('London, CA', 10);
    expect(label(london[0])).toBe('London, CA');
    expect(london.every((place) => place.countryCode === 'CA' || place.region === 'California')).toBe(true);
    const paris = await gazetteer.search('Paris, US', 5);
    expect(paris.every((place) => place.countryCode === 'US')).toBe(true);
    // Colombia has no Boulder: Colorado's is found.
    expect((await first('Boulder, CO'))?.region).toBe('Colorado');
  });

  it('leaves a last part that is neither country nor first-level region in the name', () => {
    expect(parsePlaceQuery('Annecy, Haute-Savoie')).toEqual({
      name: 'Annecy, Haute-Savoie',
      countries: [],
      regions: [],
    });
    expect(parsePlaceQuery(', Colorado').regions).toEqual([]);
    expect(parsePlaceQuery('Boulder,').regions).toEqual([]);
    const { name, countries, regions } = parsePlaceQuery('Boulder, CO');
    expect(name).toBe('Boulder');
    expect(countries).toEqual(['CO']);
    expect(regions.map((region) => `${region.countryCode}-${region.isoCode}`)).toContain('US-CO');
  });

  it('reads any text without throwing, keeping the name a prefix of the query (property)', () => {
    const part = fc.oneof(
      fc.string({ maxLength: 12 }),
      fc.constantFrom('CO', 'ca', 'Colorado', 'US', ' ', ''),
    );
    fc.assert(
      fc.property(fc.array(part, { maxLength: 4 }), (parts) => {
        const query = parts.join(',');
        const { name, countries, regions } = parsePlaceQuery(query);
        expect(query.startsWith(name)).toBe(true);
        if (countries.length + regions.length === 0) expect(name).toBe(query);
        else expect(name.trim()).not.toBe('');
      }),
      { numRuns: 1000 },
    );
  });

  it('finds any town by "Name, Region" and "Name, Region, CC" (property)', async () => {
    const withRegion = towns.filter(
      ([, countryCode = '', , , , admin1 = '']) => regionOf(countryCode, admin1) !== undefined,
    );
    expect(withRegion.length / towns.length).toBeGreaterThan(0.95);
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: withRegion.length - 1 }), async (i) => {
        const [name = '', countryCode = '', lat = '', lon = '', , admin1 = ''] = withRegion[i] ?? [];
        const region = regionOf(countryCode, admin1);
        if (region === undefined) throw new Error('filtered above');
        const same = (place: Place) =>
          place.name === name && place.lat === Number(lat) && place.lon === Number(lon);
        for (const query of [`${name}, ${region.name}`, `${name}, ${region.name}, ${countryCode}`]) {
          const found = await gazetteer.search(query, 1000);
          expect(found.some(same), query).toBe(true);
          // Nothing outside what the qualifiers name: the countries, or a region of that name.
          const { countries, regions } = parsePlaceQuery(query);
          const inScope = (place: Place) =>
            countries.includes(place.countryCode) ||
            regions.some((r) => r.countryCode === place.countryCode && r.name === place.region);
          expect(found.filter((place) => !inScope(place)).map(label), query).toEqual([]);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('finds every region of the table under each of its names (the build re-indexes it when foldName changes)', () => {
    const lost: string[] = [];
    for (const line of regionRows(readFileSync(REGION_TABLE, 'utf8'))) {
      const [countryCode = '', admin1 = '', , , name = '', others = ''] = line.split('\t');
      const region = regionOf(countryCode, admin1);
      for (const alias of [name, ...others.split('|')].filter((text) => foldName(text) !== '')) {
        if (region === undefined || !findRegions(alias).includes(region))
          lost.push(`${alias} (${countryCode})`);
      }
    }
    expect(lost).toEqual([]);
  });

  it('holds each region under every name and code it lists', () => {
    const [colorado] = findRegions('Colorado', 'US');
    expect(colorado).toMatchObject({ countryCode: 'US', admin1: 'CO', isoCode: 'CO', geonameId: 5417618 });
    expect(regionOf('US', 'CO')).toBe(colorado);
    expect(regionOf('ES', '56')?.name).toBe('Catalonia');
    expect(regionOf('US', 'ZZ')).toBeUndefined();
    expect(regionOf('ZZ', 'CO')).toBeUndefined();
    expect(findRegions('us-co')).toEqual([colorado]);
    expect(findRegions('Colorado', 'FR')).toEqual([]);
    expect(findRegions('Toscana').map((region) => region.name)).toContain('Tuscany');
  });
});

describe('islands and cycling regions', () => {
  it('resolves each to its point, with a radius that reaches every town it is defined by', async () => {
    for (const area of AREAS) {
      const place = await first(area.name);
      expect(place?.name, area.name).toBe(area.name);
      expect(place?.kind).toBe(area.kind);
      const radiusM = place?.radiusM ?? 0;
      expect(radiusM).toBeGreaterThanOrEqual(10_000);
      for (const spec of area.towns) {
        const [townName = ''] = spec.split('/');
        const towns = await gazetteer.search(`${townName}, ${area.countryCode}`, 20);
        // At least one town of that name lies inside (the shared names are told apart at build).
        const inside = towns.some((town) => place && distanceKm(place, town) * 1000 <= radiusM);
        expect(inside, `${area.name}: ${spec}`).toBe(true);
      }
    }
  });

  it('finds them by alias, with "the", in any case', async () => {
    for (const query of ['the Dolomites', 'THE DOLOMITES', 'Dolomiti', 'Majorca', 'Euskadi', 'País Vasco'])
      expect(['island', 'region'], query).toContain((await first(query))?.kind);
    expect(label(await first('the Dolomites'))).toBe('Dolomites, IT');
    expect(label(await first('Majorca'))).toBe('Mallorca, ES');
  });

  it('beats a smaller town of the same name, which stays among the alternatives', async () => {
    const flanders = await gazetteer.search('Flanders', 6);
    expect(label(flanders[0])).toBe('Flanders, BE');
    expect(flanders.slice(1).map(label)).toContain('Flanders, US');
    // The towns of its name: the rest are its parts (see "regions typed alone").
    const beaten = flanders.slice(1).filter((place) => place.kind === undefined && place.name === 'Flanders');
    expect(beaten.length).toBeGreaterThan(0);
    expect(beaten.every((place) => (place.population ?? 0) < AREA_OUTRANKS_TOWNS_BELOW)).toBe(true);
    // Found only by an alternate name, a large city does not beat the island.
    const tenerife = await gazetteer.search('Tenerife', 6);
    expect(label(tenerife[0])).toBe('Tenerife, ES');
    expect(tenerife[0]?.kind).toBe('island');
    expect(tenerife.slice(1).map(label)).toContain('Santa Cruz de Tenerife, ES');
  });

  it('can be narrowed by its region like a town', async () => {
    expect(label(await first('Mallorca, Balearic Islands'))).toBe('Mallorca, ES');
    expect(label(await first('Tenerife, Canary Islands'))).toBe('Tenerife, ES');
  });
});

describe('regions typed alone', () => {
  it('answers a first-level region as a region where its people are, flagged to ask which part', async () => {
    const [andalusia, ...others] = await gazetteer.search('Andalusia', 6);
    expect(andalusia).toMatchObject({
      name: 'Andalusia',
      countryCode: 'ES',
      kind: 'region',
      ambiguous: true,
    });
    // Inside the region (a box around it), and reaching most of it.
    expect(andalusia?.lat).toBeGreaterThan(36.5);
    expect(andalusia?.lat).toBeLessThan(38.5);
    expect(andalusia?.lon).toBeGreaterThan(-7);
    expect(andalusia?.lon).toBeLessThan(-2);
    expect(andalusia?.radiusM).toBeGreaterThanOrEqual(150_000);
    // The town of its name in Alabama first, then its largest towns as the parts to ask about.
    expect(others.map(label)).toContain('Andalusia, US');
    expect(others.map(label)).toContain('Sevilla, ES');
    for (const name of ['Lombardy', 'Lombardia', 'Lombardei'])
      expect(label(await first(name)), name).toBe('Lombardy, IT');
    expect(label(await first("Provence-Alpes-Côte d'Azur"))).toBe("Provence-Alpes-Cote d'Azur, FR");
  });

  it('finds a region of the table typed alone under its GeoNames name, unless a town holds it', async () => {
    // Every 40th region (99): most are answered as themselves; most others by the town of their very
    // name (Tirana, Najrān), a few by an island of areas.ts (Sicily) or a large city by another name;
    // regions where GeoNames has no town of 1,000 people get no row (Crooked Island and Long Cay).
    const rows = regionRows(readFileSync(REGION_TABLE, 'utf8')).filter((_, i) => i % 40 === 0);
    let regions = 0;
    let ownTowns = 0;
    for (const row of rows) {
      const [countryCode = '', , , , name = ''] = row.split('\t');
      const [best] = await gazetteer.search(name, 6);
      if (best?.kind === 'region' && best.countryCode === countryCode) regions += 1;
      else if (best?.kind === undefined && foldName(best?.name ?? '') === foldName(name)) ownTowns += 1;
      expect(best?.kind, `${name} → ${label(best)}`).not.toBe('lake');
    }
    expect(regions / rows.length).toBeGreaterThan(0.5);
    expect((regions + ownTowns) / rows.length).toBeGreaterThan(0.7);
  });

  it('keeps a town before a region of its name: in that region, holding the name, or a city by another name', async () => {
    expect(label(await first('Zug'))).toBe('Zug, CH');
    expect((await first('Zug'))?.kind).toBeUndefined();
    expect(label(await first('Luzern'))).toBe('Luzern, CH');
    expect(label(await first('Luxembourg'))).toBe('Luxembourg, LU');
    expect(label(await first('Hanover'))).toBe('Hannover, DE');
    expect(label(await first('Madrid'))).toBe('Madrid, ES');
  });

  it('offers parts spread over the region, and a hand-kept area its own towns', async () => {
    const [, ...parts] = await gazetteer.search('Catalonia', 6);
    expect(parts.length).toBe(5);
    for (const [i, a] of parts.entries())
      for (const b of parts.slice(i + 1))
        expect(distanceKm(a, b), `${a.name}–${b.name}`).toBeGreaterThanOrEqual(25);
    for (const name of ['Burgundy', 'Picos de Europa', 'Cairngorms', 'Dolomites']) {
      const [area, ...rest] = await gazetteer.search(name, 6);
      const listed = AREAS.find((a) => a.name === name)?.towns.map((spec) => spec.split('/')[0]) ?? [];
      expect(area, name).toMatchObject({ name, kind: 'region', ambiguous: true });
      expect(rest.length, name).toBeGreaterThan(0);
      for (const part of rest) expect(listed, name).toContain(part.name);
    }
  });
});

describe('shared names', () => {
  it('prefers the town whose own name the query spells ("Calpe" → Calp), listing the others', async () => {
    const calpe = await gazetteer.search('Calpe', 6);
    expect(label(calpe[0])).toBe('Calp, ES');
    expect(calpe.slice(1).map(label)).toContain('Gibraltar, GI');
    expect(label(await first('Munich'))).toBe(label(await first('München')));
  });

  it('still ranks exact names by population', async () => {
    const nice = await gazetteer.search('Nice', 6);
    expect(label(nice[0])).toBe('Nice, FR');
    expect(nice.length).toBeGreaterThan(1);
  });
});

describe('accents, case and other scripts', () => {
  it('meets with or without accents and in any case', async () => {
    for (const [plain, accented] of [
      ['Sao Paulo', 'São Paulo'],
      ['Zurich', 'Zürich'],
      ['Bogota', 'BOGOTÁ'],
      ['Pollenca', 'Pollença'],
    ] as const)
      expect(await first(plain), plain).toEqual(await first(accented));
  });

  it('finds cities of 100,000 people or more by their names in other scripts', async () => {
    expect(label(await first('東京'))).toBe(label(await first('Tokyo')));
    expect(label(await first('Москва'))).toBe(label(await first('Moscow')));
    expect(label(await first('Αθήνα'))).toBe(label(await first('Athens')));
  });
});
