import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inBBox } from '../../src/core/discovery/osm-selection.ts';
import type { BBox, OsmExtract } from '../../src/core/discovery/osm-types.ts';

/**
 * An in-process stand-in for an Overpass API instance (the unit lane starts
 * no child process): it takes the query the way Overpass does (POST form
 * `data=` or GET `?data=`), reads the areas from its `(south,west,north,east)`
 * filters and answers `[out:json]` from a fixture extract cut to those areas,
 * or with the fault it was told to give.
 */

export type OverpassFault =
  | 'none'
  | 'http429'
  | 'http504'
  | 'http400'
  /** Holds the request until the client gives up. */
  | 'hang'
  /** A valid answer padded past any small cap. */
  | 'oversize'
  | 'malformed'
  /** A 200 with a `remark` as Overpass sends when the query ran out of time. */
  | 'remark-timeout'
  /** A 200 with a `remark` as Overpass sends when the query ran out of memory. */
  | 'remark-memory';

export interface OverpassDouble {
  /** The interpreter URL to give `overpassSource`. */
  readonly url: string;
  /** Requests received so far, answered or not. */
  requests(): number;
  /** Requests being answered now, and the most there ever were at once. */
  inFlight(): number;
  maxInFlight(): number;
  /** Holds every answer this long (0: at once), as a real instance takes its time. */
  delay(ms: number): void;
  /** The `Retry-After` value sent with the 429 fault (none when undefined). */
  retryAfter(value: string | undefined): void;
  /** The query text of the last request. */
  lastQuery(): string | null;
  /** How the next requests are answered, until told otherwise. */
  fault(mode: OverpassFault): void;
  close(): Promise<void>;
}

/** The areas an Overpass QL text filters on: every `(s,w,n,e)` group of four numbers. */
export function bboxesOf(query: string): BBox[] {
  const number = '(-?\\d+(?:\\.\\d+)?)';
  const pattern = new RegExp(
    `\\(\\s*${number}\\s*,\\s*${number}\\s*,\\s*${number}\\s*,\\s*${number}\\s*\\)`,
    'g',
  );
  return [...query.matchAll(pattern)].map((m) => ({
    south: Number(m[1]),
    west: Number(m[2]),
    north: Number(m[3]),
    east: Number(m[4]),
  }));
}

/** The fixture's elements inside the query's areas, shaped as Overpass's `[out:json]` `out body`. */
function answerFor(fixture: OsmExtract, query: string): object[] {
  const areas = bboxesOf(query);
  const inside = (lat: number, lon: number) => areas.some((area) => inBBox(lat, lon, area));
  const ways = fixture.ways.filter((way) =>
    way.nodes.some((id) => {
      const node = fixture.nodes.get(id);
      return node !== undefined && inside(node.lat, node.lon);
    }),
  );
  const wanted = new Set(ways.flatMap((way) => way.nodes));
  const nodes = [...fixture.nodes.values()].filter(
    (node) => wanted.has(node.id) || (node.tags !== undefined && inside(node.lat, node.lon)),
  );
  return [
    ...nodes.map((node) => ({ type: 'node', ...node })),
    ...ways.map((way) => ({ type: 'way', id: way.id, nodes: way.nodes, tags: way.tags })),
    ...fixture.relations.map((relation) => ({ type: 'relation', ...relation })),
  ];
}

function head(timestamp: string) {
  return {
    version: 0.6,
    generator: 'Overpass API 0.7.62 (double)',
    osm3s: {
      timestamp_osm_base: timestamp,
      copyright: 'The data included in this document is from www.openstreetmap.org.',
    },
  };
}

async function queryOf(request: IncomingMessage): Promise<string | null> {
  const url = new URL(request.url ?? '/', 'http://double');
  if (request.method === 'GET') return url.searchParams.get('data');
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8')).get('data');
}

/** Starts the double on a free loopback port, answering from `fixture`. */
export async function startOverpassDouble(fixture: OsmExtract): Promise<OverpassDouble> {
  let count = 0;
  let flying = 0;
  let most = 0;
  let delayMs = 0;
  let retryAfterValue: string | undefined;
  let mode: OverpassFault = 'none';
  let last: string | null = null;
  const timestamp = (fixture.timestamp ?? '2013-05-28T17:03:15Z').replace(/\.\d+Z$/, 'Z');
  const hanging = new Set<ServerResponse>();

  const server = createServer((request, response) => {
    count++;
    flying++;
    most = Math.max(most, flying);
    response.on('close', () => flying--);
    void (async () => {
      const query = await queryOf(request);
      if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
      last = query;
      const json = (status: number, body: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(typeof body === 'string' ? body : JSON.stringify(body));
      };
      if (query === null || !query.includes('[out:json]')) {
        response.writeHead(400, { 'content-type': 'text/html' });
        response.end('<p><strong>Error</strong>: line 1: parse error: no query</p>');
        return;
      }
      switch (mode) {
        case 'http429':
          response.writeHead(429, {
            'content-type': 'text/html',
            ...(retryAfterValue === undefined ? {} : { 'retry-after': retryAfterValue }),
          });
          response.end('<p>Too many requests</p>');
          return;
        case 'http504':
          response.writeHead(504, { 'content-type': 'text/html' });
          response.end('<p>Gateway Timeout</p>');
          return;
        case 'http400':
          response.writeHead(400, { 'content-type': 'text/html' });
          response.end('<p><strong>Error</strong>: line 3: static error: unknown type</p>');
          return;
        case 'hang':
          hanging.add(response);
          response.on('close', () => hanging.delete(response));
          return;
        case 'malformed':
          json(200, '{"version":0.6,"elements":[{"type":"node"');
          return;
        case 'remark-timeout':
          json(200, {
            ...head(timestamp),
            elements: [],
            remark: 'runtime error: Query timed out in "query" at line 3 after 2 seconds.',
          });
          return;
        case 'remark-memory':
          json(200, {
            ...head(timestamp),
            elements: [],
            remark: 'runtime error: Query run out of memory using about 2048 MB of RAM.',
          });
          return;
        case 'oversize': {
          // Written in pieces without a length, as Overpass streams: the client must count.
          response.writeHead(200, { 'content-type': 'application/json' });
          const pad = JSON.stringify(answerFor(fixture, query)).slice(1, -1);
          response.write(`{"version":0.6,"osm3s":{"timestamp_osm_base":"${timestamp}"},"elements":[`);
          for (let k = 0; k < 20; k++) response.write(`${k > 0 ? ',' : ''}${pad}`);
          response.end(']}');
          return;
        }
        case 'none':
          json(200, { ...head(timestamp), elements: answerFor(fixture, query) });
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/api/interpreter`,
    requests: () => count,
    inFlight: () => flying,
    maxInFlight: () => most,
    delay: (ms) => void (delayMs = ms),
    retryAfter: (value) => void (retryAfterValue = value),
    lastQuery: () => last,
    fault: (next) => {
      mode = next;
    },
    close: async () => {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
