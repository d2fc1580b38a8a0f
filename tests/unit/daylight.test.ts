import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LatLon } from '../../src/core/bearing.ts';
import { civilDaylight, DAYLIGHT_SUN_ALTITUDE_DEG } from '../../src/core/daylight.ts';
import { HOUR_S } from '../../src/core/tailwind-window.ts';
import { createDemoForecast } from '../../src/data/forecast/demo.ts';
import { daylightDays } from '../../src/mcp/report/place-daylight.ts';
import { headingWindows } from '../../src/mcp/report/headings.ts';
import { windOnLegs } from '../../src/data/segments/segment-window.ts';
import {
  CIVIL_TWILIGHT_DEG,
  lowestSunDeg,
  solarAltitudeDeg,
  TWILIGHT_TOLERANCE_DEG,
} from '../support/solar-altitude.ts';

/** Rough boxes per continent (and both polar caps), so every run meets every kind of day. */
const REGIONS = {
  europe: { lat: [36, 71], lon: [-10, 40] },
  africa: { lat: [-35, 37], lon: [-17, 51] },
  asia: { lat: [5, 75], lon: [60, 150] },
  northAmerica: { lat: [15, 72], lon: [-165, -55] },
  southAmerica: { lat: [-55, 12], lon: [-80, -35] },
  oceania: { lat: [-47, -10], lon: [110, 180] },
  antarctica: { lat: [-90, -60], lon: [-180, 180] },
  arctic: { lat: [66, 90], lon: [-180, 180] },
} as const;

const place = fc.constantFrom(...Object.values(REGIONS)).chain((box) =>
  fc.record({
    lat: fc.double({ min: box.lat[0], max: box.lat[1], noNaN: true }),
    lon: fc.double({ min: box.lon[0], max: box.lon[1], noNaN: true }),
  }),
);

/** Any hour of 2026 and 2027: every season, polar day and polar night included. */
const instant = fc
  .integer({ min: Date.UTC(2026, 0, 1) / 1000 / HOUR_S, max: Date.UTC(2027, 11, 31) / 1000 / HOUR_S })
  .map((hour) => hour * HOUR_S * 1000 + 17 * 60 * 1000);

async function demoSamples(point: LatLon, nowMs: number) {
  const [series] = await createDemoForecast({ clock: () => nowMs }).hourly([point]);
  return series?.hours ?? [];
}

describe('civil daylight', () => {
  it('is light inside every span and dark between spans, by an independent sun formula (property)', () => {
    fc.assert(
      fc.property(place, instant, (point, nowMs) => {
        const from = nowMs / 1000;
        const spans = civilDaylight(point, from, from + 72 * HOUR_S);
        for (const span of spans) {
          expect(lowestSunDeg(point, span.start + 60, span.end - 60)).toBeGreaterThan(
            CIVIL_TWILIGHT_DEG - TWILIGHT_TOLERANCE_DEG,
          );
        }
        // The other way round is looser: daylight starts at −5.75° (a margin for suncalc's one
        // declination per day, up to 0.2° off where the sun grazes that altitude at midnight). That
        // errs on the safe side; it must not hide a real stretch of daylight.
        // Inside the polar circles, on the days the sun starts or stops setting, suncalc's solution
        // can miss a crossing and a day is counted dark (see civilDaylight): safe, but not checked here.
        if (Math.abs(point.lat) > 66) return;
        spans.slice(1).forEach((span, i) => {
          const gap = (span.start + (spans[i]?.end ?? span.start)) / 2;
          expect(solarAltitudeDeg(point, gap)).toBeLessThan(DAYLIGHT_SUN_ALTITUDE_DEG + 0.25);
        });
      }),
      { numRuns: 500 },
    );
  });

  it('has no dark gap in daylight where white nights begin and end, at 58° to 66° (property)', () => {
    // There the sun grazes −6° at midnight, and suncalc can put a crossing a minute past noon: a
    // light day then came out as dark (found at 65.4° S in November by the property above).
    const edge = fc.record({
      lat: fc.double({ min: 58, max: 66, noNaN: true }),
      south: fc.boolean(),
      lon: fc.double({ min: -180, max: 180, noNaN: true }),
    });
    fc.assert(
      fc.property(edge, instant, ({ lat, south, lon }, nowMs) => {
        const point = { lat: south ? -lat : lat, lon };
        const from = nowMs / 1000;
        const spans = civilDaylight(point, from, from + 72 * HOUR_S);
        spans.slice(1).forEach((span, i) => {
          const gap = (span.start + (spans[i]?.end ?? span.start)) / 2;
          expect(solarAltitudeDeg(point, gap)).toBeLessThan(DAYLIGHT_SUN_ALTITUDE_DEG + 0.25);
        });
      }),
      { numRuns: 3000, examples: [[{ lat: 65.4473881300717, south: true, lon: 0 }, 1826065020000]] },
    );
  });

  it('is all day in polar day, never in polar night, and dawn-to-dusk in between', () => {
    const tromsoJune = civilDaylight(
      { lat: 69.65, lon: 18.96 },
      Date.UTC(2026, 5, 21) / 1000,
      Date.UTC(2026, 5, 24) / 1000,
    );
    expect(tromsoJune).toHaveLength(1);
    expect(tromsoJune[0]).toMatchObject({ startIsDawn: false, endIsDusk: false });
    const svalbardDecember = civilDaylight(
      { lat: 78.22, lon: 15.65 },
      Date.UTC(2026, 11, 15) / 1000,
      Date.UTC(2026, 11, 18) / 1000,
    );
    expect(svalbardDecember).toEqual([]);
    const quito = civilDaylight(
      { lat: -0.18, lon: -78.47 },
      Date.UTC(2026, 2, 1) / 1000,
      Date.UTC(2026, 2, 2) / 1000,
    );
    for (const span of quito) {
      expect(span).toMatchObject({ startIsDawn: true, endIsDusk: true });
      // Near the equator civil daylight lasts a little over 12 h all year.
      expect((span.end - span.start) / 3600).toBeGreaterThan(12.2);
      expect((span.end - span.start) / 3600).toBeLessThan(13.2);
    }
  });
});

