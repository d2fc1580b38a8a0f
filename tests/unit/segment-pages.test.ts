import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { windComponents } from '../../src/core/wind.ts';
import type { SegmentHour } from '../../src/rest/schemas/segment-results.ts';
import { partTailwinds } from '../../src/components/segments/line-wind.ts';
import {
  hourRuns,
  localTickLabel,
  localTicks,
  profileSpec,
  timelineSpec,
} from '../../src/components/segments/segment-charts.ts';
import {
  isGustHour,
  isRainHour,
  localParts,
  offsetMinutes,
  parseCoordinates,
  segmentIdFromPath,
  segmentsQuery,
  signedKmh,
  windowText,
} from '../../src/components/segments/segment-words.ts';
import { GUSTY_KMH, WET_PRECIPITATION_MM, WET_PROBABILITY_PCT } from '../../src/core/rideable.ts';
import { rememberSignedIn } from '../../src/components/rider/menu-session.ts';
import { signedInNoted } from '../../src/components/segments/signed-in-note.ts';

const HOUR = 3_600_000;

/** Hours from `startUtc` on a clock `offsetH` hours ahead of UTC, daylight 08–17 local. */
function hours(
  count: number,
  startUtc: number,
  offsetH: number,
  over: (index: number) => Partial<SegmentHour> = () => ({}),
): SegmentHour[] {
  return Array.from({ length: count }, (_, index) => {
    const time = startUtc + index * HOUR;
    const local = new Date(time + offsetH * HOUR).toISOString().slice(0, 19);
    const sign = offsetH < 0 ? '-' : '+';
    const localHour = new Date(time + offsetH * HOUR).getUTCHours();
    return {
      time: new Date(time).toISOString().slice(0, 19) + 'Z',
      time_local: `${local}${sign}${String(Math.abs(offsetH)).padStart(2, '0')}:00`,
      signed_tailwind_kmh: 10 * Math.sin(index / 5),
      crosswind_kmh: 2,
      wind_speed_kmh: 12,
      wind_direction_deg: 200,
      wind_gusts_kmh: 20,
      precipitation_mm: 0,
      precipitation_probability_pct: 5,
      temperature_c: 14,
      daylight: localHour >= 8 && localHour < 17,
      ...over(index),
    };
  });
}

