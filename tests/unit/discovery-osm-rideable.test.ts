import { describe, expect, it } from 'vitest';
import { OVERPASS_HIGHWAYS, isRideableRoad } from '../../src/core/discovery/rideable-way.ts';
import { selectedAs } from '../../src/core/discovery/osm-selection.ts';

describe('isRideableRoad', () => {
  it.each([
    [{ highway: 'primary' }, true],
    [{ highway: 'secondary', surface: 'asphalt' }, true],
    [{ highway: 'tertiary_link' }, true],
    [{ highway: 'residential', surface: 'paving_stones' }, true],
    [{ highway: 'unclassified', surface: 'sett' }, true],
    [{ highway: 'cycleway' }, true],
    [{ highway: 'track', surface: 'asphalt' }, true],
    [{ highway: 'track', tracktype: 'grade1' }, true],
    [{ highway: 'service', surface: 'concrete' }, true],
    [{ highway: 'tertiary', access: 'no', bicycle: 'yes' }, true],
  ])('rides %j', (tags, expected) => {
    expect(isRideableRoad(tags)).toBe(expected);
  });

  it.each([
    [{ highway: 'motorway' }],
    [{ highway: 'motorway_link', surface: 'asphalt' }],
    [{ highway: 'primary', bicycle: 'no' }],
    [{ highway: 'residential', access: 'private' }],
    [{ highway: 'tertiary', access: 'no' }],
    [{ highway: 'unclassified', surface: 'gravel' }],
    [{ highway: 'secondary', surface: 'dirt' }],
    [{ highway: 'tertiary', surface: 'compacted' }],
    [{ highway: 'residential', surface: 'ground' }],
    [{ highway: 'cycleway', surface: 'unpaved' }],
    [{ highway: 'track' }],
    [{ highway: 'track', tracktype: 'grade3' }],
    [{ highway: 'service' }],
    [{ highway: 'service', service: 'driveway', surface: 'asphalt' }],
    [{ highway: 'pedestrian', area: 'yes' }],
    [{ highway: 'residential', area: 'yes' }],
    [{ highway: 'path', surface: 'asphalt' }],
    [{ highway: 'footway' }],
    [{ name: 'Port d’Envalira' }],
  ])('does not ride %j', (tags) => {
    expect(isRideableRoad(tags)).toBe(false);
  });

  it('asks Overpass for every class it can accept and never for motorways', () => {
    const accepted = OVERPASS_HIGHWAYS.filter((highway) => isRideableRoad({ highway, surface: 'asphalt' }));
    expect(accepted).toEqual(OVERPASS_HIGHWAYS);
    expect(OVERPASS_HIGHWAYS).not.toContain('motorway');
    expect(OVERPASS_HIGHWAYS).not.toContain('motorway_link');
  });
});

describe('selectedAs, the select stage every reader applies', () => {
  it.each([
    ['way', { highway: 'secondary' }, 'road'],
    ['way', { highway: 'footway' }, null],
    ['way', { mountain_pass: 'yes', name: 'Port d’Envalira' }, null],
    ['node', { mountain_pass: 'yes', name: 'Port d’Envalira' }, 'point'],
    ['node', { place: 'village', name: 'Canillo' }, 'point'],
    ['node', { place: 'suburb', name: 'Santa Coloma' }, null],
    ['node', { aerialway: 'station', name: 'Arcalís' }, 'point'],
    ['node', { aerialway: 'station' }, null],
    ['node', { highway: 'secondary' }, null],
    ['relation', { type: 'route', route: 'bicycle', network: 'rcn' }, 'route'],
    ['relation', { type: 'route', route: 'hiking' }, null],
    ['relation', { highway: 'secondary' }, null],
  ] as const)('keeps a %s tagged %j as %s', (type, tags, expected) => {
    expect(selectedAs(type, tags)).toBe(expected);
  });

  it('keeps nothing of an element without tags (a node may still place a road)', () => {
    for (const type of ['node', 'way', 'relation'] as const) expect(selectedAs(type, undefined)).toBeNull();
  });
});
