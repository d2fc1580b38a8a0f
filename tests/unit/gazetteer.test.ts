import { readFile } from 'node:fs/promises';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureGazetteer } from '../../scripts/data/gazetteer.ts';
import { boundedEditDistance } from '../../src/core/edit-distance.ts';
import { createFuzzyKeys } from '../../src/data/geocoding/fuzzy-keys.ts';
import {
  createGazetteer,
  gazetteerRow,
  lazyGazetteer,
  loadGazetteer,
  OWN_NAME_HOLDS_FROM,
  type GazetteerRow,
} from '../../src/data/geocoding/gazetteer.ts';
import {
  ALTERNATE_WEIGHT_PER_NAME,
  alternateWeight,
  NAME_WEIGHTS,
  NAMES_COUNT_FROM_POPULATION,
} from '../../src/data/geocoding/name-weight.ts';
import { spelledOut } from '../../src/data/geocoding/spelled-out.ts';
import { foldName } from '../../src/data/names.ts';
import { GeocodingError, type Geocoder, type Place } from '../../src/data/geocoding/types.ts';

let gazetteer: Geocoder;
/** The place lines of the generated file, as [name, country, lat, lon]. */
let placeLines: string[][];

beforeAll(async () => {
  const path = await ensureGazetteer();
  gazetteer = await loadGazetteer(path);
  const lines = (await readFile(path, 'utf8')).split('\n');
  const placeCount = Number(lines[0]?.split('\t')[2]);
  placeLines = lines.slice(1, 1 + placeCount).map((line) => line.split('\t'));
});

const first = async (query: string): Promise<Place | undefined> => (await gazetteer.search(query, 5))[0];
const label = (place: Place | undefined) => (place ? `${place.name}, ${place.countryCode}` : 'nothing');

describe('gazetteer file', () => {
  it('holds the GeoNames places of 1000 people or more, smaller ones named after a lake, largest first, then islands and regions', () => {
    expect(placeLines.length).toBeGreaterThan(100_000);
    const firstArea = placeLines.findIndex((fields) => fields[7] === 'island' || fields[7] === 'region');
    expect(firstArea).toBeGreaterThan(100_000);
    expect(placeLines.slice(firstArea).every((fields) => fields[4] === '' && Number(fields[8]) >= 10)).toBe(
      true,
    );
    const populations = placeLines.slice(0, firstArea).map((fields) => Number(fields[4]));
    expect(populations.every((value, i) => i === 0 || value <= (populations[i - 1] ?? Infinity))).toBe(true);
    const small = placeLines.slice(0, firstArea).filter((fields) => Number(fields[4]) < 1000);
    expect(small.map((fields) => fields[0])).toContain('Tronzano Lago Maggiore');
    expect(small.length).toBeLessThan(1000);
    const lakeWord = /(^| )(lake|lakes|lac|lacs|lago|laghi|lagoa|laguna|loch|lough|see|jezioro|ozero)( |$)/;
    const unnamed = small.filter((fields) => !lakeWord.test(foldName(fields[0] ?? '')));
    expect(unnamed.map((fields) => fields[0])).toEqual([]);
  });

  it('records how many alternate names each place has', async () => {
    const names = (name: string, country: string) =>
      Number(placeLines.find((fields) => fields[0] === name && fields[1] === country)?.[6] ?? 0);
    expect(names('Padova', 'IT')).toBeGreaterThan(10);
    expect(names('Padua', 'CO')).toBeLessThan(names('Padova', 'IT'));
    expect(names('Paris', 'FR')).toBeGreaterThan(names('Paris', 'US'));
  });
});

