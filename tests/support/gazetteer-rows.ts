/** Generated gazetteer rows for the format's property tests (gazetteer-format, gazetteer-line-starts). */
import fc from 'fast-check';
import type { GazetteerRow } from '../../src/data/geocoding/gazetteer-format.ts';

const word = fc.stringMatching(/^[a-zé' -]{1,12}$/);

export const rowArbitrary: fc.Arbitrary<GazetteerRow> = fc.record({
  name: word.map((w) => w.trim() || 'x'),
  countryCode: fc.constantFrom('FR', 'US', 'CH'),
  lat: fc.integer({ min: -900_000, max: 900_000 }).map((v) => v / 10_000),
  lon: fc.integer({ min: -1_800_000, max: 1_800_000 }).map((v) => v / 10_000),
  population: fc.option(fc.nat({ max: 10_000_000 }), { nil: null }),
  admin1: fc.constantFrom('', '01', 'CO'),
  keys: fc.array(word, { minLength: 1, maxLength: 3 }),
});
