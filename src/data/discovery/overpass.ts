import ky, { isHTTPError, isNetworkError, isTimeoutError } from 'ky';
import { z } from 'zod';
import { NATURAL_POINTS, PLACE_POINTS, TOP_POINTS, selectedAs } from '../../core/discovery/osm-selection.ts';
import type { BBox, OsmExtract, OsmNode, OsmRelation, OsmWay } from '../../core/discovery/osm-types.ts';
import { OVERPASS_HIGHWAYS } from '../../core/discovery/rideable-way.ts';
import { declaredLength, readBoundedBody } from '../../http/bounded-body.ts';
import { DiscoveryError } from './discovery-error.ts';
import type { OsmSource } from './types.ts';

/**
 * Road data online from an Overpass API instance: one `[out:json]` query per
 * area selecting what the file reader keeps (rideable highway classes from
 * the one list in `rideable-way.ts`, their nodes, named points, bicycle
 * routes), every fault mapped to a `DiscoveryError`. No retries here: the
 * pipeline decides whether and when to ask a busy instance again.
 */

/** Overpass's own limit in seconds when none is given; public instances refuse much more. */
export const OVERPASS_TIMEOUT_S = 60;
/** Answer cap, ours and the server's `[maxsize]`, when none is given: a county's roads fit in a few MB. */
export const OVERPASS_MAX_BYTES = 64 * 1024 * 1024;

const TagsSchema = z.record(z.string(), z.string());

const ElementSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('node'),
    id: z.number(),
    lat: z.number(),
    lon: z.number(),
    tags: TagsSchema.optional(),
  }),
  z.object({
    type: z.literal('way'),
    id: z.number(),
    nodes: z.array(z.number()),
    tags: TagsSchema.optional(),
  }),
  z.object({
    type: z.literal('relation'),
    id: z.number(),
    members: z.array(
      z.object({ type: z.enum(['node', 'way', 'relation']), ref: z.number(), role: z.string() }),
    ),
    tags: TagsSchema.optional(),
  }),
]);

/** Overpass's `[out:json]` answer: the data's time, the elements, and a `remark` when the query failed midway. */
export const OverpassAnswerSchema = z.object({
  osm3s: z.object({ timestamp_osm_base: z.string() }),
  elements: z.array(ElementSchema),
  remark: z.string().optional(),
});

export interface OverpassOptions {
  /** The interpreter endpoint, e.g. https://overpass-api.de/api/interpreter. */
  readonly url: string;
  /** Overpass's `[timeout:N]`; we wait a little longer so the server's own time-out remark arrives first. */
  readonly timeoutS?: number;
  /** Overpass's `[maxsize:N]` and our cap on the answer's bytes. */
  readonly maxSizeBytes?: number;
  readonly fetch?: typeof fetch;
  /** The clock `Retry-After` is measured on, milliseconds (tests give their own). */
  readonly now?: () => number;
}

/** The longest `Retry-After` honoured: an instance asking for more is treated as asking for this. */
export const MAX_RETRY_AFTER_S = 6 * 3600;

/** Seconds a `Retry-After` value asks for (delay-seconds or an HTTP date), undefined when absent or unreadable. */
export function retryAfterSeconds(value: string | null, nowMs: number): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const text = value.trim();
  const seconds = /^\d+$/.test(text) ? Number(text) : (Date.parse(text) - nowMs) / 1000;
  if (!Number.isFinite(seconds)) return undefined;
  return Math.min(MAX_RETRY_AFTER_S, Math.max(0, Math.ceil(seconds)));
}

/** The Overpass QL text for one area: each selector once per bbox part (two across the antimeridian). */
export function overpassQuery(bbox: BBox, timeoutS: number, maxSizeBytes: number): string {
  const parts =
    bbox.west <= bbox.east
      ? [[bbox.south, bbox.west, bbox.north, bbox.east]]
      : [
          [bbox.south, bbox.west, bbox.north, 180],
          [bbox.south, -180, bbox.north, bbox.east],
        ];
  const highways = `^(${OVERPASS_HIGHWAYS.join('|')})$`;
  const statements = parts.flatMap((part) => {
    const area = `(${part.join(',')})`;
    return [
      `way["highway"~"${highways}"]${area};`,
      '>;',
      `node["mountain_pass"="yes"]${area};`,
      `node["natural"~"^(${NATURAL_POINTS.join('|')})$"]${area};`,
      `node["place"~"^(${PLACE_POINTS.join('|')})$"]${area};`,
      ...TOP_POINTS.map(([key, value]) => `node["${key}"="${value}"]["name"]${area};`),
      `relation["type"="route"]["route"="bicycle"]${area};`,
    ];
  });
  return [
    `[out:json][timeout:${Math.max(1, Math.ceil(timeoutS))}][maxsize:${Math.floor(maxSizeBytes)}];`,
    '(',
    ...statements.map((line) => `  ${line}`),
    ');',
    'out body;',
  ].join('\n');
}

