/**
 * Which data sources this server reads, live or demo and from where, and
 * how each live one fared lately: what the start log prints (one line per
 * source) and `/health` reports (`sources`). Built once per app from the
 * settings; the forecast and the online geocoder tell it how each upstream
 * request went, and the startup check asks every live source's address once
 * so that an unreachable one is said at start, not at a rider's first
 * search. Per process: each instance reports what it has seen itself.
 */
import { forecastOutage } from '../data/forecast/forecast-outage.ts';
import type { Settings } from './settings.ts';

export type SourceName = 'forecast' | 'ensemble' | 'geocoder' | 'discovery' | 'elevation';

/** What answers for a source: live (a service at a URL), demo (offline, shipped or synthetic) or off. */
export interface SourceLine {
  readonly name: SourceName;
  readonly mode: 'live' | 'demo' | 'off';
  /** Who answers, in words: "Open-Meteo", "synthetic weather made here". */
  readonly provider: string;
  /** The address asked, for a live source. */
  readonly url: string | null;
}

/** How a live source fared: answered, could not be reached, or was reached and failed. */
export type SourceState = 'answering' | 'unreachable' | 'failing' | 'not_asked';

export interface SourceReport extends SourceLine {
  readonly state: SourceState;
  /** ISO time of the last answer, or null. */
  readonly last_ok_at: string | null;
  /** ISO time of the last failure, or null. */
  readonly last_failure_at: string | null;
  /** The last failure in one sentence, or null. */
  readonly last_failure: string | null;
}

/** Every source of a server, from its settings: the one place the start log and `/health` learn them. */
export function sourceLines(settings: Settings): SourceLine[] {
  const { forecast, ensemble, geocoder, discovery } = settings;
  const online = discovery.mode === 'online';
  return [
    forecast.source === 'open-meteo'
      ? { name: 'forecast', mode: 'live', provider: 'Open-Meteo', url: forecast.baseUrl }
      : {
          name: 'forecast',
          mode: 'demo',
          provider: 'synthetic weather made here, labelled in every answer',
          url: null,
        },
    ensemble.source === 'open-meteo'
      ? {
          name: 'ensemble',
          mode: 'live',
          provider: `Open-Meteo ensemble (${ensemble.model})`,
          url: ensemble.baseUrl,
        }
      : ensemble.source === 'demo'
        ? {
            name: 'ensemble',
            mode: 'demo',
            provider: 'synthetic members around the demo forecast',
            url: null,
          }
        : {
            name: 'ensemble',
            mode: 'off',
            provider: settings.live
              ? 'off: live turns it on only with OPEN_METEO_API_KEY (WOS_ENSEMBLE=open-meteo asks for it anyway)'
              : 'off',
            url: null,
          },
    geocoder.source === 'open-meteo'
      ? { name: 'geocoder', mode: 'live', provider: 'Open-Meteo geocoding', url: geocoder.baseUrl }
      : { name: 'geocoder', mode: 'demo', provider: 'the embedded GeoNames gazetteer', url: null },
    online
      ? { name: 'discovery', mode: 'live', provider: 'Overpass', url: discovery.overpassUrl }
      : {
          name: 'discovery',
          mode: 'demo',
          provider: 'the shipped OpenStreetMap extracts (Andorra, Monaco)',
          url: null,
        },
    online
      ? { name: 'elevation', mode: 'live', provider: 'Open-Meteo elevation', url: discovery.elevationUrl }
      : { name: 'elevation', mode: 'demo', provider: 'the shipped SRTM height tiles', url: null },
  ];
}

