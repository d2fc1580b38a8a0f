import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { greatCircleM } from '../../src/core/distance.ts';
import { initialBearing } from '../../src/core/bearing.ts';
import { drawFallback } from '../../src/components/map/fallback-drawing.ts';
import {
  arrowPoints,
  colouredRuns,
  cumulativeKm,
  isLoop,
  kmMarks,
  kmStep,
  lineBounds,
  pointAt,
  unwrapLine,
} from '../../src/components/map/line-measure.ts';
import type { LonLat } from '../../src/components/map/map-input.ts';
import { planMap } from '../../src/components/map/map-plan.ts';
import { DEFAULT_MAP_STYLE_URL, mapStyleOrigin, mapStyleUrl } from '../../src/components/map/map-style.ts';
import {
  UNKNOWN_WIND_COLOUR,
  WIND_BANDS,
  windBand,
  windColour,
} from '../../src/components/map/wind-colour.ts';

const at = ([lon, lat]: LonLat) => ({ lat, lon });

/** A line heading east from `start`, `parts` parts of `stepDeg` degrees of longitude. */
function eastward(start: LonLat, parts: number, stepDeg: number): LonLat[] {
  return Array.from({ length: parts + 1 }, (_, index) => {
    const lon = start[0] + index * stepDeg;
    return [lon > 180 ? lon - 360 : lon, start[1]] as const;
  });
}

/** Across the antimeridian in Fiji's waters: 179.90° E to 179.90° W. */
const ANTIMERIDIAN = eastward([179.9, -16.8], 8, 0.025);
/** Southern hemisphere, heading south-west out of Hobart. */
const HOBART: LonLat[] = [
  [147.325, -42.88],
  [147.31, -42.892],
  [147.296, -42.905],
  [147.28, -42.919],
  [147.262, -42.93],
];

describe('wind colour scale', () => {
  it('puts every value in exactly one band, ordered by tailwind', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -200, max: 200, noNaN: true }),
        fc.double({ min: 0, max: 50, noNaN: true }),
        (value, more) => {
          const band = windBand(value);
          expect(value).toBeGreaterThanOrEqual(band.from);
          const next = WIND_BANDS[WIND_BANDS.indexOf(band) + 1];
          if (next) expect(value).toBeLessThan(next.from);
          // More tailwind never lands in a lower band.
          expect(WIND_BANDS.indexOf(windBand(value + more))).toBeGreaterThanOrEqual(WIND_BANDS.indexOf(band));
        },
      ),
    );
  });

  it('gives a boundary value to the band above and unknown values their own colour', () => {
    expect(windBand(5).label).toMatch(/^Tailwind 5/);
    expect(windBand(-5).label).toMatch(/calm/);
    expect(windBand(-5.01).label).toMatch(/^Headwind 5/);
    expect(windColour(undefined)).toBe(UNKNOWN_WIND_COLOUR);
    expect(windColour(Number.NaN)).toBe(UNKNOWN_WIND_COLOUR);
    expect(new Set(WIND_BANDS.map((band) => band.colour)).size).toBe(WIND_BANDS.length);
    expect(WIND_BANDS.map((band) => band.colour)).not.toContain(UNKNOWN_WIND_COLOUR);
  });
});

