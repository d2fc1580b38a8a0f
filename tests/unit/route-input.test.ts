import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { greatCircleM } from '../../src/core/distance.ts';
import { parseGeoJsonLine } from '../../src/core/route/geojson-line.ts';
import { parseGpx } from '../../src/core/route/gpx.ts';
import { RouteInputError, type RouteInputErrorCode } from '../../src/core/route/route-error.ts';
import { parsePointList } from '../../src/core/route/route-input.ts';
import { MAX_ROUTE_BYTES, MAX_ROUTE_POINTS } from '../../src/core/route/route-limits.ts';

const FIXTURES = fileURLToPath(new URL('../fixtures/routes/', import.meta.url));
const fixture = (name: string): string => readFileSync(`${FIXTURES}${name}`, 'utf8');

const gpxOf = (points: string): string =>
  `<?xml version="1.0"?>\n<gpx version="1.1"><trk><name>T</name><trkseg>\n${points}\n</trkseg></trk></gpx>`;
const trkpt = (lat: number, lon: number, ele?: number): string =>
  ele === undefined
    ? `<trkpt lat="${lat}" lon="${lon}"/>`
    : `<trkpt lat="${lat}" lon="${lon}"><ele>${ele}</ele></trkpt>`;

function failure(read: () => unknown): RouteInputError {
  try {
    read();
  } catch (error) {
    if (error instanceof RouteInputError) return error;
    throw error;
  }
  throw new Error('expected a RouteInputError, got a route');
}

describe('route readers on real-world shapes', () => {
  it('reads a switchback climb with names and full elevation', () => {
    const route = parseGpx(fixture('switchbacks.gpx'));
    expect(route.name).toBe('Hairpin climb');
    expect(route.points.length).toBeGreaterThan(600);
    expect(route.elevationCoverage).toBe(1);
    expect(route.duplicatesDropped).toBe(0);
  });

  it('says how much of a loop lacks elevation', () => {
    const route = parseGpx(fixture('loop.gpx'));
    expect(route.points.filter((p) => p.ele === undefined)).toHaveLength(120);
    // 120 points without elevation break 121 legs of 1,600.
    expect(route.elevationCoverage).toBeGreaterThan(0.9);
    expect(route.elevationCoverage).toBeLessThan(0.95);
  });

  it('reads a GeoJSON Feature with elevations and its name', () => {
    const route = parseGeoJsonLine(JSON.parse(fixture('out-and-back.geojson')));
    expect(route.name).toBe('Valley out and back');
    expect(route.points[0]).toEqual(route.points.at(-1));
    expect(route.elevationCoverage).toBe(1);
  });

  it('reads the one line of a FeatureCollection beside a marker, from text too', () => {
    const text = fixture('southern.geojson');
    const route = parseGeoJsonLine(text);
    expect(route).toEqual(parseGeoJsonLine(JSON.parse(text)));
    expect(route.name).toBe('Coastal drive');
    expect(route.points.every((p) => p.lat < -33)).toBe(true);
    expect(route.elevationCoverage).toBe(0);
  });

  it('keeps a route across the antimeridian in metres, not the way round the world', () => {
    const route = parseGpx(fixture('antimeridian.gpx'));
    const steps = route.points.slice(1).map((p, i) => greatCircleM(route.points[i] ?? p, p));
    expect(Math.max(...steps)).toBeLessThan(30);
    expect(route.points.some((p) => p.lon > 179.9)).toBe(true);
    expect(route.points.some((p) => p.lon < -179.9)).toBe(true);
  });

  it('reads a point list, keeping elevations where given', () => {
    const route = parsePointList([
      { lat: 45, lon: 6, ele: 100 },
      { lat: 45.01, lon: 6 },
      { lat: 45.02, lon: 6, ele: 120 },
    ]);
    expect(route.points).toEqual([
      { lat: 45, lon: 6, ele: 100 },
      { lat: 45.01, lon: 6 },
      { lat: 45.02, lon: 6, ele: 120 },
    ]);
    expect(route.elevationCoverage).toBe(0);
  });
});

