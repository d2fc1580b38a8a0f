import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { prepareOwnSegment } from '../../src/core/own-segment.ts';
import { RouteInputError } from '../../src/core/route/route-error.ts';
import { routeShape } from '../../src/core/route/route-loop.ts';
import { loadEmbeddedSegments } from '../../src/data/segments/load.ts';

const fixture = (name: string): string =>
  readFileSync(fileURLToPath(new URL(`../fixtures/routes/${name}`, import.meta.url)), 'utf8');

function refusal(source: 'gpx' | 'geojson', text: string): RouteInputError {
  try {
    prepareOwnSegment(source, text);
  } catch (error) {
    if (error instanceof RouteInputError) return error;
    throw error;
  }
  throw new Error('stored a closed route');
}

describe('a loop is never an own segment', () => {
  it('refuses a loop and an out-and-back, pointing to the route tools', () => {
    for (const [source, name, words] of [
      ['gpx', 'loop.gpx', 'a loop'],
      ['geojson', 'out-and-back.geojson', 'an out-and-back'],
    ] as const) {
      const error = refusal(source, fixture(name));
      expect(error.code).toBe('closed_route');
      expect(error.message).toContain(words);
      expect(error.message).toMatch(/get_route_wind/);
      expect(error.message).toMatch(/route calculator/);
      expect(error.message).toMatch(/could never fire/);
    }
  });

  it('keeps a one-way climb, switchbacks and all', () => {
    const climb = prepareOwnSegment('gpx', fixture('switchbacks.gpx'));
    expect(climb.distanceM).toBeGreaterThan(0);
  });

  it('has no loop or out-and-back in the built-in catalog: every watched segment can fire', () => {
    const closed = loadEmbeddedSegments().filter((s) => routeShape(s.polyline).shape !== 'point_to_point');
    expect(closed.map((s) => s.id)).toEqual([]);
  });
});
