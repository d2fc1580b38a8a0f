import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { OsmNode } from '../../src/core/discovery/osm-types.ts';
import {
  climbName,
  destinationOf,
  PlaceIndex,
  placeNamedByStreet,
  placesOf,
  settlementAt,
  skiAreaNear,
  stretchName,
  topPlace,
  withOtherPlaces,
} from '../../src/core/discovery/segment-name.ts';
import { rankReasons, rankScore } from '../../src/core/discovery/segment-rank.ts';
import { rankOf } from '../../src/data/discovery/segment-records.ts';
import { areaBBox, areaKeysAround } from '../../src/data/discovery/area-grid.ts';
import { headingWord } from '../../src/core/discovery/segment-words.ts';

const node = (id: number, lat: number, lon: number, tags: Record<string, string>): OsmNode => ({
  id,
  lat,
  lon,
  tags,
});

describe('naming a discovered climb', () => {
  const top = { lat: 42.5937, lon: 1.5336 };
  const places = new PlaceIndex(
    placesOf([
      node(1, 42.5939, 1.5338, { mountain_pass: 'yes', name: "Coll d'Ordino" }),
      node(2, 42.594, 1.535, { natural: 'peak', name: 'Tossal' }),
      node(3, 42.556, 1.533, { place: 'village', name: 'Ordino' }),
      node(4, 42.559, 1.531, { place: 'hamlet', name: 'Sornàs' }),
      node(5, 42.51, 1.52, { place: 'town', name: 'Andorra la Vella' }),
      node(6, 42.62, 1.48, { sport: 'skiing', name: 'Arcalís' }),
      node(7, 42.5, 1.5, { amenity: 'cafe', name: 'Not a place' }),
    ]),
  );
  const kind = (ref: string | null, name: string | null) => ({
    ref,
    name,
    highway: 'secondary',
    rank: 5,
    link: false,
  });

  it('names the pass at the top and the settlement the climb starts in, nearest in its own size', () => {
    const foot = { lat: 42.5565, lon: 1.5325 };
    const name = climbName({
      top: topPlace(places, top),
      road: kind('CG-3', null),
      foot: settlementAt(places, foot),
      topElevationM: 1980,
    });
    expect(name).toBe("Coll d'Ordino from Ordino");
    // A hamlet 200 m away is where a climb starts; the town 4 km off is not.
    expect(settlementAt(places, { lat: 42.5605, lon: 1.5305 })?.place.name).toBe('Sornàs');
    expect(settlementAt(places, { lat: 42.511, lon: 1.521 })?.place.name).toBe('Andorra la Vella');
  });

  it('takes a ski station at the top, and a peak only where the road reaches it', () => {
    expect(topPlace(places, { lat: 42.6203, lon: 1.4803 })?.place.name).toBe('Arcalís');
    expect(topPlace(places, { lat: 42.5941, lon: 1.535 })?.place.name).toBe("Coll d'Ordino");
    expect(topPlace(places, { lat: 42.7, lon: 1.6 })).toBeNull();
  });

  it('falls back to where the road says it leads, its number, its name, and the height', () => {
    const foot = settlementAt(places, { lat: 42.557, lon: 1.532 });
    expect(
      climbName({ top: null, road: kind('CS-131', 'Carretera de la Rabassa'), foot, topElevationM: 0 }),
    ).toBe('La Rabassa from Ordino');
    expect(climbName({ top: null, road: kind('CS-220', 'Carrer del Cortals'), foot, topElevationM: 0 })).toBe(
      'CS-220 climb from Ordino',
    );
    // …unless the map has the place the street is named after up there, or a ski area its dead end serves.
    expect(
      climbName({
        top: null,
        road: kind('CS-220', 'Carrer del Cortals'),
        foot,
        topElevationM: 0,
        streetPlace: 'Cortals',
      }),
    ).toBe('Cortals from Ordino');
    expect(
      climbName({
        top: null,
        road: kind('CG-3', 'Carretera General'),
        foot,
        topElevationM: 0,
        skiArea: skiAreaNear(places, { lat: 42.6316, lon: 1.4814 }),
      }),
    ).toBe('Arcalís from Ordino');
    // The road's own word for where it leads comes before a ski area's.
    expect(
      climbName({
        top: null,
        road: kind('CS-320', 'Carretera dels Cortals'),
        foot,
        topElevationM: 0,
        skiArea: skiAreaNear(places, { lat: 42.6316, lon: 1.4814 }),
      }),
    ).toBe('Els Cortals from Ordino');
    expect(climbName({ top: null, road: kind(null, 'Carrer Solana'), foot, topElevationM: 0 })).toBe(
      'Carrer Solana climb from Ordino',
    );
    expect(climbName({ top: null, road: kind(null, null), foot: null, topElevationM: 1987.4 })).toBe(
      'Climb to 1,987 m',
    );
    // A village's climb to its own upper houses is not "Ordino from Ordino".
    const ownTop = topPlace(places, { lat: 42.5561, lon: 1.5331 });
    expect(climbName({ top: ownTop, road: kind('CS-340', null), foot, topElevationM: 0 })).toBe(
      'CS-340 climb from Ordino',
    );
  });

  it('reads a street as leading to a place only where the map has that place near the top', () => {
    const withCortals = new PlaceIndex(
      placesOf([node(20, 42.5429, 1.6613, { natural: 'peak', name: 'Cortals' })]),
    );
    const top = { lat: 42.5395, lon: 1.6322 };
    expect(placeNamedByStreet(withCortals, 'Carrer del Cortals', top)).toBe('Cortals');
    expect(placeNamedByStreet(withCortals, 'Carrer dels Cortals', top)).toBe('Cortals');
    expect(placeNamedByStreet(withCortals, 'Carrer de Joan Maragall', top)).toBeNull();
    // 2.4 km is within reach; the same peak 40 km off is not the street's.
    expect(placeNamedByStreet(withCortals, 'Carrer del Cortals', { lat: 42.9, lon: 1.6322 })).toBeNull();
  });

  it('names a dead end by the ski area 2 km off, and nothing by one further', () => {
    expect(skiAreaNear(places, { lat: 42.6316, lon: 1.4814 })?.place.name).toBe('Arcalís');
    expect(skiAreaNear(places, { lat: 42.66, lon: 1.4814 })).toBeNull();
  });

  it('reads where a road leads only from names that say so', () => {
    expect(destinationOf('Carretera de la Comella')).toBe('La Comella');
    expect(destinationOf('Carretera Secundaria de la Rabassa')).toBe('La Rabassa');
    expect(destinationOf("Carretera d'Engolasters")).toBe('Engolasters');
    expect(destinationOf('Carretera dels Cortals')).toBe('Els Cortals');
    expect(destinationOf('Route du Col de la Croix')).toBe('Col de la Croix');
    expect(destinationOf('Carretera General')).toBeNull();
    expect(destinationOf('Carrer de Joan Maragall')).toBeNull();
    expect(destinationOf('Avenue de la Gare')).toBeNull();
  });

  it("adds the place list's towns the map lacks, and keeps the map's own where both name one place", () => {
    const own = placesOf([node(10, 42.5442, 1.5164, { place: 'town', name: 'La Massana' })]);
    const list = [
      { name: 'la Massana', kind: 'town' as const, lat: 42.545, lon: 1.5148, wiki: false },
      { name: 'Pas de la Casa', kind: 'town' as const, lat: 42.5428, lon: 1.7336, wiki: false },
      // Another town of the map's name, far off, is another place.
      { name: 'La Massana', kind: 'village' as const, lat: 41.9, lon: 2.1, wiki: false },
    ];
    expect(withOtherPlaces(own, list).map((p) => `${p.name} ${p.lat}`)).toEqual([
      'La Massana 42.5442',
      'Pas de la Casa 42.5428',
      'La Massana 41.9',
    ]);
  });

  it('names a stretch by its route or road and its ends', () => {
    const bayreuth = {
      place: { name: 'Bayreuth', kind: 'town' as const, lat: 49.94, lon: 11.57, wiki: false },
      distanceM: 0,
    };
    const kulmbach = {
      place: { name: 'Kulmbach', kind: 'town' as const, lat: 50.1, lon: 11.45, wiki: false },
      distanceM: 0,
    };
    expect(stretchName('Main-Radweg', bayreuth, kulmbach, 'northbound')).toBe(
      'Main-Radweg, Bayreuth → Kulmbach',
    );
    expect(stretchName('EV8', bayreuth, bayreuth, 'eastbound')).toBe('EV8, eastbound from Bayreuth');
    expect(stretchName('B2', null, null, 'westbound')).toBe('B2, westbound');
  });
});

