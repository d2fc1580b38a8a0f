import { beforeAll, describe, expect, it } from 'vitest';
import { ensureGazetteer } from '../../scripts/data/gazetteer.ts';
import type { LatLon } from '../../src/core/bearing.ts';
import { createGazetteer, gazetteerRow, lazyGazetteer } from '../../src/data/geocoding/gazetteer.ts';
import type { Geocoder } from '../../src/data/geocoding/types.ts';
import { createSegmentCatalog } from '../../src/data/segments/catalog.ts';
import { loadEmbeddedSegments } from '../../src/data/segments/load.ts';
import type { Segment, SegmentCatalog } from '../../src/data/segments/types.ts';
import type { ToolContext } from '../../src/mcp/context.ts';
import { resolvePlace, TOWN_OUTRANKS_SEGMENT_FROM } from '../../src/service/place.ts';
import { findSegmentByName, passCore } from '../../src/service/segment-by-name.ts';

function segment(id: string, name: string, aliases: string[], countryCode: string, at: LatLon): Segment {
  return {
    id,
    name,
    aliases,
    countryCode,
    polyline: [at, { lat: at.lat + 0.01, lon: at.lon }],
    distanceM: 1200,
    averageGradePct: 7,
    elevationGainM: 84,
    popularityRank: 1,
    source: 'test',
    license: 'CC0-1.0',
    kind: 'climb',
  };
}

const resolve = async (place: string, catalog: SegmentCatalog, geocoder: Geocoder) =>
  (
    await resolvePlace(
      { place } as Parameters<typeof resolvePlace>[0],
      {
        catalog,
        geocoder,
      } as unknown as ToolContext,
    )
  ).place;

describe('a place name that names a segment', () => {
  let embedded: SegmentCatalog;
  let gazetteer: Geocoder;

  beforeAll(async () => {
    await ensureGazetteer();
    embedded = createSegmentCatalog(loadEmbeddedSegments());
    gazetteer = lazyGazetteer();
  });

  it('reads the pass word off either end, or none', () => {
    expect(passCore('passo giau')).toBe('giau');
    expect(passCore('col de la croix de fer')).toBe('croix de fer');
    expect(passCore('stelvio pass')).toBe('stelvio');
    expect(passCore('port d envalira')).toBe('envalira');
    expect(passCore('ordino')).toBeNull();
  });

  it('finds a climb discovered from OpenStreetMap by the named pass at its top', () => {
    const ordino = findSegmentByName("Col d'Ordino", embedded);
    expect(ordino).toMatchObject({ exact: true, segment: { kind: 'climb', countryCode: 'AD' } });
    expect(ordino?.segment.provenance?.osmWayIds.length).toBeGreaterThan(0);
    // Without its pass word, the name is still the pass's.
    expect(findSegmentByName('Envalira', embedded)).toMatchObject({
      exact: false,
      namesTop: true,
      segment: { aliases: ["Port d'Envalira"] },
    });
  });

  it('searches around the top of a climb asked for by its top, around the foot of one asked for whole', async () => {
    // "Port d'Envalira" is the pass, 27 km up from Andorra la Vella; "Alpe d'Huez" is the climb itself.
    const pass = await resolve("Port d'Envalira", embedded, gazetteer);
    expect(pass).toMatchObject({ resolved_by: 'segment' });
    expect(Math.abs(pass.latitude - 42.54)).toBeLessThan(0.01);
    expect(Math.abs(pass.longitude - 1.72)).toBeLessThan(0.01);
    expect(findSegmentByName("Alpe d'Huez", embedded)?.namesTop).toBe(false);
    const alpe = await resolve("Alpe d'Huez", embedded, gazetteer);
    const climb = embedded.get('fr-alpe-d-huez');
    expect([alpe.latitude, alpe.longitude]).toEqual([climb?.polyline[0]?.lat, climb?.polyline[0]?.lon]);
  });

  it('reads a country or region qualifier, keeping only segments there', () => {
    expect(findSegmentByName("Col d'Ordino, Andorra", embedded)?.segment.countryCode).toBe('AD');
    expect(findSegmentByName('Tourmalet, FR', embedded)?.segment.name).toMatch(/Tourmalet/);
    expect(findSegmentByName('Stelvio, Lombardy', embedded)?.segment.countryCode).toBe('IT');
    expect(findSegmentByName('Tourmalet, IT', embedded)).toBeNull();
  });

  it('takes the English or local pass word for the catalog one', () => {
    for (const [query, id] of [
      ['Stelvio Pass', /stelvio/],
      ['Passo Stelvio', /stelvio/],
      ['Passo Giau', /giau/],
      ['Gavia Pass', /gavia/],
    ] as const)
      expect(findSegmentByName(query, embedded)?.segment.id, query).toMatch(id);
  });

  it('resolves there before a smaller namesake abroad, which stays an alternative', async () => {
    const cypress = await resolve('Cypress', embedded, gazetteer);
    expect(cypress).toMatchObject({ resolved_by: 'segment', country_code: 'CA' });
    expect(cypress.alternatives.map((a) => a.name)).toContain('Cypress, US');
  });

  it('yields to a town of that very name large enough to hold it, or of any size when the pass word was changed', async () => {
    // A hand-made gazetteer: a city, a village and a town whose names a climb's alias or core shares.
    const geocoder = createGazetteer([
      gazetteerRow({
        name: 'Bigton',
        countryCode: 'GB',
        lat: 52,
        lon: -1,
        population: TOWN_OUTRANKS_SEGMENT_FROM,
      }),
      gazetteerRow({
        name: 'Smallton',
        countryCode: 'US',
        lat: 40,
        lon: -100,
        population: TOWN_OUTRANKS_SEGMENT_FROM - 1,
      }),
      gazetteerRow({ name: 'Port Vell', countryCode: 'ES', lat: 41, lon: 2, population: 1500 }),
    ]);
    const catalog = createSegmentCatalog([
      segment('fr-bigton', 'Côte de Bigton', ['Bigton'], 'FR', { lat: 45, lon: 6 }),
      segment('fr-smallton', 'Côte de Smallton', ['Smallton'], 'FR', { lat: 45.5, lon: 6 }),
      segment('ad-vell', 'Coll de Vell', ['Vell'], 'AD', { lat: 42.5, lon: 1.5 }),
    ]);
    expect(await resolve('Bigton', catalog, geocoder)).toMatchObject({
      name: 'Bigton, GB',
      resolved_by: 'gazetteer',
    });
    const smallton = await resolve('Smallton', catalog, geocoder);
    expect(smallton).toMatchObject({ name: 'Côte de Smallton', resolved_by: 'segment' });
    expect(smallton.alternatives.map((a) => a.name)).toEqual(['Smallton, US']);
    expect(await resolve('Port Vell', catalog, geocoder)).toMatchObject({ name: 'Port Vell, ES' });
    expect(await resolve('Vell Pass', catalog, geocoder)).toMatchObject({ name: 'Coll de Vell' });
  });
});