describe('gazetteer search', () => {
  it('finds Le Bourg-d’Oisans with or without the article, straight or curly apostrophe', async () => {
    for (const query of ["Bourg-d'Oisans", 'Le Bourg d’Oisans', 'LE BOURG D OISANS', 'bourg d oisans']) {
      const place = await first(query);
      expect(label(place), query).toBe("Le Bourg-d'Oisans, FR");
      expect(place?.lat).toBeCloseTo(45.05, 1);
      expect(place?.lon).toBeCloseTo(6.03, 1);
    }
  });

  it('ignores case and accents', async () => {
    expect(label(await first('zurich'))).toBe('Zürich, CH');
    expect(label(await first('ZÜRICH'))).toBe('Zürich, CH');
    expect(label(await first('saint etienne'))).toBe('Saint-Étienne, FR');
  });

  it('finds a place by its alternate names', async () => {
    const [munchen, munich] = await Promise.all([first('München'), first('Munich')]);
    expect(munchen).toEqual(munich);
    expect(munich?.countryCode).toBe('DE');
    expect(label(await first('Den Haag'))).toBe(label(await first('The Hague')));
  });

  it('finds a name with its umlauts or "ñ" spelled out, flagging the town of that very name it passed over', async () => {
    const places = await gazetteer.search('Corunna', 5);
    expect(label(places[0])).toBe('A Coruña, ES');
    expect(places[0]?.ambiguous).toBe(true);
    expect(places.map(label)).toContain('Corunna, CA');
  });

  it('takes an exonym for the city known in many languages, and a qualifier for the namesake', async () => {
    const brunswick = await gazetteer.search('Brunswick', 6);
    expect(label(brunswick[0])).toBe('Braunschweig, DE');
    expect(brunswick[0]?.ambiguous).toBe(true);
    expect(brunswick.map(label)).toContain('Brunswick, US');
    expect(label(await first('Padua'))).toBe('Padova, IT');
    expect(label(await first('Brunswick, US'))).toBe('Brunswick, US');
    expect(label(await first('Brunswick, Ohio'))).toBe('Brunswick, US');
    expect(label(await first('Padua, CO'))).toBe('Padua, CO');
    expect(label(await first('Corunna, Ontario'))).toBe('Corunna, CA');
    expect(label(await first('Corunna, ES'))).toBe('A Coruña, ES');
  });

  it('ranks exact names by population and lists the other Parises after', async () => {
    const places = await gazetteer.search('Paris', 10);
    expect(label(places[0])).toBe('Paris, FR');
    expect(places.map(label)).toContain('Paris, US');
    const populations = places.filter((p) => p.name === 'Paris').map((p) => p.population ?? 0);
    expect(populations).toEqual([...populations].sort((a, b) => b - a));
  });

  it('narrows to a country with a ", CC" qualifier or a country name', async () => {
    const inUs = await gazetteer.search('Paris, US', 10);
    expect(inUs.length).toBeGreaterThan(1);
    expect(inUs.every((place) => place.countryCode === 'US')).toBe(true);
    expect(inUs.slice(0, 3).map((place) => place.name)).toEqual(['Paris', 'Paris', 'Paris']);
    const london = await first('London, CA');
    expect(label(london)).toBe('London, CA');
    expect(london?.lat).toBeCloseTo(42.98, 1);
    expect(await first('london, canada')).toEqual(london);
    expect(label(await first('London, UK'))).toBe('London, GB');
  });

  it('keeps to the limit and returns nothing for blank or unknown names', async () => {
    expect(await gazetteer.search('Paris', 3)).toHaveLength(3);
    expect(await gazetteer.search('Paris', 0)).toEqual([]);
    for (const query of [
      '',
      '   ',
      '-',
      ', FR',
      'Xyzzyqwvbourg',
      'Paris, Nowhereshire',
      'Annecy, Haute-Savoie',
    ]) {
      expect(await gazetteer.search(query, 5), query).toEqual([]);
    }
  });

  it('finds every display name it holds, with or without its country', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: placeLines.length - 1 }), async (index) => {
        const [name = '', countryCode = '', lat = '', lon = ''] = placeLines[index] ?? [];
        const same = (place: Place) =>
          place.name === name &&
          place.countryCode === countryCode &&
          place.lat === Number(lat) &&
          place.lon === Number(lon);
        expect((await gazetteer.search(`${name}, ${countryCode}`, 1000)).some(same)).toBe(true);
        expect(label(await first(name))).not.toBe('nothing');
      }),
      { numRuns: 300 },
    );
  });
});

