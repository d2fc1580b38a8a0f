import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createGazetteer, gazetteerRow } from '../../src/data/geocoding/gazetteer.ts';
import {
  CLUSTER_LINK_KM,
  COMMON_WORD_KEYS,
  LAKE_MIN_RADIUS_KM,
  lakeNames,
} from '../../src/data/geocoding/lakes.ts';
import type { Place } from '../../src/data/geocoding/types.ts';
import { foldName } from '../../src/data/names.ts';

const town = (
  name: string,
  countryCode: string,
  lat: number,
  lon: number,
  population: number,
  alternates: string[] = [],
) => gazetteerRow({ name, countryCode, lat, lon, population }, alternates);

/** Great-circle distance, km (haversine), independent of the code under test. */
function km(a: { lat: number; lon: number }, b: { lat: number; lon: number }): number {
  const rad = Math.PI / 180;
  const h =
    Math.sin(((b.lat - a.lat) * rad) / 2) ** 2 +
    Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(((b.lon - a.lon) * rad) / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.sqrt(h));
}

describe('lake queries', () => {
  it('reads the lake name out of the ways riders write a lake', () => {
    expect(lakeNames('lake garda')).toEqual(['garda']);
    expect(lakeNames('lac d annecy')).toEqual(['annecy']);
    expect(lakeNames('lac du bourget')).toEqual(['bourget']);
    expect(lakeNames('lago di como')).toEqual(['como']);
    expect(lakeNames('lake of lucerne')).toEqual(['lucerne']);
    expect(lakeNames('tahoe lake')).toEqual(['tahoe']);
    expect(lakeNames('starnberger see')).toEqual(['starnberger', 'starnberg']);
    expect(lakeNames('bodensee')).toEqual(['bodensee', 'boden']);
    expect(lakeNames('zurichsee')).toEqual(['zurichsee', 'zurich']);
    expect(lakeNames('thunersee')).toEqual(['thunersee', 'thuner', 'thun']);
    for (const notALake of ['garda', 'girona', 'see', 'lake', 'chelsea'])
      expect(lakeNames(notALake)).toEqual([]);
  });

  it('only ever reads a non-empty part of the query (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 30 }),
        fc.constantFrom('', 'lake ', 'lac du ', 'lago di '),
        (text, prefix) => {
          const folded = foldName(prefix + text);
          for (const name of lakeNames(folded)) {
            expect(name.length).toBeGreaterThan(0);
            expect(folded).toContain(name);
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('lakes from the towns that name them', () => {
  const gazetteer = createGazetteer([
    town('Garda', 'IT', 45.5789, 10.7176, 3611),
    town('Riva del Garda', 'IT', 45.8858, 10.8412, 17331),
    town('Desenzano del Garda', 'IT', 45.4713, 10.5356, 22665),
    town('Limone sul Garda', 'IT', 45.8145, 10.7928, 1151),
    // Not on the lake: "garda" starts a longer word, too short a name to read as a compound.
    town('Gardanne', 'FR', 43.4549, 5.4691, 21140),
    town('Genève', 'CH', 46.2022, 6.1457, 183981, ['Geneva']),
    town('Lake Geneva', 'US', 42.5917, -88.4334, 7778),
    town('Lake Forest', 'US', 42.2586, -87.8406, 19408),
    town('Lake Forest', 'US', 33.6469, -117.6892, 82492),
    town('Castel Maggiore', 'IT', 44.5771, 11.3607, 16068),
  ]);
  const first = async (query: string): Promise<Place | undefined> => (await gazetteer.search(query, 5))[0];

  it('places a lake at the mean of its towns, with a radius reaching each', async () => {
    const garda = await first('Lake Garda');
    expect(garda).toMatchObject({ name: 'Lake Garda', countryCode: 'IT', kind: 'lake', population: null });
    const shore = [
      [45.5789, 10.7176],
      [45.8858, 10.8412],
      [45.4713, 10.5356],
      [45.8145, 10.7928],
    ] as const;
    expect(garda?.lat).toBeCloseTo(shore.reduce((sum, [lat]) => sum + lat, 0) / shore.length, 3);
    expect(garda?.lon).toBeCloseTo(shore.reduce((sum, [, lon]) => sum + lon, 0) / shore.length, 3);
    const radiusKm = (garda?.radiusM ?? 0) / 1000;
    expect(radiusKm).toBeGreaterThanOrEqual(LAKE_MIN_RADIUS_KM);
    for (const [lat, lon] of shore)
      expect(km({ lat, lon }, garda ?? { lat: 0, lon: 0 })).toBeLessThan(radiusKm);
    expect((await first('Lago di Garda'))?.kind).toBe('lake');
  });

  it('takes a lake named after a large town over a small town called like the lake', async () => {
    const places = await gazetteer.search('Lake Geneva', 5);
    expect(places[0]).toMatchObject({ countryCode: 'CH', kind: 'lake', ambiguous: true });
    expect(places.slice(1).map((p) => `${p.name}, ${p.countryCode}`)).toContain('Lake Geneva, US');
    // A qualifier keeps the lake to the towns it allows: in the US only the town of that name is left.
    expect(await first('Lake Geneva, CH')).toMatchObject({ countryCode: 'CH', kind: 'lake' });
    expect(await gazetteer.search('Lake Geneva, US', 5)).toMatchObject([
      { name: 'Lake Geneva', countryCode: 'US' },
    ]);
    expect((await first('Lake Geneva, US'))?.kind).toBeUndefined();
  });

  it('leaves towns literally called what was typed as towns, and finds no lake that no town names', async () => {
    const forest = await gazetteer.search('Lake Forest', 5);
    expect(forest.map((p) => p.kind)).toEqual([undefined, undefined]);
    expect(forest[0]?.population).toBe(82492);
    expect(await gazetteer.search('Lago Maggiore', 5)).toEqual([]);
  });

  it('reads no lake out of a common word', async () => {
    const rows = (count: number) => [
      town('Lake Park', 'US', 26.8, -80.07, 8000),
      // "Park" towns beside a town on a lake named Park: one more key than a lake name may have.
      ...Array.from({ length: count }, (_, i) => town(`Park ${i}`, 'US', 26.8 + i / 1000, -80.07, 5000)),
      town('Sul Park', 'US', 26.8, -80.06, 3000, ['Sul Park am Park']),
    ];
    const atCap = createGazetteer(rows(COMMON_WORD_KEYS - 3));
    expect((await atCap.search('Lake Park', 5))[0]?.kind).toBe('lake');
    const common = createGazetteer(rows(COMMON_WORD_KEYS));
    expect((await common.search('Lake Park', 5))[0]).toMatchObject({ name: 'Lake Park', population: 8000 });
    expect((await common.search('Lake Park', 5))[0]?.kind).toBeUndefined();
  });

  it('keeps towns more than the link distance apart in separate lakes', async () => {
    // Two towns "am Testsee" 2 × CLUSTER_LINK_KM apart: the larger one's side wins, alone.
    const apart = createGazetteer([
      town('Nord am Testsee', 'DE', 48, 11, 5000),
      town('Süd am Testsee', 'DE', 48 - (2 * CLUSTER_LINK_KM) / 111, 11, 2000),
    ]);
    const [lake] = await apart.search('Testsee', 5);
    expect(lake).toMatchObject({ kind: 'lake', lat: 48, lon: 11, radiusM: LAKE_MIN_RADIUS_KM * 1000 });
  });
});
