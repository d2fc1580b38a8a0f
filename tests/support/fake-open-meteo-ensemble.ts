import { demoMemberWindAt } from '../../src/data/forecast/ensemble-demo.ts';
import { type Clock, hourStart } from '../../src/data/forecast/types.ts';

type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** What the double does wrong on purpose, per request; `ok` answers like the real service. */
export type EnsembleFault =
  'ok' | 'rate_limited' | 'hang' | 'missing_member' | 'ragged' | 'absurd' | 'null_member_hour' | 'unit_mph';

export interface FakeEnsembleOptions {
  /** Members the model has (control + perturbed): 51 for ECMWF IFS, 31 for GEFS. */
  readonly members?: Readonly<Record<string, number>>;
  /** Faults for successive ensemble requests; the last repeats. */
  readonly faults?: readonly EnsembleFault[];
  /** The model run the metadata announces (Unix s); default: the last 6-hour boundary before now. */
  readonly runAt?: () => number;
}

/** A stand-in for ensemble-api.open-meteo.com that counts what it is asked. */
export interface FakeOpenMeteoEnsemble {
  readonly fetch: FetchLike;
  readonly requests: () => number;
  readonly metaRequests: () => number;
  readonly locations: () => number;
  readonly urls: () => readonly URL[];
}

const MODELS: Readonly<Record<string, { domain: string; members: number }>> = {
  ecmwf_ifs025: { domain: 'ecmwf_ifs025_ensemble', members: 51 },
  gfs025: { domain: 'ncep_gefs025', members: 31 },
};

const memberKey = (variable: string, member: number) =>
  member === 0 ? variable : `${variable}_member${String(member).padStart(2, '0')}`;

const numbers = (text: string | null): number[] => (text ?? '').split(',').map(Number);

/**
 * Answers GET /v1/ensemble and GET /data/<domain>/static/meta.json in
 * Open-Meteo's JSON shape: for one model, the control run unsuffixed and
 * the perturbed members `_member01` … `_memberNN`, hourly from the current
 * UTC hour, values from the demo members (so tests can compute what the
 * adapter must read). It refuses (400, like the real API) a request without
 * `models`, with another unit or without the wind variables; faults are
 * scripted per request. Nothing listens on a port: it is a fetch.
 */
export function fakeOpenMeteoEnsemble(
  clock: Clock,
  options: FakeEnsembleOptions = {},
): FakeOpenMeteoEnsemble {
  const faults = [...(options.faults ?? ['ok'])];
  const seen: URL[] = [];
  let meta = 0;
  let sizes = 0;
  const runAt = options.runAt ?? (() => Math.floor(clock() / 1000 / 21_600) * 21_600);

  const fetch: FetchLike = async (input, init) => {
    const request = input instanceof Request ? input : new Request(input, init);
    const url = new URL(request.url);
    const metaMatch = /^\/data\/([a-z0-9_]+)\/static\/meta\.json$/.exec(url.pathname);
    if (metaMatch) {
      meta += 1;
      const known = Object.values(MODELS).some((m) => m.domain === metaMatch[1]);
      if (!known) return new Response('Not found', { status: 404 });
      return Response.json({
        last_run_initialisation_time: runAt(),
        last_run_availability_time: runAt() + 7 * 3600,
        temporal_resolution_seconds: 3600,
        update_interval_seconds: 21_600,
      });
    }
    seen.push(url);
    const fault = faults.length > 1 ? (faults.shift() ?? 'ok') : (faults[0] ?? 'ok');
    if (url.pathname !== '/v1/ensemble') return new Response('Not found', { status: 404 });
    const model = url.searchParams.get('models') ?? '';
    const known = MODELS[model];
    if (!known) return Response.json({ error: true, reason: `Invalid model '${model}'` }, { status: 400 });
    if (
      url.searchParams.get('wind_speed_unit') !== 'kmh' ||
      url.searchParams.get('timeformat') !== 'unixtime'
    ) {
      return Response.json(
        { error: true, reason: 'Parameter wind_speed_unit or timeformat wrong' },
        { status: 400 },
      );
    }
    if (url.searchParams.get('hourly') !== 'wind_speed_10m,wind_direction_10m') {
      return Response.json({ error: true, reason: 'hourly must be the 10 m wind' }, { status: 400 });
    }
    if (fault === 'rate_limited') {
      return Response.json({ error: true, reason: 'Minutely API request limit exceeded' }, { status: 429 });
    }
    if (fault === 'hang') {
      return new Promise<Response>((_, reject) => {
        request.signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
      });
    }
    const lats = numbers(url.searchParams.get('latitude'));
    const lons = numbers(url.searchParams.get('longitude'));
    sizes += lats.length;
    const members = options.members?.[model] ?? known.members;
    const hours = Number(url.searchParams.get('forecast_hours') ?? 7 * 24);
    const from = hourStart(clock());
    const run = runAt();
    const answers = lats.map((lat, index) => {
      const point = { lat, lon: lons[index] ?? NaN };
      const time = Array.from({ length: hours }, (_, h) => from + h * 3600);
      const hourly: Record<string, (number | null)[]> = { time };
      const units: Record<string, string> = { time: 'unixtime' };
      for (let m = 0; m < members; m++) {
        if (fault === 'missing_member' && m === 7) continue;
        const winds = time.map((t) => demoMemberWindAt(point, t, run, m));
        let speeds: (number | null)[] = winds.map((w) => w.speedKmh);
        if (fault === 'ragged' && m === 3) speeds = speeds.slice(0, -5);
        if (fault === 'absurd' && m === 12) speeds[2] = 9999;
        if (fault === 'null_member_hour' && m === 20) speeds[4] = null;
        hourly[memberKey('wind_speed_10m', m)] = speeds;
        hourly[memberKey('wind_direction_10m', m)] = winds.map((w) => w.directionDeg);
        units[memberKey('wind_speed_10m', m)] = fault === 'unit_mph' ? 'mp/h' : 'km/h';
        units[memberKey('wind_direction_10m', m)] = '°';
      }
      return {
        latitude: Math.round(lat * 100) / 100,
        longitude: Math.round(point.lon * 100) / 100,
        generationtime_ms: 3.1,
        utc_offset_seconds: 0,
        timezone: 'GMT',
        timezone_abbreviation: 'GMT',
        elevation: 400,
        ...(index > 0 ? { location_id: index } : {}),
        hourly_units: units,
        hourly,
      };
    });
    return Response.json(answers.length === 1 ? answers[0] : answers);
  };
  return {
    fetch,
    requests: () => seen.length,
    metaRequests: () => meta,
    locations: () => sizes,
    urls: () => [...seen],
  };
}
