import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { prepareOwnSegment } from '../../src/core/own-segment.ts';
import { asSentence, RouteInputError } from '../../src/core/route/route-error.ts';
import { previewText } from '../../src/components/rider/own-segment-preview.ts';
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

  it('has no loop or out-and-back stretch in the built-in catalog; a climb, hairpins and all, is never a loop', () => {
    // A climb ends higher than it starts: riding it is never coming back to the start, however its hairpins fold.
    const closed = loadEmbeddedSegments().filter(
      (s) => s.kind === 'stretch' && routeShape(s.polyline).shape !== 'point_to_point',
    );
    expect(closed.map((s) => s.id)).toEqual([]);
  });
});

describe('a refusal as the rider reads it', () => {
  it('ends the loop refusal on the settings page with one full stop, not two', () => {
    for (const name of ['loop.gpx', 'out-and-back.geojson']) {
      const preview = previewText(name, fixture(name));
      expect(preview.ok).toBe(false);
      const message = preview.ok ? '' : preview.message;
      expect(message).toMatch(/could never fire/);
      expect(message).toMatch(/[^.]\.$/);
      expect(message).not.toContain('..');
    }
  });

  it('ends a clause with a full stop and leaves a sentence as it is', () => {
    expect(asSentence('The GPX file has no track or route points')).toBe(
      'The GPX file has no track or route points.',
    );
    expect(asSentence('Split it into shorter segments.')).toBe('Split it into shorter segments.');
    expect(asSentence('Really? ')).toBe('Really?');
    expect(previewText('empty.gpx', '<gpx></gpx>')).toMatchObject({
      ok: false,
      message: expect.stringMatching(/route\.$/),
    });
  });
});
