/**
 * The REST floor of the cold-start bench (`cold-start-floor.ts`): a bare
 * `node:http` function doing the work of the REST function's first answer,
 * `GET /v1/tailwind` with a bearing (read three numbers, split the wind with
 * the same rule from src/core, write the same JSON and headers), and nothing
 * else: no route table, no schemas, no memo. Bundled as the functions are,
 * it is what the REST function's first answer is read against.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { TAILWIND_FORMULA, windComponents } from '../src/core/wind.ts';

const numberIn = (params: URLSearchParams, name: string, min: number, max: number): number | undefined => {
  const value = Number(params.get(name) ?? Number.NaN);
  return Number.isFinite(value) && value >= min && value <= max ? value : undefined;
};

/** A Node-style handler, as Vercel calls a function whose default export is one. */
function tailwind(request: IncomingMessage, response: ServerResponse): void {
  const { searchParams } = new URL(request.url ?? '/', `https://${request.headers.host ?? 'localhost'}`);
  const speed = numberIn(searchParams, 'wind_speed_kmh', 0, 500);
  const from = numberIn(searchParams, 'wind_direction_deg', 0, 360);
  const bearing = numberIn(searchParams, 'segment_bearing_deg', 0, 360);
  if (speed === undefined || from === undefined || bearing === undefined) {
    response.writeHead(400, { 'content-type': 'application/problem+json', 'cache-control': 'no-store' });
    response.end('{"title":"Bad query"}');
    return;
  }
  const wind = windComponents({ speedKmh: speed, directionDeg: from, bearingDeg: bearing });
  const body = JSON.stringify({
    signed_tailwind_kmh: wind.signedKmh,
    crosswind_kmh: wind.crosswindKmh,
    effect: wind.effect,
    segment_bearing_deg: bearing,
    wind_speed_kmh: speed,
    wind_direction_deg: from,
    formula: TAILWIND_FORMULA,
  });
  response.writeHead(200, {
    'access-control-allow-origin': '*',
    'cache-control': 'public, max-age=86400, s-maxage=31536000',
    'content-length': String(Buffer.byteLength(body)),
    'content-type': 'application/json',
    'x-content-type-options': 'nosniff',
  });
  response.end(body);
}

export { tailwind as default };