describe('measuring a line', () => {
  it('keeps an antimeridian crossing a short step when unwrapped', () => {
    const unwrapped = unwrapLine(ANTIMERIDIAN);
    for (let index = 1; index < unwrapped.length; index += 1) {
      const step = (unwrapped[index]?.[0] ?? 0) - (unwrapped[index - 1]?.[0] ?? 0);
      expect(step).toBeCloseTo(0.025, 9);
    }
    const bounds = lineBounds([ANTIMERIDIAN]);
    expect(bounds?.[0][0]).toBeCloseTo(179.9, 9);
    expect(bounds?.[1][0]).toBeCloseTo(180.1, 9);
    // 0.2° of longitude at 16.8° S: about 21.3 km, not the way round the world.
    expect(cumulativeKm(ANTIMERIDIAN).at(-1)).toBeCloseTo(
      0.2 * 111.195 * Math.cos((16.8 * Math.PI) / 180),
      1,
    );
  });

  it('picks the smallest km step giving at most the asked number of marks', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.1, max: 5000, noNaN: true }),
        fc.integer({ min: 2, max: 12 }),
        (total, most) => {
          const step = kmStep(total, most);
          expect(Math.floor(total / step)).toBeLessThanOrEqual(most);
        },
      ),
    );
    expect(kmStep(12.3)).toBe(2);
    expect(kmStep(3)).toBe(0.5);
  });

  it('places km marks at their distance along the line, never on top of the finish', () => {
    for (const line of [ANTIMERIDIAN, HOBART]) {
      const total = cumulativeKm(line).at(-1) ?? 0;
      const step = kmStep(total);
      const marks = kmMarks(line);
      expect(marks.length).toBeGreaterThan(0);
      marks.forEach((mark, index) => {
        expect(mark.km).toBeCloseTo((index + 1) * step, 9);
        expect(total - mark.km).toBeGreaterThanOrEqual(step / 2);
        expect(Math.abs(mark.position[0])).toBeLessThanOrEqual(180);
        // Measured from the start along the line, the mark is where its label says (within a metre on these short parts).
        const start = line[0] as LonLat;
        expect(greatCircleM(at(start), at(mark.position))).toBeLessThanOrEqual(mark.km * 1000 + 1);
      });
    }
  });

  it('points the arrows along the part they sit on, spread evenly between the ends', () => {
    const arrows = arrowPoints(HOBART, 4);
    expect(arrows).toHaveLength(4);
    const total = cumulativeKm(HOBART).at(-1) ?? 0;
    arrows.forEach((arrow, index) => {
      expect(arrow.km).toBeCloseTo(((index + 0.5) / 4) * total, 9);
      // South-west out of Hobart: every arrow points between south and west.
      expect(arrow.bearingDeg).toBeGreaterThan(180);
      expect(arrow.bearingDeg).toBeLessThan(270);
    });
    // Across the antimeridian the way is east, not back west round the world.
    for (const arrow of arrowPoints(ANTIMERIDIAN)) expect(arrow.bearingDeg).toBeCloseTo(90, 0);
  });

  it('interpolates within the part: a point between two positions lies on the bearing from the first', () => {
    fc.assert(
      fc.property(fc.double({ min: 0.05, max: 0.95, noNaN: true }), (share) => {
        const line = HOBART.slice(0, 2);
        const total = cumulativeKm(line).at(-1) ?? 0;
        const point = pointAt(line, share * total);
        expect(point).toBeDefined();
        const bearing = initialBearing(at(line[0] as LonLat), at(point?.position ?? [0, 0]));
        expect(Math.abs(bearing - (point?.bearingDeg ?? 0))).toBeLessThan(0.5);
      }),
    );
  });

  it('tells a loop from an out-and-back that stops short', () => {
    const loop: LonLat[] = [
      [2.82, 41.98],
      [2.86, 41.98],
      [2.86, 42.01],
      [2.82, 42.01],
      [2.8201, 41.9801],
    ];
    expect(isLoop(loop)).toBe(true);
    expect(isLoop(loop.slice(0, 4))).toBe(false);
    expect(isLoop(HOBART)).toBe(false);
  });

  it('joins consecutive parts of one colour into runs that keep every position', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('a', 'b', 'c'), { minLength: 1, maxLength: 40 }), (colours) => {
        const line = eastward([10, 45], colours.length, 0.01);
        const runs = colouredRuns(line, (part) => colours[part] ?? 'x');
        for (let index = 1; index < runs.length; index += 1)
          expect(runs[index]?.colour).not.toBe(runs[index - 1]?.colour);
        // Each run starts where the one before ended: positions = parts + runs.
        expect(runs.reduce((sum, run) => sum + run.coordinates.length, 0)).toBe(colours.length + runs.length);
      }),
    );
  });
});

describe('the map plan', () => {
  it('colours each part by its value, or the whole line by a single one', () => {
    const plan = planMap({
      details: true,
      lines: [{ name: 'H', coordinates: HOBART, values: [-20, -20, 3, 16] }],
    });
    expect(plan.lines[0]?.runs.map((run) => run.colour)).toEqual([
      windColour(-20),
      windColour(3),
      windColour(16),
    ]);
    const one = planMap({ details: false, lines: [{ name: 'H', coordinates: HOBART, values: [8] }] });
    expect(one.lines[0]?.runs.map((run) => run.colour)).toEqual([windColour(8)]);
    expect(one.lines[0]?.marks).toEqual([]);
    expect(one.lines[0]?.ends.map((end) => end.kind)).toEqual(['start']);
  });

  it('marks a loop once as start and finish, a one-way line at both ends', () => {
    const oneWay = planMap({ details: true, lines: [{ name: 'H', coordinates: HOBART }] });
    expect(oneWay.lines[0]?.ends.map((end) => end.kind)).toEqual(['start', 'finish']);
    const loop = planMap({ details: true, lines: [{ name: 'L', coordinates: HOBART, loop: true }] });
    expect(loop.lines[0]?.ends.map((end) => end.kind)).toEqual(['start-finish']);
  });
});

