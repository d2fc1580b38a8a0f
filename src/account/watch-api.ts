/**
 * The segment page's "watch this segment" button, for the session's rider:
 * `POST /api/rider/watchlist` watches a segment (alerts on) and
 * `POST /api/rider/watchlist/remove` stops watching it, both with the body
 * `{ "segment_id": "…" }`. The rules (a segment the rider can see, the
 * watchlist's size, own segments stay watched) are the rider domain's, the
 * same the MCP tools `watch_segment` and `unwatch_segment` apply.
 */
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { isRefusal, refusal, type JsonAnswer } from '../http/json-answer.ts';
import type { SegmentCatalog } from '../data/segments/types.ts';
import { nowSeconds } from '../store/clock.ts';
import type { Database } from '../store/schema.ts';
import { ensureRider, type AuthUser } from '../rider/rider-account.ts';
import { riderSegmentLookup } from '../rider/segment-lookup.ts';
import { unwatchForRider, watchForRider } from '../service/watchlist.ts';
import { readJson } from './read-json.ts';

export const WATCH_PATH = '/api/rider/watchlist';
export const UNWATCH_PATH = '/api/rider/watchlist/remove';

/** The longest segment id any surface accepts (the MCP tools' and `/v1/segments/{id}`'s bound). */
const SEGMENT_ID_MAX = 100;

export const WatchRequestSchema = z.object({
  segment_id: z
    .string('Send { "segment_id": "…" }, the id from /v1/segments.')
    .min(1, 'segment_id must not be empty.')
    .max(SEGMENT_ID_MAX, `segment_id is at most ${SEGMENT_ID_MAX} characters.`),
});

async function segmentIdOf(request: Request): Promise<string | JsonAnswer> {
  const read = await readJson(request, 4 * 1024);
  if (isRefusal(read)) return read;
  const parsed = WatchRequestSchema.safeParse(read.json);
  if (!parsed.success) {
    return refusal('invalid_request', parsed.error.issues[0]?.message ?? 'Send { "segment_id": "…" }.');
  }
  return parsed.data.segment_id;
}

/** Watches or unwatches the body's segment for the session's rider, or says precisely why not. */
export async function changeWatch(
  kind: 'watch' | 'unwatch',
  request: Request,
  db: Kysely<Database>,
  catalog: Pick<SegmentCatalog, 'get'>,
  user: AuthUser,
): Promise<JsonAnswer> {
  const segmentId = await segmentIdOf(request);
  if (typeof segmentId !== 'string') return segmentId;
  const rider = await ensureRider(db, user);
  const segments = riderSegmentLookup(catalog, db, rider.id);
  if (kind === 'unwatch') {
    const outcome = await unwatchForRider(db, rider.id, segments, segmentId);
    if (!outcome.ok) {
      return refusal(
        'invalid_request',
        `${segmentId} is one of your own segments, which stay watched while they exist.`,
        undefined,
        'Remove the segment on the settings page to stop watching it.',
      );
    }
    const body = {
      segment_id: segmentId,
      watching: false,
      removed: outcome.removed,
      watchlist_size: outcome.watchlistSize,
    };
    return { status: 200, body };
  }
  const outcome = await watchForRider(db, rider.id, segments, segmentId, {}, nowSeconds());
  if (!outcome.ok && outcome.reason === 'unknown_segment') {
    return refusal(
      'segment_not_found',
      `No segment has the id "${segmentId}".`,
      undefined,
      'Find the segment on /segments, then watch it from its page.',
    );
  }
  if (!outcome.ok) {
    return refusal(
      'watchlist_full',
      `Your watchlist is full (${outcome.max} segments).`,
      undefined,
      'Stop watching a segment on its page or from your assistant, then watch this one.',
    );
  }
  return {
    status: outcome.created ? 201 : 200,
    body: {
      segment_id: segmentId,
      watching: true,
      created: outcome.created,
      alerts_on: outcome.entry.alertsOn,
      threshold_kmh: outcome.entry.thresholdKmh,
      watchlist_size: outcome.watchlistSize,
    },
  };
}
