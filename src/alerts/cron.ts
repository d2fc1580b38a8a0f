/**
 * The alert job behind an HTTP endpoint, for Vercel Cron (`api/_entries/cron-alerts.ts`
 * and the `crons` entry in `vercel.json`). Vercel calls the path with GET and
 * `Authorization: Bearer <CRON_SECRET>` when the project has a `CRON_SECRET`
 * variable; anyone else can reach the URL too, so every other request is
 * refused with 401, and so is every request while `CRON_SECRET` is unset
 * (fail closed). Any scheduler that can send the header may call it.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { messageOf } from './error-message.ts';
import type { AlertJobSummary } from './run.ts';
import { CACHE } from '../http/cache-control.ts';

export interface CronHandlerOptions {
  /** The expected secret (`CRON_SECRET`), asked on every request; unset or empty refuses every request. */
  readonly secret: () => string | undefined;
  readonly job: () => Promise<AlertJobSummary>;
}

const NO_STORE = { 'Cache-Control': CACHE.none };

/** Constant-time comparison of the whole header with the expected one (hashed first, so lengths match). */
function authorized(header: string | null, secret: string | undefined): boolean {
  if (!secret || header === null) return false;
  const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();
  return timingSafeEqual(digest(header), digest(`Bearer ${secret}`));
}

/** The endpoint: 401 unless the bearer matches, then the job's summary (500 when it failed). */
export function createCronHandler(options: CronHandlerOptions): (request: Request) => Promise<Response> {
  let warned = false;
  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'POST') {
      return new Response(null, { status: 405, headers: { ...NO_STORE, Allow: 'GET, POST' } });
    }
    const secret = options.secret();
    if (!secret && !warned) {
      warned = true;
      console.error('alert cron: CRON_SECRET is not set, so every call is refused');
    }
    if (!authorized(request.headers.get('authorization'), secret)) {
      return Response.json(
        { ok: false, error: 'unauthorized' },
        { status: 401, headers: { ...NO_STORE, 'WWW-Authenticate': 'Bearer' } },
      );
    }
    try {
      const summary = await options.job();
      return Response.json(summary, { status: summary.ok ? 200 : 500, headers: NO_STORE });
    } catch (error) {
      const message = messageOf(error);
      console.error(`alert cron: the job could not start: ${message}`);
      return Response.json({ ok: false, errors: [message] }, { status: 500, headers: NO_STORE });
    }
  };
}
