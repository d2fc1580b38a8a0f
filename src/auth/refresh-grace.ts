/**
 * Lines up simultaneous refreshes with one refresh token, so an assistant
 * that runs several tool calls at once on an expired access token gets one
 * set of new tokens for all of them instead of a revoked grant.
 *
 * The OAuth provider already answers a reuse of a rotated refresh token
 * inside {@link REFRESH_REUSE_INTERVAL_S} with the answer it stored for the
 * rotation (its `refreshTokenReuseInterval`). What it cannot do on its own is
 * answer a reuse that arrives while the rotation is still running: the old
 * token is marked rotated before the new tokens are stored, and a refresh in
 * that gap, or one that read the old token just before, gets `invalid_grant`.
 * Two pieces close the gap:
 *
 * - in one process, identical refreshes in flight share one answer;
 * - across processes (several functions over one store), a refresh refused
 *   while its token was rotated inside the interval is asked again after a
 *   short wait, until the other process has stored the answer to replay.
 *
 * A reuse after the interval still reaches the provider, which revokes every
 * token of the grant; this layer never issues or keeps tokens itself.
 */
import { createHash } from 'node:crypto';
import { setTimeout as sleepFor } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.ts';
import { withAuthTables } from '../store/auth-tables.ts';

/**
 * How long a refused refresh waits, at most, for another process to finish
 * the rotation it raced: issuing tokens takes tens of milliseconds, so two
 * seconds covers a slow database without keeping a refused client long.
 */
export const REFRESH_RACE_WAIT_MS = 2000;
/** The first wait; each next one doubles (25, 50, 100… ms). */
const FIRST_WAIT_MS = 25;
/** A refresh request is a few hundred bytes; a larger body goes straight through. */
const MAX_BODY_BYTES = 16 * 1024;

export type TokenHandler = (request: Request) => Promise<Response>;
/** Answers a token request through `handle`, sharing or repeating refreshes as described above. */
export type RefreshGrace = (request: Request, handle: TokenHandler) => Promise<Response>;

export interface RefreshGraceOptions {
  readonly db: Kysely<Database>;
  /** Defaults to {@link REFRESH_RACE_WAIT_MS}. */
  readonly waitMs?: number;
  readonly now?: () => number;
}

/** A token endpoint answer read once, so any number of callers can get their own copy. */
interface Answer {
  readonly status: number;
  readonly headers: [string, string][];
  readonly body: ArrayBuffer;
}

async function read(response: Response): Promise<Answer> {
  return { status: response.status, headers: [...response.headers], body: await response.arrayBuffer() };
}

function toResponse(answer: Answer): Response {
  return new Response(answer.body.slice(0), { status: answer.status, headers: answer.headers });
}

function isInvalidGrant(answer: Answer): boolean {
  if (answer.status !== 400) return false;
  try {
    const body = JSON.parse(new TextDecoder().decode(answer.body)) as { error?: unknown };
    return body.error === 'invalid_grant';
  } catch {
    return false;
  }
}

/** The form (or JSON) fields of a token request; empty when it is neither. */
function fieldsOf(request: Request, bytes: ArrayBuffer): URLSearchParams {
  const text = new TextDecoder().decode(bytes);
  const type = request.headers.get('content-type') ?? '';
  if (!type.includes('json')) return new URLSearchParams(text);
  try {
    const body = JSON.parse(text) as Record<string, unknown>;
    const fields = new URLSearchParams();
    for (const [name, value] of Object.entries(body)) {
      for (const item of Array.isArray(value) ? value : [value]) {
        if (typeof item === 'string') fields.append(name, item);
      }
    }
    return fields;
  } catch {
    return new URLSearchParams();
  }
}

/**
 * What makes two refreshes the same request: the token, and everything the
 * provider compares before replaying an answer (client, scopes, resources,
 * credentials and sender constraint).
 */
function keyOf(request: Request, fields: URLSearchParams, token: string): string {
  const parts = [
    request.url,
    token,
    fields.get('client_id'),
    fields.get('scope'),
    fields.getAll('resource').sort(),
    request.headers.get('authorization'),
    request.headers.get('dpop'),
  ];
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url');
}

/** The provider stores refresh tokens as unpadded base64url SHA-256 (its `storeTokens: 'hashed'` default). */
export function storedRefreshToken(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

export function createRefreshGrace({
  db,
  waitMs = REFRESH_RACE_WAIT_MS,
  now = Date.now,
}: RefreshGraceOptions): RefreshGrace {
  const tables = withAuthTables(db);
  const inFlight = new Map<string, Promise<Answer>>();

  /** True while the token's rotation is inside the reuse interval, so its answer will be replayable. */
  const rotatedInGrace = async (token: string): Promise<boolean> => {
    const row = await tables
      .selectFrom('oauthRefreshToken')
      .select('rotationReplayExpiresAt')
      .where('token', '=', storedRefreshToken(token))
      .executeTakeFirst();
    const until = row?.rotationReplayExpiresAt;
    if (until === null || until === undefined) return false;
    const at = (until instanceof Date ? until : new Date(until)).getTime();
    return Number.isFinite(at) && at >= now();
  };

  const refresh = async (again: () => Request, token: string, handle: TokenHandler): Promise<Answer> => {
    let answer = await read(await handle(again()));
    let waited = 0;
    let wait = FIRST_WAIT_MS;
    while (isInvalidGrant(answer) && waited < waitMs && (await rotatedInGrace(token))) {
      const step = Math.min(wait, waitMs - waited);
      await sleepFor(step);
      waited += step;
      wait *= 2;
      answer = await read(await handle(again()));
    }
    return answer;
  };

  return async (request, handle) => {
    const length = Number(request.headers.get('content-length') ?? '0');
    if (request.method !== 'POST' || !(length <= MAX_BODY_BYTES)) return handle(request);
    const bytes = await request.arrayBuffer();
    const again = () =>
      new Request(request.url, { method: 'POST', headers: request.headers, body: bytes.slice(0) });
    const fields = fieldsOf(request, bytes);
    const token = fields.get('refresh_token');
    if (fields.get('grant_type') !== 'refresh_token' || !token || bytes.byteLength > MAX_BODY_BYTES) {
      return handle(again());
    }
    const key = keyOf(request, fields, token);
    const running = inFlight.get(key);
    if (running) return toResponse(await running);
    const attempt = refresh(again, token, handle);
    inFlight.set(key, attempt);
    try {
      return toResponse(await attempt);
    } finally {
      inFlight.delete(key);
    }
  };
}
