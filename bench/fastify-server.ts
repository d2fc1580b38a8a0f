/**
 * The framework peer: `GET /v1/tailwind` written the way a Fastify user would
 * write it, with the query validated by Fastify's JSON-schema (Ajv, types
 * coerced from the query string) and the answer computed by the same core
 * functions, so it sends the same body bytes and the same headers as the
 * service. Started by index.ts in its own process like the baseline. It shows
 * what the service's own request path costs against a well-tuned framework,
 * not against the bare floor. Env: PORT, HOST.
 */
import Fastify from 'fastify';
import { PARAMETERS, type ParameterName } from '../src/core/parameters.ts';
import { isRuleProblem, resolveDirection } from '../src/core/direction.ts';
import { TAILWIND_FORMULA, windComponents } from '../src/core/wind.ts';
import { CACHE } from '../src/rest/headers.ts';

const port = Number(process.env['PORT']);
const host = process.env['HOST'] ?? '127.0.0.1';
if (!Number.isInteger(port) || port <= 0) {
  console.error('fastify-server needs PORT in its environment.');
  process.exit(2);
}

const range = (name: ParameterName) => ({
  type: 'number',
  minimum: PARAMETERS[name].min,
  maximum: PARAMETERS[name].max,
});

const querystring = {
  type: 'object',
  required: ['wind_speed_kmh', 'wind_direction_deg'],
  properties: {
    wind_speed_kmh: range('wind_speed_kmh'),
    wind_direction_deg: range('wind_direction_deg'),
    segment_bearing_deg: range('segment_bearing_deg'),
    start_lat: range('start_lat'),
    start_lon: range('start_lon'),
    end_lat: range('end_lat'),
    end_lon: range('end_lon'),
  },
} as const;

interface TailwindQuery {
  wind_speed_kmh: number;
  wind_direction_deg: number;
  segment_bearing_deg?: number;
  start_lat?: number;
  start_lon?: number;
  end_lat?: number;
  end_lon?: number;
}

const app = Fastify({ logger: false });

app.get<{ Querystring: TailwindQuery }>(
  '/v1/tailwind',
  { schema: { querystring } },
  async (request, reply) => {
    const query = request.query;
    const direction = resolveDirection(query);
    if (isRuleProblem(direction))
      return reply.code(400).send({ code: direction.code, detail: direction.detail });
    const wind = windComponents({
      speedKmh: query.wind_speed_kmh,
      directionDeg: query.wind_direction_deg,
      bearingDeg: direction.bearingDeg,
    });
    const body = JSON.stringify({
      signed_tailwind_kmh: wind.signedKmh,
      crosswind_kmh: wind.crosswindKmh,
      effect: wind.effect,
      segment_bearing_deg: direction.bearingDeg,
      wind_speed_kmh: query.wind_speed_kmh,
      wind_direction_deg: query.wind_direction_deg,
      formula: TAILWIND_FORMULA,
    });
    return (
      reply
        .header('access-control-allow-origin', '*')
        .header('cache-control', CACHE.calculation)
        .header('x-content-type-options', 'nosniff')
        .header('content-type', 'application/json')
        // Bytes, because Fastify appends `; charset=utf-8` to a string body's JSON content type.
        .send(Buffer.from(body))
    );
  },
);

app.get('/health', async () => ({ status: 'ok' }));

await app.listen({ port, host });
