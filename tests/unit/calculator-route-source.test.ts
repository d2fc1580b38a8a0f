import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readRouteText } from '../../src/components/calculator/route/route-source.ts';
import { parseGeoJsonLine } from '../../src/core/route/geojson-line.ts';
import { parseGpx } from '../../src/core/route/gpx.ts';
import { RouteInputError } from '../../src/core/route/route-error.ts';
import { parsePointList } from '../../src/core/route/route-input.ts';
import { MAX_ROUTE_BYTES } from '../../src/core/route/route-limits.ts';

const fixture = (name: string) =>
  readFileSync(new URL(`../fixtures/routes/${name}`, import.meta.url), 'utf8');

function problem(text: string): RouteInputError {
  try {
    readRouteText(text);
  } catch (error) {
    if (error instanceof RouteInputError) return error;
    throw error;
  }
  throw new Error('expected a RouteInputError');
}

describe('reading a route the rider gave as text', () => {
  it('reads GPX and GeoJSON with the core readers, a byte order mark and leading space ignored', () => {
    const gpx = fixture('switchbacks.gpx');
    expect(readRouteText(`\uFEFF \n${gpx}`)).toEqual(parseGpx(gpx));
    const geojson = fixture('out-and-back.geojson');
    expect(readRouteText(`  ${geojson}`)).toEqual(parseGeoJsonLine(geojson));
  });

  it('reads a JSON list of points with the core point reader', () => {
    const points = [
      { lat: 45.1, lon: 6.1 },
      { lat: 45.2, lon: 6.2, ele: 900 },
    ];
    expect(readRouteText(JSON.stringify(points))).toEqual(parsePointList(points));
    expect(problem('[{"lat": 45, "lon": 6},').code).toBe('not_geojson');
  });

  it('reads lat, lon lines with any of the separators, skipping blank lines and comments', () => {
    const latLon = fc.record({
      lat: fc.double({ min: -89, max: 89, noNaN: true }).map((v) => Math.round(v * 1e5) / 1e5),
      lon: fc.double({ min: -179, max: 179, noNaN: true }).map((v) => Math.round(v * 1e5) / 1e5),
    });
    const separator = fc.constantFrom(',', ', ', ';', ' ; ', '\t', ' ', '   ');
    fc.assert(
      fc.property(
        fc.array(fc.tuple(latLon, separator, fc.boolean()), { minLength: 2, maxLength: 30 }),
        (rows) => {
          const points = rows.map(([point]) => point);
          let expected;
          try {
            expected = parsePointList(points);
          } catch {
            return; // all at one place: the core's own refusal, tested with the core
          }
          const text = rows
            .map(([p, sep, noted]) => `${p.lat}${sep}${p.lon}${noted ? '  # noted\n' : '\n'}`)
            .join('\r\n');
          expect(readRouteText(text)).toEqual(expected);
        },
      ),
    );
  });

  it('names the line that is not a latitude, longitude pair', () => {
    const error = problem('45.1, 6.1\n\n45.2 6.2 7\n');
    expect(error.code).toBe('bad_coordinate');
    expect(error.line).toBe(3);
    expect(error.message).toBe('Line 3 is not a "latitude, longitude" pair: "45.2 6.2 7"');
    // Numbers are read with the API's strict grammar: no hex, no "1e", no comma decimals.
    expect(problem('45,1 6,1\n45.2, 6.2').line).toBe(1);
    expect(problem('0x2d, 6\n45, 6').line).toBe(1);
  });

  it('refuses empty text and text over the size limit before reading it', () => {
    expect(problem('  \n\t').code).toBe('no_points');
    expect(problem('').message).toBe('The route is empty: there is nothing to read');
    expect(problem(`${'1, 2\n'.repeat(MAX_ROUTE_BYTES / 5)}x`).code).toBe('too_large');
  });
});
