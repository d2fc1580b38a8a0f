import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatGazetteer, readGazetteer } from '../../src/data/geocoding/gazetteer-format.ts';
import { rowArbitrary } from '../support/gazetteer-rows.ts';

/** The places each key names, as the reader must answer them: indices in population order. */
function expectedPostings(text: string): Map<string, number[]> {
  const lines = text.split('\n');
  const [, , places = '0', keys = '0'] = (lines[0] ?? '').split('\t');
  const postings = new Map<string, number[]>();
  for (const line of lines.slice(1 + Number(places), 1 + Number(places) + Number(keys))) {
    const [key = '', list = ''] = line.split('\t');
    postings.set(
      key,
      list.split(',').map((i) => parseInt(i, 36)),
    );
  }
  return postings;
}

describe('the gazetteer file, read as bytes by line offsets', () => {
  it('gives back every place and every key it was written with', () => {
    fc.assert(
      fc.property(
        fc.array(rowArbitrary, { minLength: 1, maxLength: 40 }),
        fc.boolean(),
        fc.boolean(),
        (rows, trailing, asBytes) => {
          const written = formatGazetteer(rows);
          const text = trailing ? written : written.slice(0, -1);
          const index = readGazetteer(asBytes ? new TextEncoder().encode(text) : text);
          const byPopulation = [...rows].sort((a, b) => (b.population ?? -1) - (a.population ?? -1));
          expect(index.placeCount).toBe(rows.length);
          byPopulation.forEach((row, i) => {
            const place = index.place(i);
            expect(place.name).toBe(row.name.replace(/\s+/g, ' '));
            expect(place.countryCode).toBe(row.countryCode);
            expect(place.lat).toBe(Number(row.lat.toFixed(4)));
            expect(place.population).toBe(row.population);
            expect(place.admin1).toBe(row.admin1);
          });
          const postings = expectedPostings(written);
          expect(index.allKeys()).toEqual([...postings.keys()]);
          for (const [key, list] of postings) expect(index.lookup(key)).toEqual(list);
          expect(index.lookup('\u{10FFFF}not a key')).toEqual([]);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('finds every key holding a word at a word start, and only those (property)', () => {
    fc.assert(
      fc.property(
        fc.array(rowArbitrary, { minLength: 1, maxLength: 60 }),
        fc.stringMatching(/^[a-zé' -]{1,3}$/),
        (rows, needle) => {
          const written = formatGazetteer(rows);
          const index = readGazetteer(written);
          const expected = [...expectedPostings(written)]
            .filter(([key]) => key.startsWith(needle) || key.includes(` ${needle}`))
            .map(([key, places]) => ({ key, places }));
          expect(index.keysWithWord(needle, Infinity)).toEqual(expected);
          expect(index.keysWithWord(needle, 1)).toEqual(expected.slice(0, 1));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('refuses a file cut short, a wrong header or negative counts', () => {
    const text = formatGazetteer([
      { name: 'Alpe', countryCode: 'FR', lat: 45, lon: 6, population: 10, keys: ['alpe', 'huez'] },
      { name: 'Bourg', countryCode: 'FR', lat: 45.1, lon: 6.03, population: 3000, keys: ['bourg'] },
    ]);
    const cut = text.split('\n').slice(0, -3).join('\n');
    expect(() => readGazetteer(cut)).toThrow(/not a gazetteer file/);
    expect(() => readGazetteer(text.replace('wos-gazetteer', 'other'))).toThrow(/not a gazetteer file/);
    expect(() => readGazetteer(text.replace(/^([^\t]*\t[^\t]*\t)2/, '$1-2'))).toThrow(/not a gazetteer file/);
    expect(() => readGazetteer('')).toThrow(/not a gazetteer file/);
  });
});
