import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createDemoForecast, DEMO_MAX_SPEED_KMH, demoWindAt } from '../../src/data/forecast/demo.ts';
import { hourStart, type WindSeries } from '../../src/data/forecast/types.ts';

const point = fc.record({
  lat: fc.double({ min: -85, max: 85, noNaN: true }),
  lon: fc.double({ min: -180, max: 180, noNaN: true }),
});
/** Any moment from 2020 to 2040, in ms. */
const moment = fc.integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2040, 0, 1) });

async function series(p: { lat: number; lon: number }, now: number): Promise<WindSeries> {
  const [s] = await createDemoForecast({ clock: () => now }).hourly([p]);
  if (!s) throw new Error('the demo always answers');
  return s;
}

/** Smallest angle between two directions, degrees. */
const angleBetween = (a: number, b: number) => Math.abs(((a - b + 540) % 360) - 180);

describe('demo forecast', () => {
  it('is deterministic: the same point and hour give the same answer from any instance', async () => {
    await fc.assert(
      fc.asyncProperty(point, moment, async (p, now) => {
        expect(await series(p, now)).toEqual(await series({ ...p }, now));
      }),
    );
  });

  it('gives 72 consecutive hours from the current hour, within bounds, gusts at least the speed', async () => {
    await fc.assert(
      fc.asyncProperty(point, moment, async (p, now) => {
        const s = await series(p, now);
        const start = hourStart(now);
        expect(s.point).toEqual(p);
        expect(s.issuedAt).toBe(start);
        expect(s.stale).toBe(false);
        expect(s.hours.map((h) => h.time)).toEqual(Array.from({ length: 72 }, (_, i) => start + i * 3600));
        for (const h of s.hours) {
          expect(h.speedKmh).toBeGreaterThanOrEqual(0);
          expect(h.speedKmh).toBeLessThanOrEqual(DEMO_MAX_SPEED_KMH);
          expect(h.gustsKmh).toBeGreaterThanOrEqual(h.speedKmh);
          expect(Number.isInteger(h.directionDeg) && h.directionDeg >= 0 && h.directionDeg < 360).toBe(true);
        }
      }),
    );
  });

  it('does not rewrite an hour when the next hour is asked', async () => {
    await fc.assert(
      fc.asyncProperty(point, moment, async (p, now) => {
        const first = await series(p, now);
        const next = await series(p, now + 3_600_000);
        expect(next.hours.slice(0, 71)).toEqual(first.hours.slice(1));
      }),
    );
  });

  it('is smooth in space and time', () => {
    fc.assert(
      fc.property(point, moment, fc.double({ min: -0.01, max: 0.01, noNaN: true }), (p, now, d) => {
        const time = hourStart(now);
        const here = demoWindAt(p, time);
        const near = demoWindAt({ lat: p.lat + d, lon: p.lon - d }, time);
        expect(Math.abs(near.speedKmh - here.speedKmh)).toBeLessThanOrEqual(0.2);
        expect(angleBetween(near.directionDeg, here.directionDeg)).toBeLessThanOrEqual(2);
        const later = demoWindAt(p, time + 3600);
        expect(Math.abs(later.speedKmh - here.speedKmh)).toBeLessThanOrEqual(11);
        expect(angleBetween(later.directionDeg, here.directionDeg)).toBeLessThanOrEqual(28);
      }),
    );
  });

  it('is the same at longitude 180 and -180, and continuous across', () => {
    fc.assert(
      fc.property(fc.double({ min: -85, max: 85, noNaN: true }), moment, (lat, now) => {
        const time = hourStart(now);
        expect(demoWindAt({ lat, lon: 180 }, time)).toEqual(demoWindAt({ lat, lon: -180 }, time));
        const east = demoWindAt({ lat, lon: 179.995 }, time);
        const west = demoWindAt({ lat, lon: -179.995 }, time);
        expect(Math.abs(east.speedKmh - west.speedKmh)).toBeLessThanOrEqual(0.2);
        expect(angleBetween(east.directionDeg, west.directionDeg)).toBeLessThanOrEqual(2);
      }),
    );
  });

  it('offers a tailwind of at least 15 km/h for any bearing at some hour of any three days', async () => {
    await fc.assert(
      fc.asyncProperty(
        point,
        moment,
        fc.double({ min: 0, max: 360, noNaN: true }),
        async (p, now, bearing) => {
          const s = await series(p, now);
          const best = Math.max(
            ...s.hours.map(
              (h) => h.speedKmh * Math.cos(((bearing - (h.directionDeg + 180)) * Math.PI) / 180),
            ),
          );
          expect(best).toBeGreaterThanOrEqual(15);
        },
      ),
    );
  });

  it('is calm (under 3 km/h) now and then, but not often, and sometimes blows near 45 km/h', () => {
    const speeds: number[] = [];
    for (let lat = -60; lat <= 60; lat += 7.3) {
      for (let lon = -180; lon < 180; lon += 11.1) {
        for (let hour = 0; hour < 24 * 30; hour += 5)
          speeds.push(demoWindAt({ lat, lon }, 1.75e9 + hour * 3600).speedKmh);
      }
    }
    const calm = speeds.filter((s) => s < 3).length / speeds.length;
    expect(calm).toBeGreaterThan(0.01);
    expect(calm).toBeLessThan(0.1);
    expect(Math.max(...speeds)).toBeGreaterThan(42);
  });
});