describe('duplicates', () => {
  it('drops consecutive duplicates, keeping an elevation only the twin carried', () => {
    const route = parseGpx(
      gpxOf([trkpt(1, 2), trkpt(1, 2, 50), trkpt(1, 2), trkpt(1.01, 2, 60), trkpt(1, 2, 70)].join('')),
    );
    expect(route.points).toEqual([
      { lat: 1, lon: 2, ele: 50 },
      { lat: 1.01, lon: 2, ele: 60 },
      { lat: 1, lon: 2, ele: 70 },
    ]);
    expect(route.duplicatesDropped).toBe(2);
    expect(route.elevationCoverage).toBe(1);
  });

  it('never leaves two consecutive points at the same place (property)', () => {
    const coordinate = fc.record({
      lat: fc.integer({ min: -3, max: 3 }),
      lon: fc.integer({ min: -3, max: 3 }),
    });
    fc.assert(
      fc.property(fc.array(coordinate, { minLength: 2, maxLength: 40 }), (raw) => {
        const points = raw.map(({ lat, lon }) => ({ lat: lat / 100, lon: lon / 100 }));
        let route;
        try {
          route = parsePointList(points);
        } catch (error) {
          expect(error).toBeInstanceOf(RouteInputError);
          expect((error as RouteInputError).code).toBe('zero_length');
          return;
        }
        route.points.slice(1).forEach((p, i) => expect(p).not.toEqual(route.points[i]));
        expect(route.points.length + route.duplicatesDropped).toBe(points.length);
      }),
    );
  });
});

