import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { localDateTime, localIso, localSpan, zoneAbbreviation } from '../../src/core/local-time.ts';
import { timeZoneAt } from '../../src/data/time-zone/zone-at.ts';

const at = (iso: string): number => Date.parse(iso) / 1000;

/**
 * Places whose clocks are easy to get wrong, each with a ride that an
 * assistant converting offsets by itself would misplace.
 */
const TABLE = [
  {
    place: 'Mumbai, UTC+5:30 all year',
    point: { lat: 19.076, lon: 72.8777 },
    zone: 'Asia/Kolkata',
    from: '2026-11-28T07:00:00Z',
    to: '2026-11-28T09:00:00Z',
    text: 'Sat 28 Nov 12:30–14:30 UTC+5:30',
    localFrom: '2026-11-28T12:30:00+05:30',
  },
  {
    place: 'Kathmandu, UTC+5:45',
    point: { lat: 27.7172, lon: 85.324 },
    zone: 'Asia/Kathmandu',
    from: '2026-11-28T01:15:00Z',
    to: '2026-11-28T03:15:00Z',
    text: 'Sat 28 Nov 07:00–09:00 UTC+5:45',
    localFrom: '2026-11-28T07:00:00+05:45',
  },
  {
    place: 'Sydney as its clocks go forward (southern spring)',
    point: { lat: -33.8688, lon: 151.2093 },
    zone: 'Australia/Sydney',
    from: '2026-10-03T15:00:00Z',
    to: '2026-10-03T18:00:00Z',
    text: 'Sun 4 Oct 01:00 UTC+10–05:00 UTC+11',
    localFrom: '2026-10-04T01:00:00+10:00',
  },
  {
    place: 'Christchurch as its clocks go back (southern autumn)',
    point: { lat: -43.53, lon: 172.63 },
    zone: 'Pacific/Auckland',
    from: '2026-04-04T12:00:00Z',
    to: '2026-04-04T15:00:00Z',
    text: 'Sun 5 Apr 01:00 UTC+13–03:00 UTC+12',
    localFrom: '2026-04-05T01:00:00+13:00',
  },
  {
    place: 'Paris as its clocks go forward',
    point: { lat: 48.8566, lon: 2.3522 },
    zone: 'Europe/Paris',
    from: '2026-03-29T00:00:00Z',
    to: '2026-03-29T03:00:00Z',
    text: 'Sun 29 Mar 01:00 CET–05:00 CEST',
    localFrom: '2026-03-29T01:00:00+01:00',
  },
  {
    place: 'Boulder as its clocks go back',
    point: { lat: 40.015, lon: -105.2706 },
    zone: 'America/Denver',
    from: '2026-11-01T06:00:00Z',
    to: '2026-11-01T10:00:00Z',
    text: 'Sun 1 Nov 00:00 MDT–03:00 MST',
    localFrom: '2026-11-01T00:00:00-06:00',
  },
  {
    place: 'Taveuni, Fiji, east of the antimeridian (longitude −179.9)',
    point: { lat: -16.85, lon: -179.95 },
    zone: 'Pacific/Fiji',
    from: '2026-11-27T20:00:00Z',
    to: '2026-11-27T23:00:00Z',
    text: 'Sat 28 Nov 08:00–11:00 UTC+12',
    localFrom: '2026-11-28T08:00:00+12:00',
  },
  {
    place: 'Kiritimati, UTC+14: the same instant is a day ahead of Hawaii',
    point: { lat: 1.87, lon: -157.4 },
    zone: 'Pacific/Kiritimati',
    from: '2026-11-27T18:00:00Z',
    to: '2026-11-27T20:00:00Z',
    text: 'Sat 28 Nov 08:00–10:00 UTC+14',
    localFrom: '2026-11-28T08:00:00+14:00',
  },
  {
    place: 'Honolulu, the same instant',
    point: { lat: 21.3069, lon: -157.8583 },
    zone: 'Pacific/Honolulu',
    from: '2026-11-27T18:00:00Z',
    to: '2026-11-27T20:00:00Z',
    text: 'Fri 27 Nov 08:00–10:00 HST',
    localFrom: '2026-11-27T08:00:00-10:00',
  },
  {
    place: 'Girona, across midnight',
    point: { lat: 41.98, lon: 2.82 },
    zone: 'Europe/Madrid',
    from: '2026-11-27T20:00:00Z',
    to: '2026-11-28T00:00:00Z',
    text: 'Fri 27 Nov 21:00–Sat 28 Nov 01:00 CET',
    localFrom: '2026-11-27T21:00:00+01:00',
  },
  {
    place: 'London, a window ending at midnight',
    point: { lat: 51.5072, lon: -0.1276 },
    zone: 'Europe/London',
    from: '2026-11-27T18:00:00Z',
    to: '2026-11-28T00:00:00Z',
    text: 'Fri 27 Nov 18:00–00:00 GMT',
    localFrom: '2026-11-27T18:00:00+00:00',
  },
] as const;

