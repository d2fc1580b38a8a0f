import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  createOpenMeteoGeocoder,
  REGION_SEARCH_COUNT,
} from '../../src/data/geocoding/open-meteo-geocoder.ts';
import type { Place } from '../../src/data/geocoding/types.ts';
import { json, scripted } from '../support/scripted-fetch.ts';

/** Open-Meteo's answer for "Santa Rosa": one in the Philippines, Argentina and three US states. */
const santaRosa = JSON.parse(
  readFileSync(new URL('../fixtures/open-meteo/geocoding-santa-rosa.json', import.meta.url), 'utf8'),
) as { results: { country_code: string }[] };

/**
 * A double that narrows like the API: `countryCode` keeps that country's
 * results, `count` caps them, and a name it does not hold finds nothing.
 */
function openMeteoDouble() {
  return scripted(async (request) => {
    const params = new URL(request.url).searchParams;
    const country = params.get('countryCode');
    const count = Number(params.get('count'));
    if (params.get('name') !== 'Santa Rosa') return json('{"generationtime_ms":0.2}');
    const results = santaRosa.results.filter((r) => country === null || r.country_code === country);
    return json(JSON.stringify(results.length > 0 ? { results: results.slice(0, count) } : {}));
  });
}

function online() {
  const { fetch, requests } = openMeteoDouble();
  const geocoder = createOpenMeteoGeocoder({ fetch: fetch as typeof globalThis.fetch, backoffLimitMs: 1 });
  const params = () => requests.map((r) => Object.fromEntries(new URL(r.url).searchParams));
  return { geocoder, params };
}

const where = (place: Place) => `${place.name}, ${place.region ?? '?'}, ${place.countryCode}`;

describe('Open-Meteo geocoder: region qualifiers', () => {
  it('narrows "Town, Region" by the region the API reports, asking within its country', async () => {
    const { geocoder, params } = online();
    const places = await geocoder.search('Santa Rosa, California', 5);
    expect(places.map(where)).toEqual(['Santa Rosa, California, US', 'Santa Rosa Valley, California, US']);
    // The API has no region filter: the region's country, and as many results as it gives.
    expect(params()).toEqual([
      {
        name: 'Santa Rosa',
        count: String(REGION_SEARCH_COUNT),
        language: 'en',
        format: 'json',
        countryCode: 'US',
      },
    ]);
  });

  it("matches by the region's GeoNames id, or by its name when the id is missing", async () => {
    const { geocoder } = online();
    // Santa Rosa Valley has no admin1_id in the answer; its admin1 name still places it in California.
    expect((await geocoder.search('Santa Rosa, CA', 10)).map(where)).toContain(
      'Santa Rosa Valley, California, US',
    );
    expect((await geocoder.search('Santa Rosa, Kalifornien', 10)).map(where)).toContain(
      'Santa Rosa, California, US',
    );
  });

  it('reads a two-letter code as the country first, then as a region', async () => {
    const { geocoder, params } = online();
    // "CA" is Canada: no Santa Rosa there, so California's is found.
    const places = await geocoder.search('Santa Rosa, CA', 5);
    expect(places.map(where)).toEqual(['Santa Rosa, California, US', 'Santa Rosa Valley, California, US']);
    expect(params().map((p) => p['countryCode'] ?? null)).toEqual(['CA', null]);
  });

  it('takes a country after the region ("Town, Region, CC") and region codes of other countries', async () => {
    const { geocoder } = online();
    expect((await geocoder.search('Santa Rosa, Texas, US', 5)).map(where)).toEqual(['Santa Rosa, Texas, US']);
    expect((await geocoder.search('Santa Rosa, NM', 5)).map(where)).toEqual(['Santa Rosa, New Mexico, US']);
    expect((await geocoder.search('Santa Rosa, La Pampa', 5)).map(where)).toEqual([
      'Santa Rosa, La Pampa, AR',
    ]);
  });

  it('finds nothing in a region the name is not in, and suggests the name elsewhere', async () => {
    const { geocoder } = online();
    expect(await geocoder.search('Santa Rosa, Colorado', 5)).toEqual([]);
    expect(await geocoder.suggest('Santa Rosa, Colorado', 5)).toContain('Santa Rosa, US');
  });

  it('still sends a lone country as countryCode and keeps the limit', async () => {
    const { geocoder, params } = online();
    const places = await geocoder.search('Santa Rosa, Argentina', 5);
    expect(places.map(where)).toEqual(['Santa Rosa, La Pampa, AR']);
    expect(params()[0]).toMatchObject({ countryCode: 'AR', count: '5' });
    expect(await geocoder.search('Santa Rosa', 2)).toHaveLength(2);
  });
});
