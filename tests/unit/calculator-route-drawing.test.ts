import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  legRuns,
  polylinePath,
  projectRoute,
  unwrapLongitudes,
  type MapFrame,
} from '../../src/components/calculator/route/route-map.ts';
import {
  polarPoint,
  polarScaleKmh,
  timeCostPoint,
  zeroRingRadius,
} from '../../src/components/calculator/route/route-polar.ts';
import { toRadians } from '../../src/core/angles.ts';

const FRAME: MapFrame = { width: 400, height: 300, padding: 20 };

const latLon = fc.record({
  lat: fc.double({ min: -80, max: 80, noNaN: true }),
  lon: fc.double({ min: -180, max: 180, noNaN: true }),
});

/** A ride: a start and steps of at most ~0.5° in each axis, longitudes folded back into [-180, 180]. */
const ride = fc
  .tuple(
    latLon,
    fc.array(
      fc.record({
        dLat: fc.double({ min: -0.5, max: 0.5, noNaN: true }),
        dLon: fc.double({ min: -0.5, max: 0.5, noNaN: true }),
      }),
      { minLength: 1, maxLength: 40 },
    ),
  )
  .map(([start, steps]) => {
    const points = [start];
    let { lat, lon } = start;
    for (const step of steps) {
      lat = Math.max(-85, Math.min(85, lat + step.dLat));
      lon += step.dLon;
      points.push({ lat, lon: ((((lon + 180) % 360) + 360) % 360) - 180 });
    }
    return points;
  });

describe('the route map projection', () => {
  it('unwraps longitudes so no step is longer than half a turn, and only by whole turns', () => {
    fc.assert(
      fc.property(ride, (points) => {
        const unwrapped = unwrapLongitudes(points);
        unwrapped.forEach((point, i) => {
          const original = points[i];
          expect(point.lat).toBe(original?.lat);
          const turns = (point.lon - (original?.lon ?? 0)) / 360;
          expect(Math.abs(turns - Math.round(turns))).toBeLessThan(1e-9);
          const previous = unwrapped[i - 1];
          if (previous) expect(Math.abs(point.lon - previous.lon)).toBeLessThanOrEqual(180);
        });
      }),
    );
  });

  it('draws a ride across the antimeridian as a short line, not across the world', () => {
    const points = [
      { lat: -16.8, lon: 179.98 },
      { lat: -16.79, lon: 179.99 },
      { lat: -16.78, lon: -179.99 },
      { lat: -16.77, lon: -179.98 },
    ];
    const screen = projectRoute(points, FRAME);
    const steps = screen
      .slice(1)
      .map((p, i) => Math.hypot(p.x - (screen[i]?.x ?? 0), p.y - (screen[i]?.y ?? 0)));
    // The crossing step is twice the others (0.02° against 0.01° of longitude), not hundreds of times.
    expect(Math.max(...steps)).toBeLessThan(3 * Math.min(...steps));
    expect(screen[2]?.x).toBeGreaterThan(screen[1]?.x ?? Infinity);
  });

  it('keeps every point inside the frame', () => {
    fc.assert(
      fc.property(ride, (points) => {
        const screen = projectRoute(points, FRAME);
        for (const p of screen) {
          expect(p.x).toBeGreaterThanOrEqual(FRAME.padding - 1e-3);
          expect(p.x).toBeLessThanOrEqual(FRAME.width - FRAME.padding + 1e-3);
          expect(p.y).toBeGreaterThanOrEqual(FRAME.padding - 1e-3);
          expect(p.y).toBeLessThanOrEqual(FRAME.height - FRAME.padding + 1e-3);
        }
      }),
    );
  });

  it('shrinks east-west distances by the cosine of the latitude, with north up', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -70, max: 70, noNaN: true }),
        fc.double({ min: -170, max: 170, noNaN: true }),
        (lat, lon) => {
          // One step north then one east, each 0.1°, at (nearly) one latitude.
          const points = [
            { lat, lon },
            { lat: lat + 0.1, lon },
            { lat: lat + 0.1, lon: lon + 0.1 },
          ];
          const [a, b, c] = projectRoute(points, FRAME);
          if (!a || !b || !c) throw new Error('three points expected');
          expect(b.y).toBeLessThan(a.y);
          expect(c.x).toBeGreaterThan(b.x);
          const ratio = (c.x - b.x) / (a.y - b.y);
          expect(ratio).toBeCloseTo(Math.cos(toRadians(lat + 0.05)), 6);
        },
      ),
    );
  });
});

