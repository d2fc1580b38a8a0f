import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  formatGazetteer,
  gazetteerLineStarts,
  readGazetteer,
  type GazetteerIndex,
  type GazetteerRow,
} from '../../src/data/geocoding/gazetteer-format.ts';
import { loadGazetteer } from '../../src/data/geocoding/gazetteer.ts';
import { rowArbitrary } from '../support/gazetteer-rows.ts';

/** Everything an index answers, for comparing two readings of one file. */
function answers(index: GazetteerIndex) {
  const places = Array.from({ length: index.placeCount }, (_, i) => index.place(i));
  const keys = index.allKeys();
  return { places, keys, postings: keys.map((key) => index.lookup(key)) };
}

describe('the gazetteer read with line offsets computed in advance', () => {
  it('answers as the file read alone, and ignores offsets of another file (property)', () => {
    fc.assert(
      fc.property(
        fc.array(rowArbitrary, { minLength: 1, maxLength: 40 }),
        fc.array(rowArbitrary, { minLength: 1, maxLength: 40 }),
        fc.boolean(),
        (rows, otherRows, trailing) => {
          const written = formatGazetteer(rows);
          const bytes = new TextEncoder().encode(trailing ? written : written.slice(0, -1));
          const alone = answers(readGazetteer(bytes));
          expect(answers(readGazetteer(bytes, gazetteerLineStarts(bytes)))).toEqual(alone);
          const other = gazetteerLineStarts(formatGazetteer(otherRows));
          expect(answers(readGazetteer(bytes, other))).toEqual(alone);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('reads lines where the offsets say when they fit the file', () => {
    const rows: GazetteerRow[] = ['Alpe', 'Bourg', 'Vizille', 'Grenoble'].map((name, i) => ({
      name,
      countryCode: 'FR',
      lat: 45 + i / 10,
      lon: 6,
      population: 1000 - i,
      keys: [name.toLowerCase()],
    }));
    const text = formatGazetteer(rows);
    const starts = gazetteerLineStarts(text);
    // Line 1 (the first place) said to start two bytes in: not a sampled line, so the offsets are taken as given.
    const shifted = Uint32Array.from(starts, (start, line) => (line === 1 ? start + 2 : start));
    expect(readGazetteer(text, shifted).place(0).name).toBe('pe');
    expect(readGazetteer(text).place(0).name).toBe('Alpe');
  });

  it('refuses to compute offsets for what is not a gazetteer file', () => {
    expect(() => gazetteerLineStarts('not a gazetteer\n')).toThrow(/not a gazetteer file/);
  });

  it('loads with an offsets file beside it, and without one or with a broken one', async () => {
    const rows: GazetteerRow[] = [
      {
        name: 'Le Bourg-d’Oisans',
        countryCode: 'FR',
        lat: 45.05,
        lon: 6.03,
        population: 3000,
        keys: ['bourg d oisans'],
      },
      { name: 'Vizille', countryCode: 'FR', lat: 45.08, lon: 5.77, population: 7000, keys: ['vizille'] },
    ];
    const dir = mkdtempSync(join(tmpdir(), 'wos-gazetteer-lines-'));
    const text = formatGazetteer(rows);
    const starts = gazetteerLineStarts(text);
    const cases = [
      ['with', new Uint8Array(starts.buffer)],
      ['broken', new Uint8Array([1, 2, 3])],
      ['missing', undefined],
    ] as const;
    for (const [name, lines] of cases) {
      const file = join(dir, `${name}.tsv`);
      writeFileSync(file, text);
      if (lines !== undefined) writeFileSync(`${file}.lines`, lines);
      const geocoder = await loadGazetteer(file, `${file}.lines`);
      const [found] = await geocoder.search('Vizille', 1);
      expect(found?.name, name).toBe('Vizille');
    }
  });
});