describe('gazetteer suggestions', () => {
  it('offers close spellings for typos', async () => {
    expect(await gazetteer.suggest("Bourg d'Oisan", 5)).toContain("Le Bourg-d'Oisans, FR");
    expect((await gazetteer.suggest('Grenobel', 5))[0]).toBe('Grenoble, FR');
    expect((await gazetteer.suggest('Amsterdm', 5))[0]).toBe('Amsterdam, NL');
    expect((await gazetteer.suggest('Rrenoble', 5))[0]).toBe('Grenoble, FR');
    expect(await gazetteer.suggest('Grenobel, FR', 5)).toEqual(['Grenoble, FR']);
  });

  it('offers the name before a qualifier that is no country', async () => {
    expect(await gazetteer.suggest('Paris, Texas', 5)).toContain('Paris, US');
    expect(await gazetteer.suggest('Austin, TX', 5)).toContain('Austin, US');
  });

  it('offers the name before a second-level region, which is not understood', async () => {
    expect(await gazetteer.suggest('Annecy, Haute-Savoie', 5)).toContain('Annecy, FR');
  });

  it('offers the name in other countries when the qualifier rules every match out', async () => {
    expect(await gazetteer.search('Boulder, Texas', 5)).toEqual([]);
    expect(await gazetteer.suggest('Boulder, Texas', 5)).toContain('Boulder, US');
    expect(await gazetteer.suggest('Grenoble, Spain', 5)).toContain('Grenoble, FR');
  });

  it('offers nothing for blank input or gibberish, and keeps to the limit', async () => {
    expect(await gazetteer.suggest('  ', 5)).toEqual([]);
    expect(await gazetteer.suggest('Qxqzjvkwq', 5)).toEqual([]);
    expect(await gazetteer.suggest('Lndon', 2)).toHaveLength(2);
  });
});

