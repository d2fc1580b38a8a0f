/**
 * Riders' own segments. Like `watchlist.ts`, every function takes the owner's
 * id and every query filters on it: a segment id alone opens nothing, so
 * another rider (or a tool that forgot a check) reading, watching or removing
 * someone else's segment finds exactly what it finds for an id that does not
 * exist.
 *
 * Adding one is a single transaction that locks the owner's row, counts, then
 * writes the segment and its watch: two uploads at once cannot both pass the
 * allowance, and a refused or failed upload leaves nothing behind.
 */
import { randomBytes } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import { OWN_SEGMENT_ID_PREFIX } from '../../core/rider-rules.ts';
import { nowSeconds } from '../clock.ts';
import type { Database, RiderSegmentTable } from '../schema.ts';
import { watchSegment, type WatchEntry } from './watchlist.ts';

type Db = Kysely<Database>;

/** One point of a stored line; `ele` is metres above sea level when the file had it. */
export interface StoredPoint {
  readonly lat: number;
  readonly lon: number;
  readonly ele?: number;
}

export type RiderSegmentSource = RiderSegmentTable['source'];

/** What the caller has already parsed, simplified and measured (see `src/core/route/`). */
export interface NewRiderSegment {
  readonly name: string;
  readonly source: RiderSegmentSource;
  /** The simplified line in riding order, at least two points. */
  readonly points: readonly StoredPoint[];
  readonly distanceM: number;
  readonly gainM: number;
  readonly gradePct: number;
  readonly bearingDeg: number;
  /** Share of points with an elevation, 0 to 1. */
  readonly elevationCoverage: number;
}

export interface RiderSegment extends NewRiderSegment {
  readonly id: string;
  /** Unix seconds. */
  readonly createdAt: number;
}

/** The rules the caller applies to this rider now (they depend on plan and trial, decided above the store). */
export interface AddRules {
  /** Own segments this rider may keep. */
  readonly allowance: number;
  /** Segments this rider may watch in all. */
  readonly watchlistMax: number;
  /** Personal record to store with the watch, whole seconds. */
  readonly recordS?: number;
}

export type AddOutcome =
  | {
      readonly ok: true;
      readonly segment: RiderSegment;
      readonly watch: WatchEntry;
      /** The rider's own segments now, this one included. */
      readonly count: number;
    }
  | { readonly ok: false; readonly reason: 'allowance'; readonly count: number; readonly allowance: number }
  | { readonly ok: false; readonly reason: 'watchlist_full'; readonly watched: number; readonly max: number }
  | { readonly ok: false; readonly reason: 'no_rider' };

/** Base-32 (RFC 4648 lower case, no padding): ids stay lower-case slugs. */
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

/** 20 characters of 5 random bits each: 100 bits, so an id cannot be guessed or enumerated. */
export function newRiderSegmentId(): string {
  const bytes = randomBytes(20);
  let id = OWN_SEGMENT_ID_PREFIX;
  for (const byte of bytes) id += ALPHABET[byte & 31];
  return id;
}

/** Compact JSON: `[lat, lon]` or `[lat, lon, ele]`, 6 decimals (about 0.1 m) and 0.1 m of height. */
export function encodePoints(points: readonly StoredPoint[]): string {
  const round = (value: number, decimals: number) => Number(value.toFixed(decimals));
  return JSON.stringify(
    points.map((p) =>
      p.ele === undefined
        ? [round(p.lat, 6), round(p.lon, 6)]
        : [round(p.lat, 6), round(p.lon, 6), round(p.ele, 1)],
    ),
  );
}

export function decodePoints(text: string): StoredPoint[] {
  const raw = JSON.parse(text) as number[][];
  return raw.map(([lat = 0, lon = 0, ele]) => (ele === undefined ? { lat, lon } : { lat, lon, ele }));
}

function toSegment(row: Selectable<RiderSegmentTable>): RiderSegment {
  return {
    id: row.id,
    name: row.name,
    source: row.source,
    points: decodePoints(row.points),
    distanceM: row.distance_m,
    gainM: row.gain_m,
    gradePct: row.grade_pct,
    bearingDeg: row.bearing_deg,
    elevationCoverage: row.elevation_coverage,
    createdAt: row.created_at,
  };
}