describe('local time at a place', () => {
  it.each(TABLE)('$place', (row) => {
    expect(timeZoneAt(row.point)).toBe(row.zone);
    expect(localSpan(at(row.from), at(row.to), row.zone)).toBe(row.text);
    expect(localIso(at(row.from), row.zone)).toBe(row.localFrom);
    // The local form is the same instant as the UTC form.
    expect(Date.parse(localIso(at(row.to), row.zone))).toBe(Date.parse(row.to));
  });

  it('names a zone by its letters where riders use them, else by its offset', () => {
    const t = at('2026-07-04T12:00:00Z');
    expect(zoneAbbreviation(t, 'Europe/Paris')).toBe('CEST');
    expect(zoneAbbreviation(t, 'Europe/London')).toBe('BST');
    expect(zoneAbbreviation(t, 'America/New_York')).toBe('EDT');
    expect(zoneAbbreviation(t, 'Asia/Tokyo')).toBe('UTC+9');
    expect(zoneAbbreviation(t, 'Etc/GMT+5')).toBe('UTC-5');
    expect(zoneAbbreviation(t, 'UTC')).toBe('UTC');
    // Letters that read as a word beside the weather are left for the offset: "dry … WET" never.
    expect(zoneAbbreviation(at('2026-11-28T12:00:00Z'), 'Atlantic/Canary')).toBe('UTC');
    expect(zoneAbbreviation(t, 'Europe/Lisbon')).toBe('UTC+1');
    expect(zoneAbbreviation(t, 'Africa/Nairobi')).toBe('UTC+3');
    expect(localDateTime(t, 'America/Sao_Paulo')).toBe('Sat 4 Jul 09:00 UTC-3');
  });

  it('wraps a longitude past 180° and never throws for a point at sea or a pole', () => {
    expect(timeZoneAt({ lat: -16.85, lon: 180.05 })).toBe('Pacific/Fiji');
    for (const point of [
      { lat: 0, lon: -140 },
      { lat: 90, lon: 0 },
      { lat: -90, lon: 45 },
    ])
      expect(localIso(0, timeZoneAt(point))).toMatch(/^19(70|69)-/);
  });

  it('reads the same instant and the same wall clock as ICU for any time and zone (property)', () => {
    const zones = TABLE.map((r) => r.zone);
    fc.assert(
      fc.property(
        fc.integer({ min: at('2026-01-01T00:00:00Z'), max: at('2030-12-31T00:00:00Z') }),
        fc.constantFrom(...zones),
        (unixS, zone) => {
          const local = localIso(unixS, zone);
          expect(Date.parse(local)).toBe(unixS * 1000);
          const icu = new Intl.DateTimeFormat('en-GB', {
            timeZone: zone,
            weekday: 'short',
            day: 'numeric',
            month: 'short',
            hour: '2-digit',
            minute: '2-digit',
            hourCycle: 'h23',
          }).format(new Date(unixS * 1000));
          // en-GB: "Sat 28 Nov, 08:00"
          expect(localDateTime(unixS, zone).startsWith(icu.replace(',', ''))).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
  });
});