describe('the words of the segment pages', () => {
  it('reads the wall clock from the answer’s own offset', () => {
    expect(localParts('2026-11-28T10:00:00+01:00')).toEqual({ day: 'Sat 28 Nov', clock: '10:00' });
    // Hobart's summer clock: the same instant is already Sunday there.
    expect(localParts('2026-11-29T07:00:00+11:00')).toEqual({ day: 'Sun 29 Nov', clock: '07:00' });
    expect(offsetMinutes('2026-11-28T10:00:00+05:30')).toBe(330);
    expect(offsetMinutes('2026-11-28T10:00:00-03:00')).toBe(-180);
    expect(offsetMinutes('2026-11-28T10:00:00Z')).toBe(0);
  });

  it('writes a window on one day, one ending at midnight, and one across midnight', () => {
    expect(
      windowText({ start_local: '2026-11-28T10:00:00+01:00', end_local: '2026-11-28T13:00:00+01:00' }),
    ).toBe('Sat 28 Nov, 10:00–13:00');
    expect(
      windowText({ start_local: '2026-11-28T21:00:00+01:00', end_local: '2026-11-29T00:00:00+01:00' }),
    ).toBe('Sat 28 Nov, 21:00–00:00');
    expect(
      windowText({ start_local: '2026-11-28T22:00:00+01:00', end_local: '2026-11-29T01:00:00+01:00' }),
    ).toBe('Sat 28 Nov 22:00 – Sun 29 Nov 01:00');
  });

  it('signs the wind with a true minus and one decimal', () => {
    expect(signedKmh(12.34)).toBe('+12.3 km/h');
    expect(signedKmh(-4)).toBe('−4.0 km/h');
    expect(signedKmh(0.04)).toBe('±0.0 km/h');
  });

  it('takes coordinates in the search box, and leaves names and out-of-range numbers to the API', () => {
    expect(parseCoordinates('41.98, 2.82')).toEqual({ lat: 41.98, lon: 2.82 });
    expect(parseCoordinates(' -42.88 147.33 ')).toEqual({ lat: -42.88, lon: 147.33 });
    expect(parseCoordinates('-16.8°, -179.9°')).toEqual({ lat: -16.8, lon: -179.9 });
    expect(parseCoordinates('Girona')).toBeUndefined();
    expect(parseCoordinates('95, 10')).toBeUndefined();
    expect(parseCoordinates('45, 181')).toBeUndefined();
    fc.assert(
      fc.property(
        fc.double({ min: -90, max: 90, noNaN: true }),
        fc.double({ min: -180, max: 180, noNaN: true }),
        (lat, lon) => {
          const text = `${lat.toFixed(5)}, ${lon.toFixed(5)}`;
          expect(parseCoordinates(text)).toEqual({
            lat: Number(lat.toFixed(5)),
            lon: Number(lon.toFixed(5)),
          });
        },
      ),
    );
  });

  it('turns the page’s own URL into the API query', () => {
    const query = (search: string) => segmentsQuery(new URLSearchParams(search))?.toString() ?? null;
    expect(query('')).toBeNull();
    expect(query('place=Girona')).toBe('place=Girona');
    expect(query('place=41.98%2C+2.82')).toBe('lat=41.98&lon=2.82');
    expect(query('lat=41.98&lon=2.82&radius_km=100')).toBe('lat=41.98&lon=2.82&radius_km=100');
    expect(query('lat=41.98')).toBeNull();
    expect(query('place=Paris%2C+US')).toBe('place=Paris%2C+US');
  });

  it('reads the segment id from its path, and nothing else', () => {
    expect(segmentIdFromPath('/segments/fr-alpe-d-huez')).toBe('fr-alpe-d-huez');
    expect(segmentIdFromPath('/segments/fr-alpe-d-huez/')).toBe('fr-alpe-d-huez');
    expect(segmentIdFromPath('/segments/')).toBeUndefined();
    expect(segmentIdFromPath('/segments/a/b')).toBeUndefined();
    expect(segmentIdFromPath('/segments/%E0%A4%A')).toBeUndefined();
  });

  it('marks rain and gust hours by the rules that flag a window', () => {
    const base = { precipitation_mm: 0, precipitation_probability_pct: 0 };
    expect(isRainHour({ ...base, precipitation_mm: WET_PRECIPITATION_MM })).toBe(true);
    expect(isRainHour({ ...base, precipitation_mm: WET_PRECIPITATION_MM - 0.1 })).toBe(false);
    expect(isRainHour({ ...base, precipitation_probability_pct: WET_PROBABILITY_PCT })).toBe(true);
    expect(isRainHour({ ...base, precipitation_probability_pct: WET_PROBABILITY_PCT - 1 })).toBe(false);
    expect(isRainHour({ precipitation_mm: null, precipitation_probability_pct: null })).toBe(false);
    expect(isGustHour({ wind_gusts_kmh: GUSTY_KMH })).toBe(true);
    expect(isGustHour({ wind_gusts_kmh: GUSTY_KMH - 0.1 })).toBe(false);
    expect(isGustHour({ wind_gusts_kmh: null })).toBe(false);
  });
});

