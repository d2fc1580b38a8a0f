/**
 * Load generation with autocannon's programmatic API, against 127.0.0.1 only.
 * Each measured run follows its own warm-up, and the targets alternate
 * (baseline, service, baseline, service) so that drift in the machine hits
 * both; the best throughput of each is kept, which filters out unlucky runs.
 */
import autocannon from 'autocannon';

/** What to run; durations in seconds. */
export interface LoadSettings {
  readonly durationS: number;
  readonly warmupS: number;
  readonly connections: number;
  readonly pipelining: number;
  readonly rounds: number;
}

export interface Target {
  readonly label: string;
  readonly url: string;
  /**
   * Give every request its own URL (the target's query with a counter in
   * the wind speed), so nothing the service remembers per URL is reused.
   */
  readonly distinct?: boolean;
}

/** Throughput and latency from the best run; failure counts summed over all measured runs. */
export interface Measurement {
  readonly label: string;
  readonly requestsPerS: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly non2xx: number;
  readonly errors: number;
}

function positiveInteger(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const text = env[name];
  if (text === undefined || text.trim() === '') return fallback;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new Error(`${name} must be a positive whole number, got "${text}".`);
  }
  return value;
}

/** Defaults: 10 s measured after 2 s of warm-up, 50 connections, pipelining 1, two rounds. */
export function settingsFromEnv(env: NodeJS.ProcessEnv): LoadSettings {
  return {
    durationS: positiveInteger(env, 'BENCH_DURATION', 10),
    warmupS: 2,
    connections: positiveInteger(env, 'BENCH_CONNECTIONS', 50),
    pipelining: 1,
    rounds: 2,
  };
}

/** The longest the load phase can take, for the watchdog. */
export function loadSeconds(settings: LoadSettings, targets: number): number {
  return settings.rounds * targets * (settings.warmupS + settings.durationS);
}

let counter = 0;

/** `/v1/tailwind?wind_speed_kmh=20&…` with a wind speed from 0.000 to 299.999 that changes every request. */
function nextDistinctPath(url: URL): string {
  counter = (counter + 1) % 300_000;
  const query = new URLSearchParams(url.search);
  query.set('wind_speed_kmh', (counter / 1000).toFixed(3));
  return `${url.pathname}?${query}`;
}

async function fire(target: Target, settings: LoadSettings, durationS: number): Promise<autocannon.Result> {
  const { connections, pipelining } = settings;
  const url = new URL(target.url);
  const requests = target.distinct
    ? [
        {
          setupRequest: <R extends { path: string }>(request: R): R => ({
            ...request,
            path: nextDistinctPath(url),
          }),
        },
      ]
    : undefined;
  return autocannon({
    url: target.url,
    connections,
    pipelining,
    duration: durationS,
    ...(requests ? { requests } : {}),
  });
}

async function measure(target: Target, settings: LoadSettings): Promise<Measurement> {
  await fire(target, settings, settings.warmupS);
  const result = await fire(target, settings, settings.durationS);
  return {
    label: target.label,
    requestsPerS: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

function keepBest(previous: Measurement | undefined, next: Measurement): Measurement {
  if (previous === undefined) return next;
  const best = next.requestsPerS > previous.requestsPerS ? next : previous;
  return { ...best, non2xx: previous.non2xx + next.non2xx, errors: previous.errors + next.errors };
}

/** Runs every target once per round, in order, and returns the best measurement of each. */
export async function alternate(targets: readonly Target[], settings: LoadSettings): Promise<Measurement[]> {
  const best = new Map<string, Measurement>();
  for (let round = 1; round <= settings.rounds; round += 1) {
    for (const target of targets) {
      const measurement = await measure(target, settings);
      const rate = Math.round(measurement.requestsPerS).toLocaleString('en-US');
      console.log(
        `  round ${round}/${settings.rounds}  ${target.label.padEnd(22)} ${rate.padStart(9)} req/s`,
      );
      best.set(target.label, keepBest(best.get(target.label), measurement));
    }
  }
  return targets.map((target) => {
    const measurement = best.get(target.label);
    if (measurement === undefined) throw new Error(`No measurement for ${target.label}.`);
    return measurement;
  });
}
