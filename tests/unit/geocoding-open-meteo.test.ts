import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  createOpenMeteoGeocoder,
  type OpenMeteoGeocoderOptions,
} from '../../src/data/geocoding/open-meteo-geocoder.ts';
import { geocoderFromEnv } from '../support/settings.ts';
import { GeocodingError, type GeocodingFailure } from '../../src/data/geocoding/types.ts';
import { json, scripted } from '../support/scripted-fetch.ts';

const fixture = (name: string): string =>
  readFileSync(new URL(`../fixtures/open-meteo/${name}`, import.meta.url), 'utf8');
const paris = fixture('geocoding-paris.json');
const none = fixture('geocoding-none.json');
const rejected = fixture('geocoding-error.json');

function geocoder(fetch: ReturnType<typeof scripted>['fetch'], options: OpenMeteoGeocoderOptions = {}) {
  return createOpenMeteoGeocoder({ fetch: fetch as typeof globalThis.fetch, backoffLimitMs: 1, ...options });
}

async function failure(promise: Promise<unknown>, kind: GeocodingFailure): Promise<GeocodingError> {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(GeocodingError);
  const geocodingError = error as GeocodingError;
  expect(geocodingError.failure).toBe(kind);
  // Written for an assistant: says what to do next.
  expect(geocodingError.message).toMatch(/place search service/);
  expect(geocodingError.message).toMatch(/latitude and longitude/);
  return geocodingError;
}

describe('Open-Meteo geocoder: requests', () => {
  it('asks the free endpoint for the name, count, English names and JSON', async () => {
    const { fetch, requests } = scripted(json(paris));
    await geocoder(fetch).search('Paris', 4);
    const url = new URL(requests[0]?.url ?? '');
    expect(url.origin + url.pathname).toBe('https://geocoding-api.open-meteo.com/v1/search');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      name: 'Paris',
      count: '4',
      language: 'en',
      format: 'json',
    });
  });

  it('turns a ", CC" or country-name qualifier into countryCode', async () => {
    const { fetch, requests } = scripted(json(none));
    const online = geocoder(fetch);
    await online.search('London, Canada', 5);
    await online.search('Paris, us', 5);
    // "US" is also a region code (Ústí in Czechia…): asked, without a country, only when the US had no Paris.
    expect(requests.map((r) => new URL(r.url).searchParams.get('countryCode'))).toEqual(['CA', 'US', null]);
    expect(requests.map((r) => new URL(r.url).searchParams.get('name'))).toEqual([
      'London',
      'Paris',
      'Paris',
    ]);
  });

  it('uses the customer endpoint and apikey when a key is set', async () => {
    const { fetch, requests } = scripted(json(none));
    await geocoder(fetch, { apiKey: 'k-123' }).search('Grenoble', 3);
    const url = new URL(requests[0]?.url ?? '');
    expect(url.host).toBe('customer-geocoding-api.open-meteo.com');
    expect(url.searchParams.get('apikey')).toBe('k-123');
  });

  it('caps count at the API maximum of 100 and sends nothing for a blank query', async () => {
    const { fetch, requests } = scripted(json(none));
    const online = geocoder(fetch);
    expect(await online.search('   ', 5)).toEqual([]);
    expect(await online.search('Paris', 0)).toEqual([]);
    expect(requests).toHaveLength(0);
    await online.search('Paris', 500);
    expect(new URL(requests[0]?.url ?? '').searchParams.get('count')).toBe('100');
  });
});

