/**
 * The settings page's own-segment endpoints, for the session's rider:
 * `POST /api/rider/segments` stores one from the raw text of a GPX or GeoJSON
 * file (read on the server with the same core code the page previews with,
 * so what is stored never depends on the browser), and
 * `POST /api/rider/segments/remove` deletes one. The rider id comes from the
 * session alone, so no request can reach another rider's segments.
 */
import type { Kysely } from 'kysely';
import { z } from 'zod';
import {
  allowanceRefusal,
  OWN_SEGMENT_NAME_MAX,
  prepareOwnSegment,
  watchlistFullRefusal,
  type PreparedSegment,
} from '../core/own-segment.ts';
import { isRefusal, refusal, type JsonAnswer } from '../http/json-answer.ts';
import { OWN_SEGMENT_ALLOWANCE } from '../core/plans.ts';
import { hasProAccess, RECORD_MAX_S } from '../core/rider-rules.ts';
import { asSentence, RouteInputError } from '../core/route/route-error.ts';
import { MAX_ROUTE_BYTES } from '../core/route/route-limits.ts';
import { nowSeconds } from '../store/clock.ts';
import { addOwnSegment, removeOwnSegment as removeStored } from '../service/own-segments.ts';
import type { Database } from '../store/schema.ts';
import { ensureRider, type AuthUser } from '../rider/rider-account.ts';
import { readJson } from './read-json.ts';

import { OWN_SEGMENT_UPLOAD_MAX_BYTES } from './account-paths.ts';

export { OWN_SEGMENT_UPLOAD_MAX_BYTES, OWN_SEGMENTS_PATH } from './account-paths.ts';
export const OWN_SEGMENT_REMOVE_PATH = '/api/rider/segments/remove';

const RECORD_BOUNDS = `The record is a whole number of seconds from 1 to ${RECORD_MAX_S}.`;

export const OwnSegmentUploadSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'Give the segment a name.')
    .max(OWN_SEGMENT_NAME_MAX, `The name is at most ${OWN_SEGMENT_NAME_MAX} characters.`),
  record_s: z.int(RECORD_BOUNDS).min(1, RECORD_BOUNDS).max(RECORD_MAX_S, RECORD_BOUNDS).nullable().optional(),
  format: z.enum(['gpx', 'geojson'], 'format must be "gpx" or "geojson".'),
  text: z.string().max(MAX_ROUTE_BYTES, `The file is larger than ${MAX_ROUTE_BYTES / 1024 / 1024} MB.`),
});

export const OwnSegmentRemoveSchema = z.object({ segment_id: z.string().min(1).max(100) });

/** `POST /api/rider/segments`: stores and watches the segment, or says precisely why not (nothing stored). */
export async function addOwnSegmentFromUpload(
  request: Request,
  db: Kysely<Database>,
  user: AuthUser,
): Promise<JsonAnswer> {
  const read = await readJson(
    request,
    OWN_SEGMENT_UPLOAD_MAX_BYTES,
    `The upload is larger than the ${OWN_SEGMENT_UPLOAD_MAX_BYTES / 1024 / 1024} MB the settings page takes. Simplify the track in your route planner, or export it without sensor extensions.`,
  );
  if (isRefusal(read)) return read;
  const parsed = OwnSegmentUploadSchema.safeParse(read.json);
  if (!parsed.success) {
    return refusal('invalid_request', parsed.error.issues[0]?.message ?? 'The upload is not valid.');
  }
  const upload = parsed.data;
  let prepared: PreparedSegment;
  try {
    prepared = prepareOwnSegment(upload.format, upload.text);
  } catch (error) {
    if (!(error instanceof RouteInputError)) throw error;
    return refusal('invalid_route', `Not saved: ${asSentence(error.message)}`, { route_error: error.code });
  }
  const rider = await ensureRider(db, user);
  const now = nowSeconds();
  const proAccess = hasProAccess(rider, now);
  const outcome = await addOwnSegment(
    db,
    rider,
    { ...prepared, name: upload.name },
    { recordS: upload.record_s ?? undefined },
    now,
  );
  if (!outcome.ok) {
    if (outcome.reason === 'allowance') {
      const message = allowanceRefusal(
        outcome.count,
        outcome.allowance,
        proAccess,
        OWN_SEGMENT_ALLOWANCE.pro,
      );
      return refusal('allowance_reached', `Not saved: ${message}`, { pricing: !proAccess });
    }
    if (outcome.reason === 'watchlist_full') {
      return refusal('watchlist_full', `Not saved: ${watchlistFullRefusal(outcome.max)}`);
    }
    return refusal('unauthorized', 'Sign in first.');
  }
  const s = outcome.segment;
  return {
    status: 201,
    body: {
      segment: {
        id: s.id,
        name: s.name,
        distance_m: s.distanceM,
        gain_m: s.gainM,
        grade_pct: s.gradePct,
        bearing_deg: s.bearingDeg,
        points: s.points.length,
      },
      own_segments: { used: outcome.count, allowance: outcome.allowance },
    },
  };
}

/** `POST /api/rider/segments/remove`: deletes one of the session rider's own segments and its watch. */
export async function removeOwnSegment(
  request: Request,
  db: Kysely<Database>,
  user: AuthUser,
): Promise<JsonAnswer> {
  const read = await readJson(request, 16 * 1024);
  if (isRefusal(read)) return read;
  const parsed = OwnSegmentRemoveSchema.safeParse(read.json);
  if (!parsed.success) return refusal('invalid_request', 'Send { "segment_id": "my--…" }.');
  const rider = await ensureRider(db, user);
  const removed = await removeStored(db, rider.id, parsed.data.segment_id);
  // Someone else's id answers exactly like an unknown one.
  if (!removed) return refusal('segment_not_found', 'You have no own segment with this id.');
  return { status: 200, body: { removed: true, segment_id: parsed.data.segment_id } };
}