/** The hostile-file table: every entry names its problem with a stable code. */
const HOSTILE: readonly { what: string; read: () => unknown; code: RouteInputErrorCode; message: RegExp }[] =
  [
    {
      what: 'entity expansion (billion laughs)',
      read: () =>
        parseGpx(
          `<?xml version="1.0"?>\n<!DOCTYPE gpx [\n <!ENTITY lol "lol">\n <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">\n]>\n<gpx><trk><name>&lol2;</name><trkseg>${trkpt(1, 2)}${trkpt(1.1, 2)}</trkseg></trk></gpx>`,
        ),
      code: 'xml_entities',
      message: /declares a DOCTYPE on line 2/,
    },
    {
      what: 'external entity',
      read: () => parseGpx(`<!ENTITY xxe SYSTEM "file:///etc/passwd">${gpxOf(trkpt(1, 2) + trkpt(1.1, 2))}`),
      code: 'xml_entities',
      message: /declares an ENTITY on line 1/,
    },
    {
      what: 'a 10 MB file',
      read: () => parseGpx(gpxOf(`${trkpt(1, 2)}<!--${'x'.repeat(10 * 1024 * 1024)}-->${trkpt(1.1, 2)}`)),
      code: 'too_large',
      message: /larger than the 5 MB/,
    },
    {
      what: 'a 10 MB GeoJSON text',
      read: () => parseGeoJsonLine(' '.repeat(10 * 1024 * 1024)),
      code: 'too_large',
      message: /GeoJSON is larger than the 5 MB/,
    },
    {
      what: 'too many points',
      read: () =>
        parseGpx(gpxOf(Array.from({ length: MAX_ROUTE_POINTS + 1 }, (_, i) => trkpt(i / 1e5, 0)).join(''))),
      code: 'too_many_points',
      message: /50,001 points; at most 50,000/,
    },
    {
      what: 'too many positions in GeoJSON',
      read: () =>
        parseGeoJsonLine({
          type: 'LineString',
          coordinates: Array.from({ length: MAX_ROUTE_POINTS + 1 }, (_, i) => [0, i / 1e5]),
        }),
      code: 'too_many_points',
      message: /GeoJSON line has 50,001 points/,
    },
    { what: 'empty text', read: () => parseGpx('   \n'), code: 'not_gpx', message: /empty/ },
    {
      what: 'JSON sent as GPX',
      read: () => parseGpx('{"type":"LineString"}'),
      code: 'not_gpx',
      message: /looks like JSON/,
    },
    {
      what: 'XML that is not GPX',
      read: () => parseGpx('<kml><Placemark/></kml>'),
      code: 'not_gpx',
      message: /no <gpx> element/,
    },
    {
      what: 'a tag cut off',
      read: () => parseGpx(`<gpx><trk><trkseg>\n${trkpt(1, 2)}\n<trkpt lat="1.1" lon="2"`),
      code: 'malformed_xml',
      message: /a tag opened on line 3 is never closed/,
    },
    {
      what: 'a comment never closed',
      read: () => parseGpx(`<gpx><!-- ${trkpt(1, 2)}${trkpt(1.1, 2)}`),
      code: 'malformed_xml',
      message: /a comment opened on line 1/,
    },
    {
      what: 'only waypoints',
      read: () => parseGpx('<gpx><wpt lat="1" lon="2"/></gpx>'),
      code: 'no_points',
      message: /waypoints alone/,
    },
    {
      what: 'one point',
      read: () => parseGpx(gpxOf(trkpt(1, 2))),
      code: 'one_point',
      message: /has 1 point; a route needs at least 2/,
    },
    {
      what: 'zero length (every point the same)',
      read: () => parseGpx(gpxOf(trkpt(1, 2) + trkpt(1, 2) + trkpt(1.000001, 2))),
      code: 'zero_length',
      message: /3 points, all at the same place/,
    },
    {
      what: 'a latitude out of range, with its line',
      read: () => parseGpx(gpxOf(`${trkpt(1, 2)}\n${trkpt(95.5, 2)}`)),
      code: 'bad_coordinate',
      message: /GPX trkpt 2 has an invalid lat "95\.5" on line 4: it must be a number from -90 to 90/,
    },
    {
      what: 'a missing longitude',
      read: () => parseGpx('<gpx><rte><rtept lat="1"/><rtept lat="1" lon="2"/></rte></gpx>'),
      code: 'bad_coordinate',
      message: /GPX rtept 1 has no lon attribute on line 1/,
    },
    {
      what: 'a longitude past 180',
      read: () =>
        parsePointList([
          { lat: 1, lon: 2 },
          { lat: 1, lon: 181 },
        ]),
      code: 'bad_coordinate',
      message: /Point 2 has an invalid lon 181/,
    },
    {
      what: 'a point list that is not a list',
      read: () => parsePointList('1,2'),
      code: 'no_points',
      message: /must be a list/,
    },
    {
      what: 'a point that is not an object',
      read: () => parsePointList([{ lat: 1, lon: 2 }, 3]),
      code: 'bad_coordinate',
      message: /Point 2 is not/,
    },
    {
      what: 'a route longer than 1,000 km',
      read: () =>
        parsePointList([
          { lat: 0, lon: 0 },
          { lat: 10, lon: 0 },
        ]),
      code: 'too_long',
      message: /1,112 km long; routes of up to 1,000 km/,
    },
    {
      what: 'a MultiLineString',
      read: () =>
        parseGeoJsonLine({
          type: 'MultiLineString',
          coordinates: [
            [
              [0, 0],
              [0, 1],
            ],
          ],
        }),
      code: 'several_lines',
      message: /MultiLineString; send the ride as one LineString/,
    },
    {
      what: 'two lines in a collection',
      read: () =>
        parseGeoJsonLine({
          type: 'FeatureCollection',
          features: [0, 1].map(() => ({
            type: 'Feature',
            properties: {},
            geometry: {
              type: 'LineString',
              coordinates: [
                [0, 0],
                [0, 1],
              ],
            },
          })),
        }),
      code: 'several_lines',
      message: /holds 2 line features/,
    },
    {
      what: 'a GeoJSON Point',
      read: () => parseGeoJsonLine({ type: 'Feature', geometry: { type: 'Point', coordinates: [0, 0] } }),
      code: 'not_geojson',
      message: /geometry is a Point/,
    },
    {
      what: 'invalid JSON',
      read: () => parseGeoJsonLine('{"type": "LineString",'),
      code: 'not_geojson',
      message: /not valid JSON/,
    },
    {
      what: 'a bare number',
      read: () => parseGeoJsonLine(42),
      code: 'not_geojson',
      message: /must be an object/,
    },
    {
      what: 'a position that is not a pair',
      read: () => parseGeoJsonLine({ type: 'LineString', coordinates: [[0, 0], [1]] }),
      code: 'bad_coordinate',
      message: /GeoJSON position 2 is not a \[lon, lat\] pair/,
    },
    {
      what: 'a string coordinate in GeoJSON',
      read: () =>
        parseGeoJsonLine({
          type: 'LineString',
          coordinates: [
            [0, 0],
            [1, 'north'],
          ],
        }),
      code: 'bad_coordinate',
      message: /GeoJSON position 2 has an invalid lat "north"/,
    },
  ];