describe('ranking discovered segments', () => {
  it('orders by network, then a named pass, then Wikidata, then size, and says why', () => {
    const flat = { network: null, namedPass: false, wiki: false, sizeM: 0 };
    const ranks = [
      { ...flat, network: 'icn' },
      { ...flat, namedPass: true, wiki: true },
      { ...flat, namedPass: true },
      { ...flat, sizeM: 80 },
      flat,
    ].map((basis) => rankOf(rankScore(basis)));
    expect([...ranks].sort((a, b) => a - b)).toEqual(ranks);
    expect(rankReasons({ ...flat, namedPass: true, sizeM: 30 })).toBe('named pass, climb size');
    expect(rankReasons(flat)).toBe('road class');
  });

  it('gives every discovered segment a rank after the hand-traced ones', () => {
    fc.assert(
      fc.property(
        fc.record({
          network: fc.constantFrom(null, 'icn', 'ncn', 'rcn', 'lcn'),
          namedPass: fc.boolean(),
          wiki: fc.boolean(),
          sizeM: fc.double({ min: 0, max: 1e6, noNaN: true }),
        }),
        (basis) => {
          const rank = rankOf(rankScore(basis));
          expect(Number.isInteger(rank)).toBe(true);
          expect(rank).toBeGreaterThanOrEqual(1000);
        },
      ),
    );
  });
});

