import { describe, expect, it } from 'vitest';
import { OVERPASS_HIGHWAYS, isRideableRoad } from '../../src/core/discovery/rideable-way.ts';

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