describe('rideable windows hold only daylight hours', () => {
  it('no hour of any window, for a segment or a heading, lies outside civil twilight (property)', async () => {
    let windows = 0;
    await fc.assert(
      fc.asyncProperty(place, instant, fc.integer({ min: 0, max: 359 }), async (point, nowMs, bearing) => {
        const samples = await demoSamples(point, nowMs);
        const found = [
          windOnLegs([{ bearingDeg: bearing, weight: 1 }], point, samples)?.best.window,
          ...headingWindows(point, { id: null, hours: samples }).map((h) => h.best_window),
        ];
        for (const window of found) {
          if (!window) continue;
          windows += 1;
          const start = typeof window.start === 'number' ? window.start : Date.parse(window.start) / 1000;
          const end = typeof window.end === 'number' ? window.end : Date.parse(window.end) / 1000;
          expect(lowestSunDeg(point, start, end)).toBeGreaterThan(
            CIVIL_TWILIGHT_DEG - TWILIGHT_TOLERANCE_DEG,
          );
          expect(window.flags).not.toContain('dark');
        }
      }),
      { numRuns: 300 },
    );
    // Not vacuous: most places and dates have some daylight tailwind.
    expect(windows).toBeGreaterThan(600);
  });

  it('in polar night offers no window and says dark, unless the rider has lights', async () => {
    const svalbard = { lat: 78.22, lon: 15.65 };
    const samples = await demoSamples(svalbard, Date.UTC(2026, 11, 15, 9));
    const legs = [{ bearingDeg: 0, weight: 1 }];
    const statuses = headingWindows(svalbard, { id: null, hours: samples }).map((h) => h.window_status);
    expect(new Set(statuses)).toEqual(new Set(['dark']));
    const lit = windOnLegs(legs, svalbard, samples, { includeDarkness: true })?.best;
    expect(lit?.status).toBe('found');
    expect(lit?.window?.flags).toContain('dark');
    expect(lit?.window?.daylight).toBeNull();
  });

  it('in polar day offers windows at any hour, with no dawn or dusk to bound them', async () => {
    const tromso = { lat: 69.65, lon: 18.96 };
    const samples = await demoSamples(tromso, Date.UTC(2026, 5, 20, 22));
    const windows = headingWindows(tromso, { id: null, hours: samples }).flatMap((h) =>
      h.best_window ? [h.best_window] : [],
    );
    expect(windows.length).toBeGreaterThan(0);
    // The answer's daylight (said once for the place) has neither dawn nor dusk on any day.
    const days = daylightDays(tromso, Date.UTC(2026, 5, 20, 22));
    expect(days.length).toBeGreaterThan(0);
    for (const day of days) expect(day).toEqual({ civil_dawn: null, civil_dusk: null });
  });
});