async function countOf(trx: Db, table: 'rider_segment' | 'watch', riderId: string) {
  const row = await trx
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('rider_id', '=', riderId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Stores a new own segment and watches it (alerts on, the default
 * threshold), or says which rule refused it; nothing is written then.
 */
export async function addRiderSegment(
  db: Db,
  riderId: string,
  input: NewRiderSegment,
  rules: AddRules,
  now: number = nowSeconds(),
): Promise<AddOutcome> {
  if (input.points.length < 2) throw new RangeError('a rider segment needs at least two points');
  return db.transaction().execute(async (trx): Promise<AddOutcome> => {
    // A write to the owner's row locks it on PostgreSQL (SQLite's BEGIN IMMEDIATE locks the file):
    // concurrent adds for one rider queue here, so each counts what the previous one wrote.
    const locked = await trx
      .updateTable('rider')
      .set((eb) => ({ plan: eb.ref('plan') }))
      .where('id', '=', riderId)
      .executeTakeFirst();
    if (locked.numUpdatedRows === 0n) return { ok: false, reason: 'no_rider' };
    const count = await countOf(trx, 'rider_segment', riderId);
    if (count >= rules.allowance)
      return { ok: false, reason: 'allowance', count, allowance: rules.allowance };
    const watched = await countOf(trx, 'watch', riderId);
    if (watched >= rules.watchlistMax) {
      return { ok: false, reason: 'watchlist_full', watched, max: rules.watchlistMax };
    }
    const row = await trx
      .insertInto('rider_segment')
      .values({
        id: newRiderSegmentId(),
        rider_id: riderId,
        name: input.name,
        source: input.source,
        points: encodePoints(input.points),
        point_count: input.points.length,
        distance_m: input.distanceM,
        gain_m: input.gainM,
        grade_pct: input.gradePct,
        bearing_deg: input.bearingDeg,
        elevation_coverage: input.elevationCoverage,
        created_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    const settings = { alertsOn: true, ...(rules.recordS === undefined ? {} : { recordS: rules.recordS }) };
    const { entry } = await watchSegment(trx, riderId, row.id, settings, now);
    return { ok: true, segment: toSegment(row), watch: entry, count: count + 1 };
  });
}

/** How many own segments the rider keeps. */
export async function countRiderSegments(db: Db, riderId: string): Promise<number> {
  return countOf(db, 'rider_segment', riderId);
}

/** The rider's own segments, oldest first. */
export async function listRiderSegments(db: Db, riderId: string): Promise<RiderSegment[]> {
  const rows = await db
    .selectFrom('rider_segment')
    .selectAll()
    .where('rider_id', '=', riderId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(toSegment);
}

/**
 * The rider's own segments flagged closed (a loop or an out-and-back kept
 * before such lines were refused; migration 0007), by id with their shape:
 * their alerts can never fire, and the watchlist says so.
 */
export async function listClosedRiderSegments(
  db: Db,
  riderId: string,
): Promise<ReadonlyMap<string, 'loop' | 'out_and_back'>> {
  const rows = await db
    .selectFrom('rider_segment')
    .select(['id', 'closed_shape'])
    .where('rider_id', '=', riderId)
    .where('closed_shape', 'is not', null)
    .execute();
  return new Map(
    rows.flatMap((row) => (row.closed_shape === null ? [] : [[row.id, row.closed_shape] as const])),
  );
}

/** Those of `ids` that are this rider's own segments; other ids are simply absent. */
export async function findRiderSegments(
  db: Db,
  riderId: string,
  ids: readonly string[],
): Promise<RiderSegment[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('rider_segment')
    .selectAll()
    .where('rider_id', '=', riderId)
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return rows.map(toSegment);
}

/**
 * Removes one of the rider's own segments and its watch, together. Alerts
 * already recorded stay (they are the rider's history). Returns whether the
 * rider had it.
 */
export async function removeRiderSegment(db: Db, riderId: string, segmentId: string): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const removed = await trx
      .deleteFrom('rider_segment')
      .where('rider_id', '=', riderId)
      .where('id', '=', segmentId)
      .executeTakeFirst();
    if (removed.numDeletedRows === 0n) return false;
    await trx
      .deleteFrom('watch')
      .where('rider_id', '=', riderId)
      .where('segment_id', '=', segmentId)
      .execute();
    return true;
  });
}
