/**
 * A time-zone table built ahead of time: for each IANA zone, its UTC offset
 * and the abbreviation `zoneAbbreviation` gives, from one change to the next,
 * over a bounded span of years. With it `src/core/local-time.ts` reads a
 * clock by arithmetic on the offset instead of through `Intl.DateTimeFormat`,
 * whose first use in a process loads ICU's zone and locale data (most of the
 * time a cold answer spends on its times). The build writes the table from
 * the same runtime's `Intl` (scripts/data/zone-table.ts), so it holds the
 * answers `Intl` would give; outside its span, or for a zone it does not
 * name, `Intl` answers as before. Why and what it saves:
 * docs/decisions/0033-local-times-from-a-zone-table.md.
 *
 * The layout is text, one line per distinct rule, so that reading it costs a
 * split of a few hundred lines and a rule is decoded only when its zone is
 * first asked:
 *
 * ```
 * wos-zone-table 1\t<tz>\t<icu>\t<cldr>\t<from>\t<to>
 * <states>|<first state>|<changes>\t<zone> <zone> …
 * ```
 *
 * `<tz>`, `<icu>` and `<cldr>` are the versions of the data it was made
 * from; `<from>` and `<to>` bound the span in unix seconds (from included,
 * to excluded). `<states>` lists `<offset minutes>=<abbreviation>` joined
 * by `,`; `<first state>` is the index of the state at `<from>`; `<changes>`
 * lists `<seconds since the previous change, base 36>.<state index>` joined
 * by `,`, the first counted from `<from>`. Zones that give the same answers
 * over the span (links such as Asia/Kolkata and Asia/Calcutta, and zones
 * that merely agree) share one line.
 */

/** What a zone's clock reads like between two changes. */
export interface ZoneState {
  /** Minutes ahead of UTC, e.g. 330 for UTC+5:30, −180 for UTC−3. */
  readonly offsetMinutes: number;
  /** What `zoneAbbreviation` answers: "CET", "UTC+5:30", "UTC". */
  readonly abbreviation: string;
}

/** One period of a zone: the state from `startS` (unix seconds) to the next period's start. */
export interface ZonePeriod extends ZoneState {
  readonly startS: number;
}

/** The versions of the time-zone and locale data a table was made from. */
export interface ZoneDataVersions {
  readonly tz: string;
  readonly icu: string;
  readonly cldr: string;
}

/** A read table: the state of a zone at an instant, or undefined where the table cannot say. */
export interface ZoneTable {
  readonly versions: ZoneDataVersions;
  /** The span covered, unix seconds: `fromS` included, `toS` excluded. */
  readonly fromS: number;
  readonly toS: number;
  /** The state at unix millisecond `ms` (a `Date`'s time value); undefined outside the span or for a zone not in the table. */
  stateAt(timeZone: string, ms: number): ZoneState | undefined;
  /** The instants (unix seconds) inside the span at which the zone's state changes; undefined for a zone not in the table. */
  changesOf(timeZone: string): readonly number[] | undefined;
}

/** What the build writes: the span, the data versions and each zone's periods. */
export interface ZoneTableContents {
  readonly versions: ZoneDataVersions;
  readonly fromS: number;
  readonly toS: number;
  /** Each zone with its periods in time order, the first starting at `fromS`. */
  readonly zones: ReadonlyMap<string, readonly ZonePeriod[]>;
}

const MAGIC = 'wos-zone-table 1';
/** Characters the layout uses as separators, which no abbreviation or zone name may hold. */
const SEPARATORS = /[\t\n |,=.]/;

/** The text of a table (see the layout above). */
export function formatZoneTable(source: ZoneTableContents): string {
  const { tz, icu, cldr } = source.versions;
  const header = [MAGIC, tz, icu, cldr, String(source.fromS), String(source.toS)];
  if (header.some((field) => /[\t\n]/.test(field)))
    throw new Error('A table version holds a tab or a newline.');
  const zonesOfRule = new Map<string, string[]>();
  for (const [zone, periods] of [...source.zones].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (SEPARATORS.test(zone)) throw new Error(`The zone name ${JSON.stringify(zone)} holds a separator.`);
    const rule = formatRule(periods, source.fromS, source.toS);
    zonesOfRule.set(rule, [...(zonesOfRule.get(rule) ?? []), zone]);
  }
  const lines = [...zonesOfRule].map(([rule, zones]) => `${rule}\t${zones.join(' ')}`);
  return `${header.join('\t')}\n${lines.join('\n')}\n`;
}

