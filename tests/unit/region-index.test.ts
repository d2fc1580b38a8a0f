/**
 * The region index: generated at build time from the committed table (admin1-regions.tsv) by
 * scripts/data/regions.ts, read by src/data/geocoding/regions.ts on the first region lookup.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { indexRegions, REGION_TABLE, regionKeys, regionRows } from '../../scripts/data/regions.ts';
import { formatRegionIndex, parseRegionIndex } from '../../src/data/geocoding/region-index.ts';
import { findRegions, REGION_INDEX_PATH, regionOf } from '../../src/data/geocoding/regions.ts';
import { foldName } from '../../src/data/names.ts';

const rows = regionRows(readFileSync(REGION_TABLE, 'utf8'));

describe('the region index', () => {
  it('is the index of the committed table as it is now (the unit lane builds it first)', () => {
    expect(parseRegionIndex(readFileSync(REGION_INDEX_PATH, 'utf8'))).toEqual(indexRegions(rows));
  });

  it('keeps the table sorted by country and admin1 code, one line per region', () => {
    const heads = rows.map((row) => row.split('\t').slice(0, 2).join('\t'));
    expect(heads).toEqual([...heads].sort());
    expect(new Set(heads).size).toBe(rows.length);
    expect(rows.length).toBeGreaterThan(3500);
  });

  it('reads back what it writes, and refuses a truncated file or another version', () => {
    const index = indexRegions(rows.slice(0, 40));
    const text = formatRegionIndex(index);
    expect(parseRegionIndex(text)).toEqual(index);
    expect(() => parseRegionIndex(text.slice(0, text.length / 2))).toThrow(/truncated/);
    expect(() => parseRegionIndex(text.replace(/^wos-regions\t1/, 'wos-regions\t0'))).toThrow(/version/);
  });

  it('sorts keys by code unit and lists each region under every key of its own', () => {
    const { keys } = indexRegions(rows);
    const heads = keys.map((line) => line.slice(0, line.indexOf('\t')));
    expect(heads).toEqual([...heads].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    fc.assert(
      fc.property(fc.integer({ min: 0, max: rows.length - 1 }), (line) => {
        const row = rows[line] ?? '';
        for (const key of regionKeys(row)) {
          const [countryCode = '', admin1 = ''] = row.split('\t');
          expect(findRegions(key)).toContain(regionOf(countryCode, admin1));
        }
      }),
      { numRuns: 200 },
    );
  });

  it('finds a region by name, local name, ISO code and country-prefixed code, across countries', () => {
    const codes = (query: string, country?: string) =>
      findRegions(query, country ?? null).map((region) => `${region.countryCode}-${region.isoCode}`);
    expect(codes('Catalunya')).toEqual(['ES-CT']);
    expect(codes('US-CO')).toEqual(['US-CO']);
    expect(codes('CO')).toEqual(expect.arrayContaining(['US-CO']));
    expect(codes('CO').length).toBeGreaterThan(1);
    expect(codes('CO', 'US')).toEqual(['US-CO']);
    expect(codes('Victoria', 'AU')).toEqual(['AU-VIC']);
    expect(findRegions(foldName('  '))).toEqual([]);
  });
});