/** An `OsmSource` over the Overpass instance at `options.url`. */
export function overpassSource(options: OverpassOptions): OsmSource {
  const timeoutS = options.timeoutS ?? OVERPASS_TIMEOUT_S;
  const maxBytes = options.maxSizeBytes ?? OVERPASS_MAX_BYTES;
  const host = new URL(options.url).host;
  const label = `Overpass API (${host})`;
  // The server gets `timeoutS`; we allow 20 % more (at most 10 s) for its remark to travel back.
  const waitMs = timeoutS * 1000 + Math.min(10_000, timeoutS * 200);
  const now = options.now ?? Date.now;
  /** Until when the instance asked us (by `Retry-After`) to send nothing, milliseconds; 0 when it has not. */
  let quietUntil = 0;
  const client = ky.create({
    ...(options.fetch ? { fetch: options.fetch } : {}),
    timeout: false,
    retry: 0,
    headers: { accept: 'application/json' },
  });

  return {
    label,
    async extract(bbox: BBox, signal?: AbortSignal): Promise<OsmExtract> {
      const waitS = Math.ceil((quietUntil - now()) / 1000);
      if (waitS > 0) {
        throw new DiscoveryError('busy', `${label} asked for no queries for another ${waitS} s.`, {
          retryAfterS: waitS,
        });
      }
      const ours = AbortSignal.timeout(waitMs);
      const both = signal ? AbortSignal.any([signal, ours]) : ours;
      let text: string;
      try {
        const response = await client.post(options.url, {
          body: new URLSearchParams({ data: overpassQuery(bbox, timeoutS, maxBytes) }),
          signal: both,
        });
        text = await readCapped(response, maxBytes, label);
      } catch (error) {
        const failure = toDiscoveryError(error, label, waitMs, both.aborted, now());
        if (failure.retryAfterS !== undefined)
          quietUntil = Math.max(quietUntil, now() + failure.retryAfterS * 1000);
        throw failure;
      }
      return toExtract(text, bbox, label);
    },
  };
}

/** The body as text, refused as `too_large` once it passes `maxBytes` (the rest is not read). */
async function readCapped(response: Response, maxBytes: number, label: string): Promise<string> {
  const body = await readBoundedBody(response.body, {
    max: maxBytes,
    declared: declaredLength(response.headers.get('content-length')),
  });
  if (body.kind === 'too-large') throw tooLarge(label, maxBytes);
  if (body.kind === 'unreadable') throw new Error(`${label}: the answer's body could not be read.`);
  return Buffer.from(body.bytes).toString('utf8');
}

function tooLarge(label: string, maxBytes: number): DiscoveryError {
  return new DiscoveryError('too_large', `${label} answered more than ${Math.round(maxBytes / 1024)} KiB.`);
}

/** The one place a failed request becomes a {@link DiscoveryError}. */
function toDiscoveryError(
  error: unknown,
  label: string,
  waitMs: number,
  aborted: boolean,
  nowMs: number,
): DiscoveryError {
  if (error instanceof DiscoveryError) return error;
  if (isTimeoutError(error) || aborted) {
    return new DiscoveryError('timeout', `${label} did not answer within ${waitMs / 1000} s.`, {
      cause: error,
    });
  }
  if (isHTTPError(error)) {
    const status = error.response.status;
    if (status === 429 || status === 503 || status === 504) {
      const retryAfterS = retryAfterSeconds(error.response.headers.get('retry-after'), nowMs);
      return new DiscoveryError('busy', `${label} is busy (HTTP ${status}).`, { cause: error, retryAfterS });
    }
    if (status >= 400 && status < 500) {
      return new DiscoveryError('refused', `${label} refused the query (HTTP ${status}).`, { cause: error });
    }
    return new DiscoveryError('unreachable', `${label} failed (HTTP ${status}).`, { cause: error });
  }
  const what = isNetworkError(error) ? 'could not be reached' : 'could not be asked';
  return new DiscoveryError('unreachable', `${label} ${what}.`, { cause: error });
}

/**
 * The answer as an extract. A `remark` means the server stopped midway and
 * the elements are partial, so it is a failure even with a 200: "timed out"
 * is a time-out, any other runtime error (out of memory, maxsize) too large.
 */
function toExtract(text: string, bbox: BBox, label: string): OsmExtract {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new DiscoveryError('malformed', `${label} answered something other than JSON.`, { cause: error });
  }
  const parsed = OverpassAnswerSchema.safeParse(json);
  if (!parsed.success) {
    throw new DiscoveryError('malformed', `${label} answered JSON that is not an Overpass answer.`, {
      cause: parsed.error,
    });
  }
  const { remark, elements, osm3s } = parsed.data;
  if (remark !== undefined && /runtime error|out of memory|maxsize/i.test(remark)) {
    if (/timed out|timeout/i.test(remark)) {
      throw new DiscoveryError('timeout', `${label} gave up on the query in its own time limit.`);
    }
    throw new DiscoveryError('too_large', `${label} ran out of memory for an area this large.`);
  }
  const nodes = new Map<number, OsmNode>();
  const ways: OsmWay[] = [];
  const relations: OsmRelation[] = [];
  for (const element of elements) {
    // The query pre-filters on the road class; the rule itself (surface, access) is applied here.
    const kept = selectedAs(element.type, element.tags);
    if (element.type === 'node') {
      const { id, lat, lon, tags } = element;
      nodes.set(id, kept && tags ? { id, lat, lon, tags } : { id, lat, lon });
    } else if (kept === null || element.tags === undefined) {
      continue;
    } else if (element.type === 'way') {
      ways.push({ id: element.id, nodes: element.nodes, tags: element.tags });
    } else {
      relations.push({ id: element.id, members: element.members, tags: element.tags });
    }
  }
  // Keep only the nodes the kept ways use and the named points, as the file reader does.
  const used = new Set(ways.flatMap((way) => way.nodes));
  for (const [id, node] of nodes) if (!used.has(id) && !node.tags) nodes.delete(id);
  return { bbox, nodes, ways, relations, timestamp: toIso(osm3s.timestamp_osm_base) };
}

function toIso(stamp: string): string | null {
  const ms = Date.parse(stamp);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}