function formatRule(periods: readonly ZonePeriod[], fromS: number, toS: number): string {
  const states: string[] = [];
  const indexOf = (period: ZonePeriod): number => {
    if (
      !Number.isInteger(period.offsetMinutes) ||
      SEPARATORS.test(period.abbreviation) ||
      period.abbreviation === ''
    )
      throw new Error(`A period cannot be written: ${JSON.stringify(period)}.`);
    const state = `${period.offsetMinutes}=${period.abbreviation}`;
    const known = states.indexOf(state);
    return known >= 0 ? known : states.push(state) - 1;
  };
  const [first, ...rest] = periods;
  if (first?.startS !== fromS) throw new Error('A zone\u2019s first period must start where the table does.');
  const firstState = indexOf(first);
  let previous = fromS;
  const changes = rest.map((period) => {
    if (!Number.isInteger(period.startS) || period.startS <= previous || period.startS >= toS)
      throw new Error(`Periods must start at whole seconds, in order, inside the span: ${period.startS}.`);
    const change = `${(period.startS - previous).toString(36)}.${indexOf(period)}`;
    previous = period.startS;
    return change;
  });
  return `${states.join(',')}|${firstState}|${changes.join(',')}`;
}

/** A zone's rule, decoded on its first use: the start of each period (unix ms) and its state. */
interface DecodedRule {
  readonly startsMs: readonly number[];
  readonly states: readonly ZoneState[];
}

function decodeRule(rule: string, fromS: number): DecodedRule {
  const [statesText = '', firstText = '', changesText = ''] = rule.split('|');
  const known = statesText.split(',').map((state): ZoneState => {
    const equals = state.indexOf('=');
    return { offsetMinutes: Number(state.slice(0, equals)), abbreviation: state.slice(equals + 1) };
  });
  const stateOf = (index: string): ZoneState => {
    const state = known[Number(index)];
    if (state === undefined) throw new Error(`The zone table names a state it does not hold: ${rule}.`);
    return state;
  };
  const startsMs = [fromS * 1000];
  const states = [stateOf(firstText)];
  let at = fromS;
  for (const change of changesText === '' ? [] : changesText.split(',')) {
    const dot = change.indexOf('.');
    at += parseInt(change.slice(0, dot), 36);
    startsMs.push(at * 1000);
    states.push(stateOf(change.slice(dot + 1)));
  }
  return { startsMs, states };
}

/**
 * Reads a table's text. Only the header is read now; a zone's line is found
 * and decoded on the zone's first question, so a process that asks one zone
 * decodes one line.
 */
export function readZoneTable(text: string): ZoneTable {
  const headerEnd = text.indexOf('\n');
  const [magic, tz = '', icu = '', cldr = '', from = '', to = ''] = text.slice(0, headerEnd).split('\t');
  const fromS = Number(from);
  const toS = Number(to);
  if (magic !== MAGIC || headerEnd < 0 || !Number.isInteger(fromS) || !Number.isInteger(toS) || fromS >= toS)
    throw new Error('Not a zone table (its first line is not a wos-zone-table 1 header).');
  const decoded = new Map<string, DecodedRule | null>();

  const ruleOf = (timeZone: string): DecodedRule | undefined => {
    let rule = decoded.get(timeZone);
    if (rule === undefined) {
      const line = ruleLineOf(text, headerEnd + 1, timeZone);
      rule = line === undefined ? null : decodeRule(line, fromS);
      decoded.set(timeZone, rule);
    }
    return rule ?? undefined;
  };

  return {
    versions: { tz, icu, cldr },
    fromS,
    toS,
    stateAt(timeZone, ms) {
      if (!(ms >= fromS * 1000 && ms < toS * 1000)) return undefined;
      const rule = ruleOf(timeZone);
      if (rule === undefined) return undefined;
      // A zone changes a few times a year: a scan from the end is as quick as a search.
      let i = rule.startsMs.length - 1;
      while (i > 0 && (rule.startsMs[i] ?? 0) > ms) i--;
      return rule.states[i];
    },
    changesOf(timeZone) {
      return ruleOf(timeZone)
        ?.startsMs.slice(1)
        .map((ms) => ms / 1000);
    },
  };
}

/**
 * The rule text of the line naming `timeZone`, found by a search of the text
 * (a name stands between a tab or a space and a space or a newline) rather
 * than an index of every name: a process asks a zone or two.
 */
function ruleLineOf(text: string, bodyStart: number, timeZone: string): string | undefined {
  if (timeZone === '' || SEPARATORS.test(timeZone)) return undefined;
  for (let at = text.indexOf(timeZone, bodyStart); at >= 0; at = text.indexOf(timeZone, at + 1)) {
    const before = text[at - 1];
    const after = text[at + timeZone.length];
    if ((before === '\t' || before === ' ') && (after === ' ' || after === '\n')) {
      const lineStart = text.lastIndexOf('\n', at) + 1;
      return text.slice(lineStart, text.indexOf('\t', lineStart));
    }
  }
  return undefined;
}