describe('the route map lines', () => {
  it('puts every leg in exactly one run of its own effect', () => {
    const effect = fc.constantFrom('tailwind', 'headwind', 'crosswind', 'calm');
    fc.assert(
      fc.property(fc.array(effect, { maxLength: 200 }), (effects) => {
        const runs = legRuns(effects);
        const covered = runs.flatMap((run) =>
          Array.from({ length: run.to - run.from + 1 }, (_, k) => ({
            leg: run.from + k,
            effect: run.effect,
          })),
        );
        expect(covered.map((c) => c.leg)).toEqual(effects.map((_, i) => i));
        covered.forEach((c) => expect(c.effect).toBe(effects[c.leg]));
        runs.slice(1).forEach((run, i) => expect(run.effect).not.toBe(runs[i]?.effect));
      }),
    );
  });

  it('writes a move then lines, to two decimals', () => {
    expect(
      polylinePath([
        { x: 1.234, y: 5 },
        { x: 7, y: 8.999 },
        { x: 0, y: 0 },
      ]),
    ).toBe('M1.23 5 L7 9 L0 0');
  });
});

describe('the polar chart geometry', () => {
  it('puts the wind speed on the rim, still air on the middle ring and a full headwind at the centre', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 359.9, noNaN: true }),
        fc.double({ min: 0.1, max: 150, noNaN: true }),
        (deg, speed) => {
          const radius = 120;
          const at = (tailwindKmh: number) => {
            const p = polarPoint({ directionDeg: deg, tailwindKmh }, speed, radius);
            return Math.hypot(p.x, p.y);
          };
          expect(at(speed)).toBeCloseTo(radius, 6);
          expect(at(0)).toBeCloseTo(zeroRingRadius(radius), 6);
          expect(at(-speed)).toBeCloseTo(0, 6);
          expect(at(speed / 2)).toBeGreaterThan(at(-speed / 2));
        },
      ),
    );
  });

  it('draws a wind from the east to the right and from the south at the bottom', () => {
    const east = polarPoint({ directionDeg: 90, tailwindKmh: 10 }, 10, 100);
    const south = polarPoint({ directionDeg: 180, tailwindKmh: 10 }, 10, 100);
    expect(east.x).toBeCloseTo(100, 9);
    expect(east.y).toBeCloseTo(0, 9);
    expect(south.y).toBeCloseTo(100, 9);
  });

  it('scales the rim to the largest figure, but never below a quarter of the wind', () => {
    const value = fc.record({
      directionDeg: fc.integer({ min: 0, max: 359 }),
      tailwindKmh: fc.double({ min: -150, max: 150, noNaN: true }),
    });
    fc.assert(
      fc.property(
        fc.array(value, { maxLength: 36 }),
        fc.double({ min: 0, max: 150, noNaN: true }),
        (values, speed) => {
          const scale = polarScaleKmh(values, speed);
          expect(Number.isInteger(scale)).toBe(true);
          expect(scale).toBeGreaterThanOrEqual(speed / 4);
          for (const v of values) expect(scale).toBeGreaterThanOrEqual(Math.abs(v.tailwindKmh));
          expect(scale - 1).toBeLessThan(
            Math.max(1, speed / 4, ...values.map((v) => Math.abs(v.tailwindKmh))),
          );
        },
      ),
    );
    // An out-and-back: every figure about 0; the shape stays on the zero ring.
    expect(polarScaleKmh([{ directionDeg: 0, tailwindKmh: 1e-15 }], 20)).toBe(5);
  });
});

describe('the time-cost chart geometry', () => {
  it('grows outwards with the time lost, from the least at the centre to the most on the rim', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 359.9, noNaN: true }),
        fc.integer({ min: -300, max: 0 }),
        fc.integer({ min: 10, max: 3000 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (deg, least, most, share) => {
          const r = (lost: number) =>
            Math.hypot(...Object.values(timeCostPoint(deg, lost, least, most, 110)));
          expect(r(least)).toBeCloseTo(0, 6);
          expect(r(most)).toBeCloseTo(110, 6);
          // Beyond the scale it stays on the chart.
          expect(r(most * 2)).toBeCloseTo(110, 6);
          expect(r(least - 50)).toBeCloseTo(0, 6);
          const lost = least + share * (most - least);
          expect(r(lost)).toBeCloseTo((110 * (lost - least)) / (most - least), 6);
        },
      ),
    );
  });

  it('points a wind from the east to the right, as the tailwind chart does', () => {
    const east = timeCostPoint(90, 100, 0, 100, 110);
    expect(east.x).toBeCloseTo(110, 9);
    expect(east.y).toBeCloseTo(0, 9);
  });
});
