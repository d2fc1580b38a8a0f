import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fakeOpenMeteoEnsemble, type FakeOpenMeteoEnsemble } from './fake-open-meteo-ensemble.ts';
import { fakeOpenMeteo, type FakeOpenMeteo } from './fake-open-meteo.ts';

/**
 * The in-process Open-Meteo fakes (forecast, ensemble) on a loopback port, so a server started as
 * users start it (`npm start` with WOS_FORECAST_URL and WOS_ENSEMBLE_URL) reaches them over HTTP,
 * in Open-Meteo's wire format. `/v1/forecast` goes to the forecast fake, `/v1/ensemble` and
 * `/data/…` to the ensemble fake; anything else is a 404 like the real hosts'.
 */
export interface OpenMeteoDouble {
  /** The forecast endpoint, for WOS_FORECAST_URL. */
  readonly forecastUrl: string;
  /** The ensemble origin, for WOS_ENSEMBLE_URL. */
  readonly ensembleOrigin: string;
  readonly forecast: FakeOpenMeteo;
  readonly ensemble: FakeOpenMeteoEnsemble;
  close(): Promise<void>;
}

async function toFetchRequest(request: IncomingMessage, origin: string): Promise<Request> {
  return new Request(new URL(request.url ?? '/', origin), {
    method: request.method ?? 'GET',
    headers: Object.entries(request.headers).flatMap(([name, value]) =>
      typeof value === 'string' ? [[name, value] as [string, string]] : [],
    ),
  });
}

async function send(response: Response, res: ServerResponse): Promise<void> {
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(Buffer.from(await response.arrayBuffer()));
}

export async function startOpenMeteoDouble(clock: () => number = Date.now): Promise<OpenMeteoDouble> {
  const forecast = fakeOpenMeteo(clock);
  const ensemble = fakeOpenMeteoEnsemble(clock);
  let origin = '';
  const server = createServer((req, res) => {
    void toFetchRequest(req, origin)
      .then((request) => {
        const path = new URL(request.url).pathname;
        if (path === '/v1/forecast') return forecast.fetch(request);
        if (path === '/v1/ensemble' || path.startsWith('/data/')) return ensemble.fetch(request);
        return new Response('Not found', { status: 404 });
      })
      .then((response) => send(response, res))
      .catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    forecastUrl: `${origin}/v1/forecast`,
    ensembleOrigin: origin,
    forecast,
    ensemble,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
