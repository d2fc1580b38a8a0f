import tzLookup from '@photostructure/tz-lookup';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  localClock,
  localDateTime,
  localIso,
  localParts,
  localSpan,
  useZoneTable,
  zoneAbbreviation,
} from '../../src/core/local-time.ts';
import {
  formatZoneTable,
  readZoneTable,
  type ZonePeriod,
  type ZoneTable,
} from '../../src/core/zone-table.ts';
import { loadZoneTable } from '../../src/data/time-zone/zone-table-file.ts';
import { tableSpan, tableZones } from '../../scripts/data/zone-table.ts';

/** Everything the clock functions answer for an instant (and a span from it to `endS`) at `zone`. */
function readings(unixS: number, endS: number, zone: string) {
  return {
    parts: localParts(unixS, zone),
    iso: localIso(unixS, zone),
    abbreviation: zoneAbbreviation(unixS, zone),
    dateTime: localDateTime(unixS, zone),
    clock: localClock(unixS, zone),
    span: localSpan(unixS, endS, zone),
  };
}

/** Runs `read` with `table` in use (or `Intl` alone), then puts back what was in use. */
function using<T>(table: ZoneTable | undefined, read: () => T): T {
  const previous = useZoneTable(table === undefined ? undefined : () => table);
  try {
    return read();
  } finally {
    useZoneTable(previous);
  }
}

/** The built table (the unit lane's setup generates it with this Node), read from its file. */
const table = loadZoneTable();
const HOUR_S = 3600;

function builtTable(): ZoneTable {
  if (table === undefined) throw new Error('No usable zone table: `npm run data` writes it.');
  return table;
}

/** Asserts that the table and `Intl` give the same bytes at `unixS` (and for a span of `lengthS` from it). */
function expectSameAsIntl(zone: string, unixS: number, lengthS: number): void {
  const endS = unixS + lengthS;
  const intl = using(undefined, () => readings(unixS, endS, zone));
  const fromTable = using(builtTable(), () => readings(unixS, endS, zone));
  expect(fromTable, `${zone} at ${new Date(unixS * 1000).toISOString()}`).toEqual(intl);
}

/** Zones whose clocks are easy to get wrong, for more runs than the rest. */
const AWKWARD = [
  // Half- and quarter-hour offsets, some with daylight saving of half an hour.
  'Asia/Kolkata',
  'Asia/Kathmandu',
  'Asia/Tehran',
  'Asia/Yangon',
  'America/St_Johns',
  'Australia/Adelaide',
  'Australia/Darwin',
  'Australia/Eucla',
  'Australia/Lord_Howe',
  'Pacific/Chatham',
  'Pacific/Marquesas',
  // Southern hemisphere daylight saving.
  'Australia/Sydney',
  'Pacific/Auckland',
  'America/Santiago',
  'America/Asuncion',
  'Africa/Johannesburg',
  // Near the date line.
  'Pacific/Apia',
  'Pacific/Kiritimati',
  'Pacific/Tongatapu',
  'Pacific/Fiji',
  'Pacific/Pago_Pago',
  'Pacific/Niue',
  'Etc/GMT-14',
  'Etc/GMT+12',
  // Odd rules: Ramadan pauses, a station on two offsets, the northern hemisphere's usual.
  'Africa/Casablanca',
  'Antarctica/Troll',
  'Europe/Paris',
  'America/Denver',
];