describe('discovery areas', () => {
  it('covers the search circle with the tiles around it', () => {
    const keys = areaKeysAround({ lat: 42.5063, lon: 1.5218 }, 25_000);
    const boxes = keys.map(areaBBox);
    // Every point 25 km north, south, east and west lies in one of the tiles.
    for (const [dLat, dLon] of [
      [0.224, 0],
      [-0.224, 0],
      [0, 0.303],
      [0, -0.303],
    ] as const) {
      const lat = 42.5063 + dLat;
      const lon = 1.5218 + dLon;
      expect(boxes.some((b) => lat >= b.south && lat < b.north && lon >= b.west && lon < b.east)).toBe(true);
    }
    expect(keys.length).toBeLessThanOrEqual(9);
  });

  it('wraps at the antimeridian and works south of the equator', () => {
    const keys = areaKeysAround({ lat: -16.8, lon: 179.95 }, 10_000);
    const wests = keys.map((key) => areaBBox(key).west);
    expect(wests.some((w) => w < 0)).toBe(true);
    expect(wests.every((w) => w >= -180 && w < 180)).toBe(true);
    expect(keys.every((key) => areaBBox(key).north <= 0)).toBe(true);
  });
});

describe('stretch headings', () => {
  it('say the nearest cardinal direction', () => {
    expect([0, 44, 46, 135, 180, 260, 316, 359].map(headingWord)).toEqual([
      'northbound',
      'northbound',
      'eastbound',
      'southbound',
      'southbound',
      'westbound',
      'northbound',
      'northbound',
    ]);
  });
});
