import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { roundHalfAway } from '../../src/core/round.ts';
import { DiscoveryError } from '../../src/data/discovery/discovery-error.ts';
import { hgtElevationSource } from '../../src/data/discovery/hgt-elevation.ts';

/** The ways the double can misbehave on demand, each one a fault the real service has shown or may show. */
export type ElevationFault =
  | { readonly kind: 'refuse'; readonly reason: string }
  | { readonly kind: 'rate-limit' }
  | { readonly kind: 'server-error' }
  /** Never answers; the socket stays open until the client gives up. */
  | { readonly kind: 'hang' }
  | { readonly kind: 'bad-json' }
  /** A well-formed answer with one height fewer than asked. */
  | { readonly kind: 'short' };

/** A stand-in for Open-Meteo's Elevation API on an in-process socket, answering from real SRTM tiles. */
export interface ElevationDouble {
  /** The endpoint, `http://127.0.0.1:<port>/v1/elevation`. */
  readonly url: string;
  /** Requests received so far (answered, refused or faulted). */
  readonly requests: () => number;
  /** Coordinates asked for, summed over all requests. */
  readonly coordinates: () => number;
  /** The number of coordinates in each request, in arrival order. */
  readonly batchSizes: () => readonly number[];
  /** Every latitude and longitude as written in the query, to check their precision. */
  readonly written: () => readonly string[];
  /** The most requests that were in flight at once. */
  readonly peakInFlight: () => number;
  /** Faults every later request with `fault` (none: answer normally), from request number `from` (1-based) on. */
  readonly fault: (fault: ElevationFault | undefined, from?: number) => void;
  readonly close: () => Promise<void>;
}

/** Open-Meteo's limit, enforced with its real 400 shape so a client that overruns it fails here too. */
const MAX_COORDINATES = 100;

/**
 * How long an answer takes when a test measures the peak in flight: long enough for concurrent
 * batches to overlap. Otherwise answers go at once: one area's discovery asks hundreds of batches,
 * and 5 ms each, two at a time, was a second of waiting per area.
 */
export const OVERLAP_DELAY_MS = 5;

function send(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(body);
}

const refuse = (res: ServerResponse, reason: string) =>
  send(res, 400, JSON.stringify({ error: true, reason }));

/** A comma list of finite numbers, or undefined when any item is not one. */
function numbers(text: string | null): number[] | undefined {
  if (text === null || text === '') return undefined;
  const values = text.split(',').map((item) => (item.trim() === '' ? Number.NaN : Number(item)));
  return values.every(Number.isFinite) ? values : undefined;
}

/**
 * Answers `GET /v1/elevation?latitude=…&longitude=…` the way Open-Meteo does
 * (`{"elevation":[…]}`, heights to 0.1 m; a 400 `{"error":true,"reason":…}`
 * for a bad or oversized request), with heights read from the SRTM tiles in
 * `dir`, so the figures a test sees are real ones.
 */
export async function startElevationDouble(
  dir: string,
  { answerDelayMs = 0 }: { readonly answerDelayMs?: number } = {},
): Promise<ElevationDouble> {
  const tiles = hgtElevationSource(dir);
  let requests = 0;
  let coordinates = 0;
  let inFlight = 0;
  let peak = 0;
  const sizes: number[] = [];
  const written: string[] = [];
  let current: { fault: ElevationFault; from: number } | undefined;

  const server = createServer((req, res) => {
    requests += 1;
    inFlight += 1;
    peak = Math.max(peak, inFlight);
    res.on('close', () => (inFlight -= 1));
    const url = new URL(req.url ?? '/', 'http://double');
    if (url.pathname !== '/v1/elevation')
      return send(res, 404, JSON.stringify({ error: true, reason: 'Not Found' }));
    const latText = url.searchParams.get('latitude');
    const lonText = url.searchParams.get('longitude');
    written.push(...(latText ?? '').split(','), ...(lonText ?? '').split(','));
    const lats = numbers(latText);
    const lons = numbers(lonText);
    sizes.push(lats?.length ?? 0);
    coordinates += lats?.length ?? 0;

    const fault = current && requests >= current.from ? current.fault : undefined;
    if (fault?.kind === 'hang') return;
    setTimeout(() => {
      if (fault?.kind === 'refuse') return refuse(res, fault.reason);
      if (fault?.kind === 'rate-limit') {
        return send(res, 429, JSON.stringify({ error: true, reason: 'Too many concurrent requests' }));
      }
      if (fault?.kind === 'server-error') return send(res, 500, 'Internal Server Error');
      if (fault?.kind === 'bad-json') return send(res, 200, '{"elevation":[12.0,');
      if (!lats || !lons) return refuse(res, 'Parameter latitude and longitude must be lists of numbers');
      if (lats.length !== lons.length) {
        return refuse(res, 'Parameter latitude and longitude must have the same number of elements');
      }
      if (lats.length > MAX_COORDINATES) {
        return refuse(res, `Only up to ${MAX_COORDINATES} coordinates can be requested at once`);
      }
      const points = lats.map((lat, i) => ({ lat, lon: lons[i] ?? Number.NaN }));
      tiles.elevations(points).then(
        (heights) => {
          const answer = heights.map((h) => roundHalfAway(h, 1));
          if (fault?.kind === 'short') answer.pop();
          send(res, 200, JSON.stringify({ elevation: answer }));
        },
        (error: unknown) => {
          if (error instanceof DiscoveryError) return refuse(res, error.message);
          send(res, 500, 'Internal Server Error');
        },
      );
    }, answerDelayMs);
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1/elevation`,
    requests: () => requests,
    coordinates: () => coordinates,
    batchSizes: () => sizes,
    written: () => written,
    peakInFlight: () => peak,
    fault: (fault, from = 1) => {
      current = fault ? { fault, from } : undefined;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