describe('the zone table', () => {
  it('is built and in use for this runtime, over the span the build promises', () => {
    const built = builtTable();
    expect(built.versions).toEqual({
      tz: process.versions.tz,
      icu: process.versions.icu,
      cldr: process.versions.cldr,
    });
    const now = Date.now() / 1000;
    expect(built.fromS).toBeLessThanOrEqual(now - 365 * 86_400);
    expect(built.toS).toBeGreaterThanOrEqual(now + 9 * 365 * 86_400);
    for (const zone of tableZones()) expect(built.changesOf(zone), zone).toBeDefined();
  });

  it('holds every zone tz-lookup answers, on a world grid and near every one of its zones', () => {
    const built = builtTable();
    const answered = new Set<string>();
    for (let lat = -89.5; lat < 90; lat += 1.5) {
      for (let lon = -179.5; lon < 180; lon += 1.5) answered.add(tzLookup(lat, lon));
    }
    fc.assert(
      fc.property(
        fc.double({ min: -89.99, max: 89.99, noNaN: true }),
        fc.double({ min: -180, max: 179.99, noNaN: true }),
        (lat, lon) => {
          answered.add(tzLookup(lat, lon));
        },
      ),
      { numRuns: 2_000 },
    );
    expect(answered.size).toBeGreaterThan(300);
    const missing = [...answered].filter((zone) => built.changesOf(zone) === undefined);
    expect(missing).toEqual([]);
  });

  it('reads every zone as Intl does at random instants across its span', () => {
    const built = builtTable();
    const zones = tableZones();
    expect(zones).toEqual(
      expect.arrayContaining([...Intl.supportedValuesOf('timeZone'), 'UTC', 'Asia/Kolkata']),
    );
    for (const zone of zones) {
      fc.assert(
        fc.property(
          fc.integer({ min: built.fromS * 1000, max: built.toS * 1000 - 1 }),
          fc.integer({ min: 1, max: 30 * HOUR_S }),
          (ms, lengthS) => expectSameAsIntl(zone, ms / 1000, lengthS),
        ),
        { numRuns: 8 },
      );
    }
  });

  it('reads every zone as Intl does within an hour of each change, both sides', () => {
    const built = builtTable();
    let changes = 0;
    for (const zone of tableZones()) {
      const at = built.changesOf(zone) ?? [];
      changes += at.length;
      for (const change of at) {
        // The second before, the second of, and a random moment either side within the hour.
        expectSameAsIntl(zone, change - 1, HOUR_S);
        expectSameAsIntl(zone, change, HOUR_S);
      }
      if (at.length === 0) continue;
      fc.assert(
        fc.property(
          fc.constantFrom(...at),
          fc.integer({ min: -HOUR_S * 1000, max: HOUR_S * 1000 }),
          fc.integer({ min: 1, max: 4 * HOUR_S }),
          (change, deltaMs, lengthS) => expectSameAsIntl(zone, change + deltaMs / 1000, lengthS),
        ),
        { numRuns: at.length },
      );
    }
    // Daylight saving in a hundred-odd zones twice a year: a table without changes is wrong.
    expect(changes).toBeGreaterThan(1_000);
  });

  it('reads the awkward zones as Intl does, more often', () => {
    const built = builtTable();
    for (const zone of AWKWARD) {
      const changes = built.changesOf(zone);
      expect(changes, zone).toBeDefined();
      const near = (changes ?? []).length === 0 ? [built.fromS] : (changes ?? []);
      fc.assert(
        fc.property(
          fc.oneof(
            fc.integer({ min: built.fromS, max: built.toS - 1 }),
            fc
              .tuple(fc.constantFrom(...near), fc.integer({ min: -2 * HOUR_S, max: 2 * HOUR_S }))
              .map(([c, d]) => c + d),
          ),
          fc.integer({ min: 1, max: 48 * HOUR_S }),
          (unixS, lengthS) => expectSameAsIntl(zone, unixS, lengthS),
        ),
        { numRuns: 100 },
      );
    }
  });

  it('leaves instants outside its span and zones it does not hold to Intl, which answers as before', () => {
    const built = builtTable();
    const outside = fc.oneof(
      fc.integer({ min: 0, max: built.fromS - 1 }),
      fc.integer({ min: built.toS, max: built.toS + 50 * 365 * 86_400 }),
    );
    fc.assert(
      fc.property(fc.constantFrom(...AWKWARD), outside, (zone, unixS) => {
        expect(built.stateAt(zone, unixS * 1000)).toBeUndefined();
        expectSameAsIntl(zone, unixS, HOUR_S);
      }),
      { numRuns: 200 },
    );
    // Names Intl accepts that the table does not hold: other spellings and other links.
    const unknown = ['europe/paris', 'US/Eastern', 'America/Fort_Wayne', 'Etc/GMT+0', 'EST5EDT'].filter(
      (zone) => built.changesOf(zone) === undefined,
    );
    expect(unknown.length).toBeGreaterThanOrEqual(3);
    fc.assert(
      fc.property(
        fc.constantFrom(...unknown),
        fc.integer({ min: built.fromS, max: built.toS - 1 }),
        (zone, unixS) => {
          expect(built.stateAt(zone, unixS * 1000)).toBeUndefined();
          expectSameAsIntl(zone, unixS, HOUR_S);
        },
      ),
      { numRuns: 100 },
    );
    // A zone Intl does not know fails as it did, and so does an instant that is not one.
    expect(() => using(built, () => localIso(built.fromS, 'Mars/Olympus_Mons'))).toThrow(RangeError);
    expect(() => using(built, () => localIso(Number.NaN, 'Europe/Paris'))).toThrow(RangeError);
  });
});