/** A failure in one sentence, told apart as `forecast-outage.ts` tells a forecast's. */
function failureSentence(
  error: unknown,
  name: SourceName,
  provider: string,
  nowMs: number,
): { state: SourceState; sentence: string } {
  const outage = name === 'forecast' ? forecastOutage(error, 'open-meteo', nowMs) : null;
  if (outage)
    return { state: outage.reach === 'unreachable' ? 'unreachable' : 'failing', sentence: outage.sentence };
  const message = error instanceof Error ? error.message : String(error);
  const unreachable =
    (error instanceof Error &&
      error.name === 'GeocodingError' &&
      'failure' in error &&
      error.failure === 'network') ||
    (error instanceof TypeError && /fetch failed/.test(message));
  return unreachable
    ? {
        state: 'unreachable',
        sentence: `This server cannot reach ${provider} (no network or DNS): check its connection.`,
      }
    : { state: 'failing', sentence: message };
}

/** The status of every source, told of outcomes as they come. */
export interface SourceStatus {
  readonly lines: readonly SourceLine[];
  /** How a request to a live source went: `null` when it answered, else its error. */
  told(name: SourceName, failure: unknown): void;
  /** Every source with how it fared, for `/health`. */
  reports(): SourceReport[];
  /** Asks every live source's address once (any HTTP answer means reachable); one log line each. */
  check(log: (line: string) => void, timeoutMs?: number): Promise<void>;
}

interface Fared {
  okAt: number | null;
  failureAt: number | null;
  failure: string | null;
  state: SourceState;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** One line of the start log: "forecast: live, Open-Meteo at https://…" or "forecast: demo, …". */
export function sourceLogLine(
  line: SourceLine,
  fared?: { state: SourceState; failure: string | null },
): string {
  const where = line.url === null ? '' : ` at ${line.url}`;
  const head =
    line.mode === 'off'
      ? `${line.name}: ${line.provider}`
      : `${line.name}: ${line.mode}, ${line.provider}${where}`;
  if (!fared || line.mode !== 'live') return head;
  return fared.state === 'answering' ? `${head} (reachable)` : `${head}: ${fared.failure ?? fared.state}`;
}

export function createSourceStatus(settings: Settings, now: () => number = Date.now): SourceStatus {
  const lines = sourceLines(settings);
  const fared = new Map<SourceName, Fared>(
    lines.map((line) => [line.name, { okAt: null, failureAt: null, failure: null, state: 'not_asked' }]),
  );
  const provider = (name: SourceName) => lines.find((line) => line.name === name)?.provider ?? name;

  function told(name: SourceName, failure: unknown): void {
    const entry = fared.get(name);
    if (!entry) return;
    if (failure === null) {
      entry.okAt = now();
      entry.state = 'answering';
      return;
    }
    const { state, sentence } = failureSentence(failure, name, provider(name), now());
    entry.failureAt = now();
    entry.failure = sentence;
    entry.state = state;
  }

  async function probe(line: SourceLine, timeoutMs: number): Promise<void> {
    if (line.mode !== 'live' || line.url === null) return;
    try {
      const response = await fetch(line.url, { signal: AbortSignal.timeout(timeoutMs) });
      await response.body?.cancel();
      told(line.name, null);
    } catch (error) {
      const timedOut = error instanceof Error && error.name === 'TimeoutError';
      if (timedOut) {
        told(line.name, new Error(`${line.provider} did not answer within ${timeoutMs / 1000} s.`));
      } else {
        told(line.name, error);
      }
    }
  }

  return {
    lines,
    told,
    reports: () =>
      lines.map((line) => {
        const entry = fared.get(line.name);
        return {
          ...line,
          state: line.mode === 'live' ? (entry?.state ?? 'not_asked') : 'not_asked',
          last_ok_at: iso(entry?.okAt ?? null),
          last_failure_at: iso(entry?.failureAt ?? null),
          last_failure: entry?.failure ?? null,
        };
      }),
    async check(log, timeoutMs = 5000) {
      log(
        settings.live
          ? 'data: live (WOS_DATA=live, or on Vercel); each source below can be set alone'
          : 'data: demo (npm start -- --live, or WOS_DATA=live, for real forecasts and roads)',
      );
      await Promise.all(lines.map((line) => probe(line, timeoutMs)));
      for (const line of lines) {
        const entry = fared.get(line.name);
        log(sourceLogLine(line, entry && { state: entry.state, failure: entry.failure }));
      }
    },
  };
}