describe('gazetteer over given rows', () => {
  const place = (name: string, population: number | null): Place => ({
    name,
    countryCode: 'FR',
    lat: 45,
    lon: 6,
    population,
  });
  const rows = [
    gazetteerRow(place('Big City', 1_000_000), ['Springfield']),
    gazetteerRow(place('Springfield', 100)),
    gazetteerRow(place('Le Springfield', 10_000_000)),
    gazetteerRow(place('Col du Galibier', null), ['Galibier']),
  ];
  const small = createGazetteer(rows);
  const names = async (query: string, limit = 10) => (await small.search(query, limit)).map((p) => p.name);

  it('ranks by population times how the name is recorded, then article matches', async () => {
    // Big City (1,000,000) is also called Springfield: 1,000,000 / 20 beats the town of 100 so named.
    expect(await names('springfield')).toEqual(['Big City', 'Springfield', 'Le Springfield']);
    expect(await names('springfield', 2)).toEqual(['Big City', 'Springfield']);
    // A query with an article the places lack: all by population.
    expect(await names('La Springfield')).toEqual(['Big City', 'Springfield']);
  });

  it('weighs an own name 1, a close spelling 1/2 and any other alternate name 1/20', async () => {
    const town = (name: string, population: number, alternates: string[] = []) =>
      gazetteerRow({ ...place(name, population), lat: 40 + population / 1e6 }, alternates);
    const rank = async (rows: GazetteerRow[]) =>
      (await createGazetteer(rows).search('Gerona', 5)).map((p) => p.name);
    // A close spelling twice as large wins; just under twice, the own name keeps its place.
    expect(await rank([town('Gerona', 40_000), town('Girona', 80_002, ['Gerona'])])).toEqual([
      'Girona',
      'Gerona',
    ]);
    expect(await rank([town('Gerona', 40_000), town('Girona', 79_998, ['Gerona'])])).toEqual([
      'Gerona',
      'Girona',
    ]);
    // Another alternate name must be twenty times as large.
    expect(await rank([town('Gerona', 4_000), town('Big', 80_020, ['Gerona'])])).toEqual(['Big', 'Gerona']);
    expect(await rank([town('Gerona', 4_000), town('Big', 79_980, ['Gerona'])])).toEqual(['Gerona', 'Big']);
    // A town of OWN_NAME_HOLDS_FROM people or more keeps its own name against any larger place.
    const held = [town('Gerona', OWN_NAME_HOLDS_FROM), town('Girona', 100 * OWN_NAME_HOLDS_FROM, ['Gerona'])];
    expect(await rank(held)).toEqual(['Gerona', 'Girona']);
    // Each part of a two-language name is an own name.
    expect(await rank([town('Gerona', 4_000), town('Girona / Gerona', 5_000, ['Gerona'])])).toEqual([
      'Girona / Gerona',
      'Gerona',
    ]);
  });

  it('weighs an alternate name by how many names the place has, from 1/20 up to 1/2', async () => {
    const languages = (count: number) => [
      'Brunswick',
      ...Array.from({ length: count - 1 }, (_, i) => `Name ${i}`),
    ];
    const town = (name: string, population: number, alternates: string[] = []) =>
      gazetteerRow({ ...place(name, population), lat: 40 + population / 1e6 }, alternates);
    const rank = async (rows: GazetteerRow[]) =>
      (await createGazetteer(rows).search('Brunswick', 5)).map((p) => p.name);
    const ohio = town('Brunswick', 34_689);
    // 45 names: 45/100 of its population, 110,122, beats the town of that very name.
    expect(await rank([ohio, town('Braunschweig', 244_715, languages(45))])).toEqual([
      'Braunschweig',
      'Brunswick',
    ]);
    // 10 names: 24,472 does not.
    expect(await rank([ohio, town('Braunschweig', 244_715, languages(10))])).toEqual([
      'Brunswick',
      'Braunschweig',
    ]);
    // Few names count 1/20 and many no more than a close spelling, 1/2.
    expect(alternateWeight(0)).toBe(NAME_WEIGHTS.alternate);
    expect(alternateWeight(24)).toBeCloseTo(24 * ALTERNATE_WEIGHT_PER_NAME);
    expect(alternateWeight(300)).toBe(NAME_WEIGHTS.spelling);
    // Only a form of the city's own name, beginning with the same letters: not a district's name.
    const mesa = town('Costa Mesa', 244_715, ['Brunswick', ...languages(45).slice(1)]);
    expect(await rank([ohio, mesa])).toEqual(['Brunswick', 'Costa Mesa']);
    // Below NAMES_COUNT_FROM_POPULATION people the count of names is not weighed.
    expect(alternateWeight(45, NAMES_COUNT_FROM_POPULATION - 1)).toBe(NAME_WEIGHTS.alternate);
    const smaller = town('Braunschweig', NAMES_COUNT_FROM_POPULATION - 1, languages(45));
    expect(await rank([town('Brunswick', 5_100), smaller])).toEqual(['Brunswick', 'Braunschweig']);
  });

  it('keeps the spelled-out form of umlauts and "ñ" as a key', async () => {
    expect(spelledOut('Zürich')).toBe('Zuerich');
    expect(spelledOut('ÖSTERSUND')).toBe('OeSTERSUND');
    expect(spelledOut('A Coruña')).toBe('A Corunna');
    expect(spelledOut('A Coru\u006e\u0303a')).toBe('A Corunna');
    expect(spelledOut('Genève')).toBeNull();
    const rows = [gazetteerRow(place('Zürich', 400_000)), gazetteerRow(place('Logroño', 150_000))];
    const search = async (query: string) => (await createGazetteer(rows).search(query, 5)).map((p) => p.name);
    expect(await search('Zuerich')).toEqual(['Zürich']);
    expect(await search('Zurich')).toEqual(['Zürich']);
    expect(await search('Logronno')).toEqual(['Logroño']);
    expect(await search('Zuerch')).toEqual([]);
  });

  it('flags a first answer with a close rival or won over a town of that very name', async () => {
    const far = (name: string, population: number, lat: number, alternates: string[] = []) =>
      gazetteerRow({ ...place(name, population), lat }, alternates);
    const first = async (rows: GazetteerRow[]) => (await createGazetteer(rows).search('Valencia', 5))[0];
    const close = [far('Valencia', 1_600_000, 10), far('Valencia', 790_000, 39)];
    expect(await first(close)).toMatchObject({ population: 1_600_000, ambiguous: true });
    const clear = [far('Valencia', 1_600_000, 10), far('Valencia', 100_000, 39)];
    expect((await first(clear))?.ambiguous).toBeUndefined();
    // Next door is the same place twice, not a rival.
    expect(
      (await first([far('Valencia', 1_600_000, 10), far('Valencia', 790_000, 10.1)]))?.ambiguous,
    ).toBeUndefined();
    const exonym = [far('Valencia', 5_000, 10), far('Big City', 790_000, 39, ['Valencia'])];
    expect(await first(exonym)).toMatchObject({ name: 'Big City', ambiguous: true });
  });

  it('searches rows without population, such as segments', async () => {
    expect(await small.search('galibier', 5)).toEqual([place('Col du Galibier', null)]);
    expect(await small.suggest('Galiber', 5)).toEqual(['Col du Galibier, FR']);
  });
});