describe('the zone table layout', () => {
  const SPAN = { fromS: 1_700_000_000, toS: 1_700_000_000 + 20 * 365 * 86_400 };
  const abbreviation = fc.oneof(
    fc.stringMatching(/^[A-Z]{2,5}$/),
    fc.integer({ min: -12, max: 14 }).map((h) => `UTC${h < 0 ? '-' : '+'}${Math.abs(h)}:30`),
  );
  const periods = fc
    .tuple(
      fc.uniqueArray(fc.integer({ min: SPAN.fromS + 1, max: SPAN.toS - 1 }), { maxLength: 40 }),
      fc.array(fc.record({ offsetMinutes: fc.integer({ min: -720, max: 840 }), abbreviation }), {
        minLength: 41,
        maxLength: 41,
      }),
    )
    .map(([starts, states]): ZonePeriod[] =>
      [SPAN.fromS, ...starts.sort((a, b) => a - b)].map((startS, i) => ({
        startS,
        ...(states[i] ?? { offsetMinutes: 0, abbreviation: 'UTC' }),
      })),
    );
  const zoneName = fc.stringMatching(/^[A-Z][a-z]{1,8}\/[A-Za-z_+-]{1,12}$/);

  it('reads back the state of every zone at any instant as written', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(zoneName, periods), {
          selector: ([zone]) => zone,
          minLength: 1,
          maxLength: 8,
        }),
        fc.integer({ min: SPAN.fromS * 1000, max: SPAN.toS * 1000 - 1 }),
        (zones, ms) => {
          const read = readZoneTable(
            formatZoneTable({ versions: { tz: 'x', icu: 'y', cldr: 'z' }, ...SPAN, zones: new Map(zones) }),
          );
          expect(read.versions).toEqual({ tz: 'x', icu: 'y', cldr: 'z' });
          for (const [zone, written] of zones) {
            const expected = written.filter((period) => period.startS * 1000 <= ms).at(-1);
            expect(read.stateAt(zone, ms)).toEqual({
              offsetMinutes: expected?.offsetMinutes,
              abbreviation: expected?.abbreviation,
            });
            expect(read.changesOf(zone)).toEqual(written.slice(1).map((period) => period.startS));
            expect(read.stateAt(zone, SPAN.toS * 1000)).toBeUndefined();
            expect(read.stateAt(zone, SPAN.fromS * 1000 - 1)).toBeUndefined();
          }
          expect(read.stateAt('Nowhere/Else', ms)).toBeUndefined();
        },
      ),
      { numRuns: 200 },
    );
  });

  it('refuses what it could not read back', () => {
    const zones = (name: string, period: Partial<ZonePeriod>) =>
      new Map([[name, [{ startS: SPAN.fromS, offsetMinutes: 60, abbreviation: 'CET', ...period }]]]);
    const versions = { tz: 'x', icu: 'y', cldr: 'z' };
    expect(() => formatZoneTable({ versions, ...SPAN, zones: zones('Europe/Pa ris', {}) })).toThrow();
    expect(() =>
      formatZoneTable({ versions, ...SPAN, zones: zones('Europe/Paris', { abbreviation: 'C,T' }) }),
    ).toThrow();
    expect(() =>
      formatZoneTable({ versions, ...SPAN, zones: zones('Europe/Paris', { startS: SPAN.fromS + 1 }) }),
    ).toThrow();
    expect(() => readZoneTable('not a table\n')).toThrow();
  });

  it('spans two years before the build year to ten after it', () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2090, 0, 1) }), (nowMs) => {
        const { fromS, toS } = tableSpan(nowMs);
        const year = new Date(nowMs).getUTCFullYear();
        expect(new Date(fromS * 1000).toISOString()).toBe(`${year - 2}-01-01T00:00:00.000Z`);
        expect(new Date(toS * 1000).toISOString()).toBe(`${year + 11}-01-01T00:00:00.000Z`);
      }),
    );
  });
});

describe('the clocks with the table in use', () => {
  let previous: ReturnType<typeof useZoneTable>;
  beforeAll(() => {
    previous = useZoneTable(() => builtTable());
  });
  afterAll(() => {
    useZoneTable(previous);
  });

  it('ask Intl nothing for a zone and instant the table holds, and ask it outside the span', () => {
    const prototype = Intl.DateTimeFormat.prototype;
    const original = prototype.formatToParts;
    let asked = 0;
    prototype.formatToParts = function (this: Intl.DateTimeFormat, date?: Date | number) {
      asked++;
      return original.call(this, date);
    };
    try {
      const at = builtTable().fromS + 400 * 86_400;
      expect(localSpan(at, at + 7200, 'America/Argentina/Ushuaia')).toMatch(
        /^\w{3} \d{1,2} \w{3,4} \d\d:\d\d–/,
      );
      expect(localIso(at, 'Asia/Kathmandu')).toMatch(/\+05:45$/);
      expect(asked).toBe(0);
      expect(localIso(builtTable().toS + 86_400, 'Asia/Kathmandu')).toMatch(/\+05:45$/);
      expect(asked).toBeGreaterThan(0);
    } finally {
      prototype.formatToParts = original;
    }
  });
});
