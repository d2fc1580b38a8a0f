import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { OsmNode } from '../../src/core/discovery/osm-types.ts';
import { climbName, footPlace, roadLabel, topFeature } from '../../src/core/discovery/segment-name.ts';
import { rankReasons, rankScore } from '../../src/core/discovery/segment-rank.ts';
import { rankOf } from '../../src/data/discovery/discover.ts';
import { areaBBox, areaKeysAround } from '../../src/data/discovery/area-grid.ts';
import { headingWord } from '../../src/data/discovery/discovery-words.ts';

const node = (id: number, lat: number, lon: number, tags: Record<string, string>): OsmNode => ({
  id,
  lat,
  lon,
  tags,
});

describe('naming a discovered climb', () => {
  const top = { lat: 42.5937, lon: 1.5336 };
  const nodes = [
    node(1, 42.5939, 1.5338, { mountain_pass: 'yes', name: "Coll d'Ordino" }),
    node(2, 42.594, 1.535, { natural: 'peak', name: 'Tossal' }),
    node(3, 42.556, 1.533, { place: 'village', name: 'Ordino' }),
    node(4, 42.559, 1.531, { place: 'hamlet', name: 'Sornàs' }),
    node(5, 42.51, 1.52, { place: 'town', name: 'Andorra la Vella' }),
  ];

  it('names the pass at the top and the village at the foot, before a peak or a hamlet', () => {
    const foot = { lat: 42.5565, lon: 1.5325 };
    const name = climbName({
      top: topFeature(top, nodes),
      foot: footPlace(foot, nodes),
      road: 'CG-3',
      topElevationM: 1980,
    });
    expect(name).toBe("Coll d'Ordino from Ordino");
  });

  it('falls back to the road, and to the height when nothing else names it', () => {
    expect(
      climbName({ top: null, foot: null, road: roadLabel('Carretera', 'CS-340'), topElevationM: 1987.4 }),
    ).toBe('CS-340 climb to 1,987 m');
    expect(roadLabel('Carretera de la Rabassa', null)).toBe('Carretera de la Rabassa');
    expect(
      climbName({
        top: null,
        foot: footPlace({ lat: 42.557, lon: 1.532 }, nodes),
        road: 'CG-3',
        topElevationM: 0,
      }),
    ).toBe('CG-3 climb from Ordino');
  });

  it('takes no feature beyond reach', () => {
    expect(topFeature({ lat: 42.7, lon: 1.6 }, nodes)).toBeNull();
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