describe('hostile and broken input', () => {
  it.each(HOSTILE)('$what → $code', ({ read, code, message }) => {
    const error = failure(read);
    expect(error.code).toBe(code);
    expect(error.message).toMatch(message);
  });

  it('decodes only the predefined entities and character references, never declared ones', () => {
    const text = `<gpx><trk><name>A &amp; B &#233;&#x20AC; &lol;</name><trkseg>${trkpt(1, 2)}${trkpt(1.1, 2)}</trkseg></trk></gpx>`;
    expect(parseGpx(text).name).toBe('A & B é€ &lol;');
  });

  it('reads a point whose end tag is missing once, and CDATA names', () => {
    const text = `<gpx><trk><name><![CDATA[R&D <loop>]]></name><trkseg><trkpt lat="1" lon="2"><ele>5</ele><trkpt lat="1.1" lon="2"></trkpt></trkseg></trk></gpx>`;
    const route = parseGpx(text);
    expect(route.name).toBe('R&D <loop>');
    expect(route.points).toEqual([
      { lat: 1, lon: 2, ele: 5 },
      { lat: 1.1, lon: 2 },
    ]);
  });

  it('stays linear on pathological markup (no backtracking): 4 MB of unclosed points', () => {
    const text = `<gpx><trk><trkseg>${'<trkpt lat="1" lon="2"><ele>'.repeat((4 * 1024 * 1024) / 30)}`;
    expect(text.length).toBeLessThan(MAX_ROUTE_BYTES);
    const started = performance.now();
    expect(failure(() => parseGpx(text)).code).toBe('too_many_points');
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it('never throws anything but RouteInputError on arbitrary text (property)', () => {
    const fragments = fc.constantFrom(
      '<gpx>',
      '<trkpt lat="1" lon="2">',
      '</trkpt>',
      '<ele>',
      '3',
      '</ele>',
      '<!--',
      '-->',
      '<![CDATA[',
      ']]>',
      '<!DOCTYPE',
      '<',
      '>',
      '&amp;',
      '<rtept lat="x"/>',
      '<trkpt lon="2" lat="1.5"/>',
      '<name>',
      '</name>',
      '<trk>',
    );
    fc.assert(
      fc.property(fc.array(fc.oneof(fragments, fc.string()), { maxLength: 30 }), (parts) => {
        try {
          const route = parseGpx(parts.join(''));
          expect(route.points.length).toBeGreaterThanOrEqual(2);
        } catch (error) {
          expect(error).toBeInstanceOf(RouteInputError);
        }
      }),
    );
  });
});