describe('gazetteer loading', () => {
  it('turns a missing file into a GeocodingError an assistant can act on', async () => {
    const missing = new URL('./does-not-exist.tsv', import.meta.url);
    await expect(loadGazetteer(missing)).rejects.toBeInstanceOf(GeocodingError);
    await expect(lazyGazetteer(missing).search('Paris', 1)).rejects.toThrow(/latitude and longitude/);
  });

  it('loads once and shares the result', async () => {
    const path = await ensureGazetteer();
    expect(loadGazetteer(path)).toBe(loadGazetteer(path));
  });
});

/** Plain optimal-string-alignment distance, no cap, no tricks: the reference. */
function referenceDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number) => d[i]?.[j] ?? Infinity;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      let value = Math.min(
        at(i - 1, j) + 1,
        at(i, j - 1) + 1,
        at(i - 1, j - 1) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        value = Math.min(value, at(i - 2, j - 2) + 1);
      (d[i] as number[])[j] = value;
    }
  }
  return at(a.length, b.length);
}

describe('typo matching', () => {
  const word = fc.string({ unit: fc.constantFrom(...'abcdeé z1'), maxLength: 9 });

  it('caps the edit distance exactly like the full computation', () => {
    fc.assert(
      fc.property(word, word, fc.integer({ min: 0, max: 4 }), (a, b, max) => {
        expect(boundedEditDistance(a, b, max)).toBe(Math.min(referenceDistance(a, b), max + 1));
      }),
      { numRuns: 2000 },
    );
  });

  it('counts swapping two neighbours as one edit', () => {
    expect(boundedEditDistance('grenobel', 'grenoble', 2)).toBe(1);
    expect(boundedEditDistance('amsterdm', 'amsterdam', 2)).toBe(1);
  });

  it('loses no key to its cheap filters', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(word, { maxLength: 40 }),
        word,
        fc.integer({ min: 1, max: 3 }),
        (keys, query, max) => {
          const found = createFuzzyKeys(keys)(query, max).map((near) => near.key);
          expect(found.sort()).toEqual(keys.filter((key) => referenceDistance(query, key) <= max).sort());
        },
      ),
      { numRuns: 500 },
    );
  });
});