describe('the timeline chart', () => {
  const start = Date.UTC(2026, 10, 28, 0);

  it('shades each run of dark hours once, end to end', () => {
    const list = hours(72, start, 1);
    const runs = hourRuns(list, (hour) => !hour.daylight);
    const dark = list.filter((hour) => !hour.daylight).length;
    expect(runs.reduce((sum, [from, to]) => sum + (to - from) / HOUR, 0)).toBe(dark);
    for (let index = 1; index < runs.length; index += 1)
      expect(runs[index]?.[0]).toBeGreaterThan(runs[index - 1]?.[1] ?? 0);
  });

  it('labels ticks on the segment’s clock, midnight and noon, in the south and west too', () => {
    for (const offset of [1, 11, -3]) {
      const list = hours(72, start, offset);
      const ticks = localTicks(list);
      expect(ticks).toHaveLength(6);
      const labels = ticks.map((tick) => localTickLabel(tick, list));
      expect(labels.filter((label) => label === '12:00')).toHaveLength(3);
      expect(labels.filter((label) => /^(Sat|Sun|Mon|Tue)$/.test(label))).toHaveLength(3);
    }
  });

  it('marks the best window, its peak hour, rain and gusts', () => {
    const list = hours(72, start, 1, (index) => ({
      signed_tailwind_kmh: index === 34 ? 19 : 5,
      precipitation_mm: index === 50 ? 2 : 0,
      wind_gusts_kmh: index === 60 ? 55 : 15,
    }));
    const best = {
      start: list[33]?.time ?? '',
      start_local: list[33]?.time_local ?? '',
      end: list[36]?.time ?? '',
      end_local: list[36]?.time_local ?? '',
      signed_tailwind_kmh: 9.7,
      peak_tailwind_kmh: 19,
      min_temperature_c: 14,
      max_temperature_c: 14,
      flags: [],
    };
    const spec = timelineSpec(list, best, 'Els Àngels');
    const kinds = (kind: string) => (spec.bands ?? []).filter((band) => band.kind === kind);
    expect(kinds('best')).toEqual([
      expect.objectContaining({ from: Date.parse(best.start), to: Date.parse(best.end) }),
    ]);
    expect(kinds('rain').map((band) => band.from)).toEqual([Date.parse(list[50]?.time ?? '')]);
    expect(kinds('gust').map((band) => band.from)).toEqual([Date.parse(list[60]?.time ?? '')]);
    expect(spec.markers).toEqual([
      expect.objectContaining({ y: 19, x: Date.parse(list[34]?.time ?? '') + HOUR / 2 }),
    ]);
    expect(spec.series[0]?.points).toHaveLength(72);
    expect(spec.summary).toContain('+9.7 km/h');
    expect(timelineSpec(list, null, 'Els Àngels').summary).toMatch(/No rideable tailwind window/);
  });

  it('fits the profile’s height axis around the climb', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: -400, max: 5000, noNaN: true }), { minLength: 2, maxLength: 60 }),
        (heights) => {
          const spec = profileSpec(
            heights.map((elevation_m, index) => ({ distance_km: index * 0.1, elevation_m })),
            'x',
          );
          for (const height of heights) {
            expect(height).toBeGreaterThanOrEqual(spec.y.min ?? -Infinity);
            expect(height).toBeLessThanOrEqual(spec.y.max ?? Infinity);
          }
        },
      ),
    );
  });
});

describe('colouring the line by the wind', () => {
  it('gives each part the API’s signed tailwind for its own bearing', () => {
    // A hairpin: up north, then back south; a north wind helps the second leg only.
    const line = [
      [6.03, 45.05],
      [6.03, 45.06],
      [6.031, 45.05],
    ] as const;
    const values = partTailwinds(line, { speedKmh: 20, directionDeg: 0 });
    expect(values).toHaveLength(2);
    expect(values[0]).toBeCloseTo(-20, 0);
    expect(values[1]).toBeCloseTo(20, 0);
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 80, noNaN: true }),
        fc.double({ min: 0, max: 359.9, noNaN: true }),
        (speedKmh, directionDeg) => {
          const [first] = partTailwinds(
            [
              [0, 0],
              [0, 0.01],
            ],
            { speedKmh, directionDeg },
          );
          expect(first).toBe(windComponents({ speedKmh, directionDeg, bearingDeg: 0 }).signedKmh);
        },
      ),
    );
  });
});

describe('the signed-in note', () => {
  it('is read by the segment page under the key the sign-in pages write', () => {
    const store = new Map<string, string>();
    const storage = {
      getItem: (key: string) => store.get(key) ?? null,
      setItem: (key: string, value: string) => void store.set(key, value),
      removeItem: (key: string) => void store.delete(key),
    };
    const previous = Object.getOwnPropertyDescriptor(globalThis, 'localStorage');
    Object.defineProperty(globalThis, 'localStorage', { value: storage, configurable: true });
    try {
      expect(signedInNoted()).toBe(false);
      rememberSignedIn(true);
      expect(signedInNoted()).toBe(true);
      rememberSignedIn(false);
      expect(signedInNoted()).toBe(false);
    } finally {
      if (previous) Object.defineProperty(globalThis, 'localStorage', previous);
      else Reflect.deleteProperty(globalThis, 'localStorage');
    }
  });
});
