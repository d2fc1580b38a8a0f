/**
 * Times as a rider at the place reads them: "Sat 28 Nov 08:00–10:00 CET" in
 * text, "2026-11-28T08:00:00+01:00" beside the UTC time in data. One format
 * for every tool, alert and page, so nothing converts offsets by itself and
 * gets daylight saving wrong.
 *
 * The offsets and abbreviations come from the runtime's time-zone database
 * through `Intl.DateTimeFormat` (correct across daylight-saving changes and
 * for offsets that are not whole hours). Its first use loads ICU's data, a
 * few milliseconds once per process: the formatters are made on first use
 * per zone and kept, so an answer without a time never pays it.
 */

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sept', 'Oct', 'Nov', 'Dec'] as const;

/** A wall-clock reading at a place. */
export interface LocalParts {
  readonly year: number;
  /** 1–12. */
  readonly month: number;
  readonly day: number;
  /** "Mon" … "Sun". */
  readonly weekday: string;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
  /** Minutes ahead of UTC (negative west of Greenwich), e.g. 330 for UTC+5:30. */
  readonly offsetMinutes: number;
}

interface ZoneFormatters {
  readonly parts: Intl.DateTimeFormat;
  readonly shortGb: Intl.DateTimeFormat;
  readonly shortUs: Intl.DateTimeFormat;
}

const formatters = new Map<string, ZoneFormatters>();

function formattersFor(timeZone: string): ZoneFormatters {
  let known = formatters.get(timeZone);
  if (known === undefined) {
    known = {
      parts: new Intl.DateTimeFormat('en-GB', {
        timeZone,
        hourCycle: 'h23',
        weekday: 'short',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
        timeZoneName: 'longOffset',
      }),
      shortGb: new Intl.DateTimeFormat('en-GB', { timeZone, timeZoneName: 'short' }),
      shortUs: new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'short' }),
    };
    formatters.set(timeZone, known);
  }
  return known;
}

/** "GMT+05:30" → 330, "GMT" → 0. */
function offsetOf(name: string): number {
  const match = /^GMT(?:([+-])(\d{1,2})(?::?(\d{2}))?)?$/.exec(name);
  if (match === null) throw new RangeError(`unexpected offset name ${name}`);
  if (match[1] === undefined) return 0;
  const minutes = Number(match[2]) * 60 + Number(match[3] ?? 0);
  return match[1] === '-' ? -minutes : minutes;
}

/** The wall clock at `timeZone` at unix second `unixS`. */
export function localParts(unixS: number, timeZone: string): LocalParts {
  const parts = formattersFor(timeZone).parts.formatToParts(new Date(unixS * 1000));
  const get = (type: Intl.DateTimeFormatPartTypes): string => parts.find((p) => p.type === type)?.value ?? '';
  return {
    year: Number(get('year')),
    month: Number(get('month')),
    day: Number(get('day')),
    weekday: get('weekday'),
    hour: Number(get('hour')),
    minute: Number(get('minute')),
    second: Number(get('second')),
    offsetMinutes: offsetOf(get('timeZoneName')),
  };
}

const two = (n: number): string => String(n).padStart(2, '0');

/** "+01:00", "-03:00", "+05:45"; "+00:00" at UTC (RFC 3339 keeps "Z" for the UTC form). */
function isoOffset(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const m = Math.abs(minutes);
  return `${sign}${two(Math.floor(m / 60))}:${two(m % 60)}`;
}

/** "2026-11-28T08:00:00+01:00": the local time with its offset, the same instant as the UTC ISO time. */
export function localIso(unixS: number, timeZone: string): string {
  const p = localParts(unixS, timeZone);
  return (
    `${p.year}-${two(p.month)}-${two(p.day)}T${two(p.hour)}:${two(p.minute)}:${two(p.second)}` +
    isoOffset(p.offsetMinutes)
  );
}

const LETTERS = /^[A-Z]{2,5}$/;

/**
 * Abbreviations that read as English words beside the weather ("dry …
 * WET", "EAT", "CAT"): those zones are named by their offset instead.
 */
const WORDS = new Set(['WET', 'WEST', 'EAT', 'CAT', 'EAST']);

/**
 * The zone's name at that instant as riders there write it: "CET", "CEST",
 * "GMT", "BST", "MST", "EDT" where the time-zone database has a common
 * abbreviation in British or American English, else the offset: "UTC+5:30",
 * "UTC-3", "UTC+13" (and for the few whose letters make a word: Lisbon's
 * and the Canaries' WET is "UTC").
 */
export function zoneAbbreviation(unixS: number, timeZone: string): string {
  const date = new Date(unixS * 1000);
  const f = formattersFor(timeZone);
  for (const format of [f.shortGb, f.shortUs]) {
    const name = format.formatToParts(date).find((p) => p.type === 'timeZoneName')?.value ?? '';
    if (LETTERS.test(name) && !WORDS.has(name)) return name;
  }
  const minutes = localParts(unixS, timeZone).offsetMinutes;
  if (minutes === 0) return 'UTC';
  const m = Math.abs(minutes);
  return `UTC${minutes < 0 ? '-' : '+'}${Math.floor(m / 60)}${m % 60 === 0 ? '' : `:${two(m % 60)}`}`;
}

/** "Sat 28 Nov". */
function dayText(p: LocalParts): string {
  return `${p.weekday} ${p.day} ${MONTHS[p.month - 1] ?? ''}`;
}

const clockText = (p: LocalParts): string => `${two(p.hour)}:${two(p.minute)}`;

/** "Sat 28 Nov 08:00 CET". */
export function localDateTime(unixS: number, timeZone: string): string {
  const p = localParts(unixS, timeZone);
  return `${dayText(p)} ${clockText(p)} ${zoneAbbreviation(unixS, timeZone)}`;
}

/** "08:00 CET": a time on a day the reader already knows. */
export function localClock(unixS: number, timeZone: string): string {
  return `${clockText(localParts(unixS, timeZone))} ${zoneAbbreviation(unixS, timeZone)}`;
}

/**
 * "Sat 28 Nov 08:00–10:00 CET"; "Sat 28 Nov 21:00–Sun 29 Nov 01:00 CET"
 * across midnight (an end at midnight stays on the start's day:
 * "18:00–00:00"); "Sun 29 Mar 01:00 CET–04:00 CEST" across a change of
 * daylight saving, so each end carries the zone it is read in.
 */
export function localSpan(startS: number, endS: number, timeZone: string): string {
  const start = localParts(startS, timeZone);
  const end = localParts(endS, timeZone);
  const lastSecond = localParts(endS - 1, timeZone);
  const startZone = zoneAbbreviation(startS, timeZone);
  const endZone = zoneAbbreviation(endS, timeZone);
  const endDay = dayText(lastSecond) === dayText(start) ? '' : `${dayText(end)} `;
  const head = `${dayText(start)} ${clockText(start)}`;
  return startZone === endZone
    ? `${head}–${endDay}${clockText(end)} ${endZone}`
    : `${head} ${startZone}–${endDay}${clockText(end)} ${endZone}`;
}