describe('Open-Meteo geocoder: answers', () => {
  it('maps results to places, exact names first, in the API order otherwise', async () => {
    const { fetch } = scripted(json(paris));
    const places = await geocoder(fetch).search('paris', 10);
    expect(places.map((p) => `${p.name}, ${p.countryCode}`)).toEqual([
      'Paris, FR',
      'Paris, US',
      'Paris, US',
      'Paris 01 Louvre, FR',
    ]);
    expect(places[0]).toEqual({
      name: 'Paris',
      countryCode: 'FR',
      lat: 48.85341,
      lon: 2.3488,
      population: 2138551,
      region: 'Île-de-France',
    });
    expect(places[3]?.population).toBeNull();
  });

  it('respects the limit', async () => {
    const { fetch } = scripted(json(paris));
    expect(await geocoder(fetch).search('Paris', 2)).toHaveLength(2);
  });

  it('reads an absent results field as no match', async () => {
    const { fetch } = scripted(json(none));
    expect(await geocoder(fetch).search('Xyzzyville', 5)).toEqual([]);
  });

  it('drops results without a country code', async () => {
    const body = JSON.stringify({
      results: [{ id: 1, name: 'Atlantic Ocean', latitude: 0, longitude: -30 }],
    });
    const { fetch } = scripted(json(body));
    expect(await geocoder(fetch).search('Atlantic Ocean', 5)).toEqual([]);
  });

  it('suggests only the name before a comma, in any country', async () => {
    const { fetch, requests } = scripted(json(paris));
    const online = geocoder(fetch);
    expect(await online.suggest('Grenobel', 5)).toEqual([]);
    expect(requests).toHaveLength(0);
    expect(await online.suggest('Paris, Texas', 3)).toEqual(['Paris, FR', 'Paris, US']);
    expect(await online.suggest('Paris, TN', 3)).toEqual(['Paris, FR', 'Paris, US']);
    const sent = requests.map((r) => Object.fromEntries(new URL(r.url).searchParams));
    expect(sent.map((params) => [params['name'], params['countryCode']])).toEqual([
      ['Paris', undefined],
      ['Paris', undefined],
    ]);
  });
});

describe('Open-Meteo geocoder: failures', () => {
  it('gives a timeout error when the service never answers', async () => {
    const fetch = (input: Request | string | URL, init?: RequestInit) =>
      new Promise<Response>((_, reject) => {
        const signal = input instanceof Request ? input.signal : init?.signal;
        signal?.addEventListener('abort', () => reject(signal.reason as Error));
      });
    const error = await failure(geocoder(fetch, { timeoutMs: 50 }).search('Paris', 5), 'timeout');
    expect(error.message).toMatch(/did not answer in time/);
  });

  it('retries a 500 twice, then reports an upstream error', async () => {
    const { fetch, requests } = scripted(json('{"error":true,"reason":"boom"}', 500));
    const error = await failure(geocoder(fetch).search('Paris', 5), 'upstream_error');
    expect(error.message).toMatch(/HTTP 500/);
    expect(requests).toHaveLength(3);
  });

  it('retries after a 429 and returns the answer that follows', async () => {
    const { fetch, requests } = scripted(
      json('{"error":true,"reason":"busy"}', 429, { 'retry-after': '0' }),
      json(paris),
    );
    const places = await geocoder(fetch).search('Paris', 1);
    expect(places.map((p) => p.countryCode)).toEqual(['FR']);
    expect(requests).toHaveLength(2);
  });

  it('reports rate limiting when 429 persists', async () => {
    const { fetch } = scripted(json('{"error":true,"reason":"busy"}', 429, { 'retry-after': '0' }));
    await failure(geocoder(fetch).search('Paris', 5), 'rate_limited');
  });

  it('passes on the reason of a 400 without retrying', async () => {
    const { fetch, requests } = scripted(json(rejected, 400));
    const error = await failure(geocoder(fetch).search('Paris', 5), 'rejected');
    expect(error.message).toContain("Parameter 'count' must be between 1 and 100");
    expect(requests).toHaveLength(1);
  });

  it('reports malformed JSON and bodies of the wrong shape', async () => {
    await failure(geocoder(scripted(json('{"results": [')).fetch).search('Paris', 5), 'malformed');
    const wrong = JSON.stringify({ results: [{ id: 1, name: 'Paris', latitude: '48.8' }] });
    await failure(geocoder(scripted(json(wrong)).fetch).search('Paris', 5), 'malformed');
  });

  it('reports a network failure', async () => {
    const fetch = async (): Promise<Response> => {
      throw new TypeError('fetch failed');
    };
    await failure(geocoder(fetch).search('Paris', 5), 'network');
  });
});

describe('geocoderFromEnv', () => {
  it('defaults to the offline gazetteer and accepts open-meteo', () => {
    expect(geocoderFromEnv({}).id).toBe('gazetteer');
    expect(geocoderFromEnv({ WOS_GEOCODER: '' }).id).toBe('gazetteer');
    expect(geocoderFromEnv({ WOS_GEOCODER: 'open-meteo', OPEN_METEO_API_KEY: 'k' }).id).toBe('open-meteo');
  });

  it('rejects an unknown choice loudly', () => {
    expect(() => geocoderFromEnv({ WOS_GEOCODER: 'google' })).toThrow(/gazetteer.*open-meteo/);
  });
});
