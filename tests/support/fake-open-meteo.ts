import { demoWindAt } from '../../src/data/forecast/demo.ts';
import { type Clock, hourStart } from '../../src/data/forecast/types.ts';

type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** A stand-in for api.open-meteo.com that counts what it is asked. */
export interface FakeOpenMeteo {
  readonly fetch: FetchLike;
  /** Requests received so far (answered or refused). */
  readonly requests: () => number;
  /** Locations asked for, summed over all requests. */
  readonly locations: () => number;
  /** The number of locations in each request, in order. */
  readonly batchSizes: () => readonly number[];
}

/** The query parameters our client must send; anything else makes the fake answer 400 like the real API. */
const REQUIRED: Readonly<Record<string, string>> = {
  hourly:
    'wind_speed_10m,wind_direction_10m,wind_gusts_10m,temperature_2m,precipitation,precipitation_probability',
  wind_speed_unit: 'kmh',
  timeformat: 'unixtime',
  timezone: 'GMT',
};

/** Open-Meteo's default horizon when `forecast_hours` is not given: 7 days. */
const DEFAULT_HOURS = 7 * 24;

function refuse(reason: string): Response {
  return Response.json({ error: true, reason }, { status: 400 });
}

const numbers = (text: string | null): number[] => (text ?? '').split(',').map(Number);

/** Open-Meteo answers the model cell's centre, not the point asked; a 0.01° snap imitates that. */
const snap = (degrees: number): number => Math.round(degrees * 100) / 100;

function location(lat: number, lon: number, index: number, hours: number, fromS: number) {
  const time = Array.from({ length: hours }, (_, h) => fromS + h * 3600);
  const wind = time.map((t) => demoWindAt({ lat, lon }, t));
  // Open-Meteo stamps precipitation with the END of the hour it fell in (the preceding hour's sum).
  const before = time.map((t) => demoWindAt({ lat, lon }, t - 3600));
  return {
    latitude: snap(lat),
    longitude: snap(lon),
    generationtime_ms: 0.2,
    utc_offset_seconds: 0,
    timezone: 'GMT',
    timezone_abbreviation: 'GMT',
    elevation: 500,
    // Open-Meteo numbers the locations of a multi-location answer from the second one on.
    ...(index > 0 ? { location_id: index } : {}),
    hourly_units: {
      time: 'unixtime',
      wind_speed_10m: 'km/h',
      wind_direction_10m: '°',
      wind_gusts_10m: 'km/h',
      temperature_2m: '°C',
      precipitation: 'mm',
      precipitation_probability: '%',
    },
    hourly: {
      time,
      wind_speed_10m: wind.map((w) => w.speedKmh),
      wind_direction_10m: wind.map((w) => w.directionDeg),
      wind_gusts_10m: wind.map((w) => w.gustsKmh),
      temperature_2m: wind.map((w) => w.temperatureC),
      precipitation: before.map((w) => w.precipitationMm),
      precipitation_probability: before.map((w) => w.precipitationProbabilityPct),
    },
  };
}

/**
 * Answers GET /v1/forecast in Open-Meteo's exact JSON shape (an object for
 * one location, an array in request order for several), hourly from the
 * start of the current UTC hour, with the demo wind as values. It checks the
 * parameters our client promises to send, so the count it keeps is the
 * count of requests the real service would accept: tests and the bench use
 * it to prove that a tool call costs at most one upstream request.
 */
export function fakeOpenMeteo(clock: Clock): FakeOpenMeteo {
  const sizes: number[] = [];
  const fetch: FetchLike = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : new Request(input, init).url);
    const lats = numbers(url.searchParams.get('latitude'));
    const lons = numbers(url.searchParams.get('longitude'));
    sizes.push(lats.length);
    const wrong = Object.entries(REQUIRED).find(([name, value]) => url.searchParams.get(name) !== value);
    const hours = Number(url.searchParams.get('forecast_hours') ?? DEFAULT_HOURS);
    const invalid = [...lats, ...lons].some((v) => !Number.isFinite(v));
    if (url.pathname !== '/v1/forecast' || wrong || invalid || lats.length !== lons.length) {
      return refuse(wrong ? `Parameter '${wrong[0]}' is missing or wrong` : 'Invalid coordinates');
    }
    if (!Number.isInteger(hours) || hours < 1 || hours > 16 * 24) return refuse('Invalid forecast_hours');
    const fromS = hourStart(clock());
    const answers = lats.map((lat, i) => location(lat, lons[i] ?? Number.NaN, i, hours, fromS));
    return Response.json(answers.length === 1 ? answers[0] : answers);
  };
  return {
    fetch,
    requests: () => sizes.length,
    locations: () => sizes.reduce((sum, n) => sum + n, 0),
    batchSizes: () => [...sizes],
  };
}