describe('the fallback drawing', () => {
  const frame = { width: 640, height: 400, padding: 20 };

  it('keeps every point inside the frame, whatever the line', () => {
    const position = fc.tuple(
      fc.double({ min: -180, max: 180, noNaN: true }),
      fc.double({ min: -80, max: 80, noNaN: true }),
    );
    fc.assert(
      fc.property(
        position,
        fc.array(
          fc.tuple(
            fc.double({ min: -0.3, max: 0.3, noNaN: true }),
            fc.double({ min: -0.3, max: 0.3, noNaN: true }),
          ),
          { minLength: 1, maxLength: 30 },
        ),
        (start, steps) => {
          const line: LonLat[] = [start];
          for (const [dLon, dLat] of steps) {
            const [lon, lat] = line.at(-1) as LonLat;
            const next = lon + dLon;
            line.push([
              next > 180 ? next - 360 : next < -180 ? next + 360 : next,
              Math.max(-85, Math.min(85, lat + dLat)),
            ]);
          }
          const drawing = drawFallback(
            planMap({ details: true, lines: [{ name: 'x', coordinates: line }] }),
            frame,
          );
          const numbers = drawing.paths.flatMap(
            (path) => path.d.match(/-?\d+(?:\.\d+)?/g)?.map(Number) ?? [],
          );
          for (const value of numbers) {
            expect(value).toBeGreaterThanOrEqual(frame.padding - 0.01);
            expect(value).toBeLessThanOrEqual(frame.width - frame.padding + 0.01);
          }
          for (const point of [...drawing.marks, ...drawing.arrows, ...drawing.ends]) {
            expect(point.x).toBeGreaterThanOrEqual(frame.padding - 0.01);
            expect(point.x).toBeLessThanOrEqual(frame.width - frame.padding + 0.01);
            expect(point.y).toBeGreaterThanOrEqual(frame.padding - 0.01);
            expect(point.y).toBeLessThanOrEqual(frame.height - frame.padding + 0.01);
          }
        },
      ),
    );
  });

  it('draws an antimeridian crossing as one short eastward stroke, and north up in the south', () => {
    const across = drawFallback(
      planMap({ details: true, lines: [{ name: 'Fiji', coordinates: ANTIMERIDIAN }] }),
      frame,
    );
    const xs = across.paths.flatMap((path) =>
      [...path.d.matchAll(/[ML](-?[\d.]+) /g)].map((match) => Number(match[1])),
    );
    for (let index = 1; index < xs.length; index += 1)
      expect(xs[index]).toBeGreaterThan(xs[index - 1] ?? Infinity);
    expect((xs.at(-1) ?? 0) - (xs[0] ?? 0)).toBeCloseTo(frame.width - 2 * frame.padding, 1);

    const hobart = drawFallback(
      planMap({ details: true, lines: [{ name: 'Hobart', coordinates: HOBART }] }),
      frame,
    );
    const [start, finish] = hobart.ends;
    // Heading south-west: the finish is left of and below the start on the page.
    expect(finish?.x).toBeLessThan(start?.x ?? 0);
    expect(finish?.y).toBeGreaterThan(start?.y ?? 0);
    // An arrow drawn pointing up turns clockwise by the bearing.
    for (const arrow of hobart.arrows) expect(arrow.rotateDeg).toBeGreaterThan(180);
  });

  it('keeps the shape: equal ground distances east and north are equal on the page', () => {
    // A right angle at 60° S: 0.1° of latitude north, then the same ground distance east.
    const eastDeg = 0.1 / Math.cos((-60 * Math.PI) / 180);
    const line: LonLat[] = [
      [-70, -60.1],
      [-70, -60],
      [-70 + eastDeg, -60],
    ];
    const drawing = drawFallback(planMap({ details: false, lines: [{ name: 'L', coordinates: line }] }), {
      width: 500,
      height: 500,
      padding: 0,
    });
    const points = [...(drawing.paths[0]?.d.matchAll(/[ML](-?[\d.]+) (-?[\d.]+)/g) ?? [])].map((m) => [
      Number(m[1]),
      Number(m[2]),
    ]);
    const north = Math.abs((points[1]?.[1] ?? 0) - (points[0]?.[1] ?? 0));
    const east = Math.abs((points[2]?.[0] ?? 0) - (points[1]?.[0] ?? 0));
    expect(east / north).toBeCloseTo(1, 2);
  });
});

describe('the style setting', () => {
  it('defaults to OpenFreeMap and names the origin the CSP must allow', () => {
    expect(mapStyleUrl(undefined)).toBe(DEFAULT_MAP_STYLE_URL);
    expect(mapStyleUrl('  ')).toBe(DEFAULT_MAP_STYLE_URL);
    expect(mapStyleOrigin(DEFAULT_MAP_STYLE_URL)).toBe('https://tiles.openfreemap.org');
    expect(mapStyleOrigin('https://maps.example.org:8443/style.json')).toBe('https://maps.example.org:8443');
    expect(mapStyleOrigin('/map/style.json')).toBeUndefined();
    expect(() => mapStyleOrigin('javascript:alert(1)')).toThrow(/http\(s\) URL or a path/);
    expect(() => mapStyleOrigin('//evil.example/style.json')).toThrow();
  });
});
