/**
 * Times as a rider at the place reads them: "Sat 28 Nov 08:00–10:00 CET" in
 * text, "2026-11-28T08:00:00+01:00" beside the UTC time in data. One format
 * for every tool, alert and page, so nothing converts offsets by itself and
 * gets daylight saving wrong.
 *
 * The offsets and abbreviations come from the runtime's time-zone database.
 * Where a zone table built from that same database is in use
 * (`useZoneTable`, src/core/zone-table.ts), a clock is read by arithmetic on
 * the table's offset, so the first answer of a process loads no ICU data;
 * otherwise, and for an instant or a zone the table does not hold, through
 * `Intl.DateTimeFormat` (correct across daylight-saving changes and for
 * offsets that are not whole hours). Its first use loads ICU's data, a few
 * milliseconds once per process: the formatters are made on first use per
 * zone and kept, so an answer without a time never pays it. Both ways give
 * the same bytes (tests/unit/zone-table.test.ts).
 */
import type { ZoneState, ZoneTable } from './zone-table.ts';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sept', 'Oct', 'Nov', 'Dec'] as const;
/** British English's short weekdays, as `Intl` writes them, by `getUTCDay()`. */
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;

let loadTable: (() => ZoneTable | undefined) | undefined;
let table: ZoneTable | undefined;

/**
 * Answers from the table `load` returns, read on the first question that
 * needs it (a process that never reads a clock never loads it); `undefined`
 * goes back to `Intl` alone. The layer that knows where the table lives
 * calls it (src/data/time-zone/zone-at.ts, where every zone the server
 * names comes from), since this module does no I/O and the browser pages
 * that share it do without a table. Returns the loader it replaces, so a
 * test can put it back.
 */
export function useZoneTable(
  load: (() => ZoneTable | undefined) | undefined,
): (() => ZoneTable | undefined) | undefined {
  const previous = loadTable;
  loadTable = load;
  table = undefined;
  return previous;
}

/** The table's state for the instant `Date` makes of `ms`, or undefined when `Intl` must answer. */
function tableState(ms: number, timeZone: string): ZoneState | undefined {
  if (loadTable === undefined) return undefined;
  if (table === undefined) {
    table = loadTable();
    // A loader that found no table is not asked again.
    if (table === undefined) loadTable = undefined;
  }
  return table?.stateAt(timeZone, ms);
}

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
  const date = new Date(unixS * 1000);
  const state = tableState(date.getTime(), timeZone);
  return state === undefined ? intlParts(date, timeZone) : shiftedParts(date.getTime(), state.offsetMinutes);
}

/** The wall clock `offsetMinutes` ahead of UTC at unix millisecond `ms`: the UTC reading of the shifted instant. */
function shiftedParts(ms: number, offsetMinutes: number): LocalParts {
  const wall = new Date(ms + offsetMinutes * 60_000);
  return {
    year: wall.getUTCFullYear(),
    month: wall.getUTCMonth() + 1,
    day: wall.getUTCDate(),
    weekday: WEEKDAYS[wall.getUTCDay()] ?? '',
    hour: wall.getUTCHours(),
    minute: wall.getUTCMinutes(),
    second: wall.getUTCSeconds(),
    offsetMinutes,
  };
}

function intlParts(date: Date, timeZone: string): LocalParts {
  const parts = formattersFor(timeZone).parts.formatToParts(date);
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
  const state = tableState(date.getTime(), timeZone);
  if (state !== undefined) return state.abbreviation;
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
