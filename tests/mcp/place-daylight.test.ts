import { describe, expect, it } from 'vitest';
import { daylightDays, REMEMBERED_PLACES } from '../../src/mcp/report/place-daylight.ts';
import { CIVIL_TWILIGHT_DEG, solarAltitudeDeg } from '../support/solar-altitude.ts';

const GIRONA = { lat: 41.9831, lon: 2.8249 };
/** Saturday 21 November 2026, 10:20 UTC. */
const NOW = Date.UTC(2026, 10, 21, 10, 20);
const HOUR_MS = 3_600_000;

describe('the daylight said once per find answer', () => {
  it('gives each day the 72 hours touch, at the times an independent solar formula puts the sun near -6°', () => {
    const days = daylightDays(GIRONA, NOW);
    // Saturday to Tuesday: the hours run from Saturday 10:00 UTC to Tuesday 10:00 UTC.
    expect(days.map((d) => d.civil_dawn?.slice(0, 10))).toEqual([
      '2026-11-21',
      '2026-11-22',
      '2026-11-23',
      '2026-11-24',
    ]);
    for (const day of days) {
      const dawn = Date.parse(day.civil_dawn ?? '') / 1000;
      const dusk = Date.parse(day.civil_dusk ?? '') / 1000;
      expect(dusk - dawn).toBeGreaterThan(9 * 3600);
      // Within a degree of civil twilight (the service's line is a quarter degree above it), rising then setting.
      for (const at of [dawn, dusk])
        expect(Math.abs(solarAltitudeDeg(GIRONA, at) - CIVIL_TWILIGHT_DEG)).toBeLessThan(1);
      expect(solarAltitudeDeg(GIRONA, dawn + 600)).toBeGreaterThan(solarAltitudeDeg(GIRONA, dawn));
      expect(solarAltitudeDeg(GIRONA, dusk + 600)).toBeLessThan(solarAltitudeDeg(GIRONA, dusk));
    }
  });

  it('remembers a place for the hour, anew each hour, and only a bounded number of places', () => {
    const first = daylightDays(GIRONA, NOW);
    // The same frozen days within the hour (their words are remembered with them) …
    expect(daylightDays(GIRONA, NOW + 30 * 60_000)[0]).toBe(first[0]);
    // … a copy of the list, so no answer can change another's …
    expect(daylightDays(GIRONA, NOW)).not.toBe(first);
    // … and computed again in the next hour.
    expect(daylightDays(GIRONA, NOW + HOUR_MS)[0]).not.toBe(first[0]);
    // Past the bound the oldest place is dropped: asked again, its days are new objects.
    const start = daylightDays(GIRONA, NOW + 2 * HOUR_MS)[0];
    for (let i = 0; i < REMEMBERED_PLACES; i++)
      daylightDays({ lat: 10 + i / 1000, lon: 20 }, NOW + 2 * HOUR_MS);
    const again = daylightDays(GIRONA, NOW + 2 * HOUR_MS)[0];
    expect(again).toEqual(start);
    expect(again).not.toBe(start);
  });
});
