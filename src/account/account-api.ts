/**
 * The JSON behind the settings page, for the signed-in rider (the better-auth
 * session cookie): `GET /api/rider/me`,
 * `POST /api/rider/connections/{clientId}/disconnect`,
 * `POST /api/rider/webhook` (see `webhook-setting.ts`),
 * `POST /api/rider/segments` and `/api/rider/segments/remove` (see `own-segments-api.ts`),
 * `POST /api/rider/billing/checkout` and `POST /api/rider/billing/portal`
 * (payments through the port {@link AccountPayments}). A POST must come from
 * our own origin (the `Origin` header browsers always send on it), which
 * stops cross-site forgery even where SameSite cookies are not honoured.
 */
import type { Kysely } from 'kysely';
import type { WebhookUrlOptions } from '../rider/webhook-url.ts';
import { OWN_SEGMENT_ALLOWANCE } from '../core/plans.ts';
import { hasProAccess, isInTrial, ownSegmentAllowance, planNow } from '../core/rider-rules.ts';
import { isoTime } from '../core/time.ts';
import { nowSeconds } from '../store/clock.ts';
import { listRecentAlerts } from '../store/repositories/alerts.ts';
import { listRiderSegments } from '../store/repositories/rider-segments.ts';
import { listWatchlist } from '../store/repositories/watchlist.ts';
import type { Database } from '../store/schema.ts';
import type { Rider } from '../store/repositories/riders.ts';
import { disconnectClient, listConnections } from '../store/repositories/connections.ts';
import type { SegmentCatalog } from '../data/segments/types.ts';
import { ensureRider } from '../rider/rider-account.ts';
import { riderSegmentLookup } from '../rider/segment-lookup.ts';
import { riderResourceFor } from '../rider/access-policy.ts';
import {
  addOwnSegmentFromUpload,
  OWN_SEGMENT_REMOVE_PATH,
  OWN_SEGMENTS_PATH,
  removeOwnSegment,
} from './own-segments-api.ts';
import { updateRiderWebhook, WEBHOOK_PATH } from './webhook-setting.ts';
import { withAuthTables } from '../store/auth-tables.ts';

export const RIDER_API_PREFIX = '/api/rider/';
const ME_PATH = '/api/rider/me';
const CONNECTIONS_PREFIX = '/api/rider/connections/';
const DISCONNECT_SUFFIX = '/disconnect';
const CHECKOUT_PATH = '/api/rider/billing/checkout';
const PORTAL_PATH = '/api/rider/billing/portal';
/** Alerts shown on the settings page. */
const RECENT_ALERTS = 10;

/** A signed-in user as the session check finds them. */
export interface SessionUser {
  readonly id: string;
  readonly email: string;
  readonly createdAt: Date;
}

/** What a payments answer turns into: a status and a JSON body. */
export interface PaymentsReply {
  readonly status: number;
  readonly body: unknown;
}

/**
 * Payments as the settings page uses them: the composition root wires them
 * to `src/billing` (a peer surface this one does not import), or to answers
 * that say payments are off.
 */
export interface AccountPayments {
  /** The `billing` block of `GET /api/rider/me`. */
  summary(db: Kysely<Database>, rider: Rider, now: number): Promise<unknown>;
  checkout(
    db: Kysely<Database>,
    rider: Rider,
    body: unknown,
    origin: string,
    now: number,
  ): Promise<PaymentsReply>;
  portal(db: Kysely<Database>, riderId: string, origin: string): Promise<PaymentsReply>;
}

export interface RiderApiContext {
  /** The signed-in user of the request's session cookie, or null (the authorization server's session check). */
  readonly session: (headers: Headers) => Promise<{ readonly user: SessionUser } | null>;
  readonly db: Kysely<Database>;
  readonly origin: string;
  /** The segment catalog, which names the watched and alerted segments with the rider's own ones. */
  readonly catalog: Pick<SegmentCatalog, 'get'>;
  /** Tests only: a fake DNS lookup (or loopback http) for checking webhook URLs. */
  readonly webhookUrl?: WebhookUrlOptions;
  readonly payments: AccountPayments;
}

function json(status: number, body: unknown, extra: Record<string, string> = {}): Response {
  return Response.json(body, { status, headers: { 'Cache-Control': 'no-store', ...extra } });
}

const iso = (seconds: number | null): string | null => (seconds === null ? null : isoTime(seconds));

/** The connection's client id from `/api/rider/connections/{id}/disconnect`, or undefined. */
export function disconnectTarget(pathname: string): string | undefined {
  if (!pathname.startsWith(CONNECTIONS_PREFIX) || !pathname.endsWith(DISCONNECT_SUFFIX)) return undefined;
  const encoded = pathname.slice(CONNECTIONS_PREFIX.length, -DISCONNECT_SUFFIX.length);
  if (!encoded || encoded.includes('/')) return undefined;
  try {
    return decodeURIComponent(encoded);
  } catch {
    return undefined;
  }
}

async function me(context: RiderApiContext, user: { id: string; email: string; createdAt: Date }) {
  const { db, origin, catalog } = context;
  const rider = await ensureRider(db, user);
  const now = nowSeconds();
  const [connections, watchlist, alerts, own, billing] = await Promise.all([
    listConnections(withAuthTables(db), rider.id),
    listWatchlist(db, rider.id),
    listRecentAlerts(db, rider.id, { limit: RECENT_ALERTS }),
    listRiderSegments(db, rider.id),
    context.payments.summary(db, rider, now),
  ]);
  const named = await riderSegmentLookup(catalog, db, rider.id).getMany([
    ...new Set([...watchlist, ...alerts].map((entry) => entry.segmentId)),
  ]);
  const name = (id: string) => named.get(id)?.name ?? null;
  return {
    rider: {
      id: rider.id,
      email: rider.email,
      plan: planNow(rider, now),
      trial_ends_at: iso(rider.trialEndsAt),
      in_trial: isInTrial(rider, now),
      pro_access: hasProAccess(rider, now),
    },
    billing,
    mcp_url: riderResourceFor(origin),
    // Never the secret: it is shown once, when the URL is saved.
    webhook_url: rider.webhook?.url ?? null,
    connections: connections.map((c) => ({
      client_id: c.clientId,
      client_name: c.clientName,
      client_uri: c.clientUri,
      scopes: c.scopes,
      connected_at: c.connectedAt,
    })),
    own_segments: own.map((s) => ({
      id: s.id,
      name: s.name,
      source: s.source,
      distance_m: s.distanceM,
      gain_m: s.gainM,
      grade_pct: s.gradePct,
      bearing_deg: s.bearingDeg,
      created_at: isoTime(s.createdAt),
    })),
    own_segment_allowance: {
      used: own.length,
      allowance: ownSegmentAllowance(rider, now),
      free: OWN_SEGMENT_ALLOWANCE.free,
      pro: OWN_SEGMENT_ALLOWANCE.pro,
    },
    watchlist: watchlist.map((w) => ({
      segment_id: w.segmentId,
      segment_name: name(w.segmentId),
      record_s: w.recordS,
      alerts_on: w.alertsOn,
      threshold_kmh: w.thresholdKmh,
    })),
    alerts: alerts.map((a) => ({
      segment_id: a.segmentId,
      segment_name: name(a.segmentId),
      window_start: iso(a.windowStart),
      window_end: iso(a.windowEnd),
      peak_tailwind_kmh: a.peakTailwindKmh,
      delivered: a.deliveredAt !== null,
    })),
  };
}

type Route =
  | { kind: 'me' }
  | { kind: 'webhook' }
  | { kind: 'add_segment' }
  | { kind: 'remove_segment' }
  | { kind: 'checkout' }
  | { kind: 'portal' }
  | { kind: 'disconnect'; clientId: string };

function routeOf(pathname: string): Route | undefined {
  if (pathname === ME_PATH) return { kind: 'me' };
  if (pathname === WEBHOOK_PATH) return { kind: 'webhook' };
  if (pathname === OWN_SEGMENTS_PATH) return { kind: 'add_segment' };
  if (pathname === OWN_SEGMENT_REMOVE_PATH) return { kind: 'remove_segment' };
  if (pathname === CHECKOUT_PATH) return { kind: 'checkout' };
  if (pathname === PORTAL_PATH) return { kind: 'portal' };
  const clientId = disconnectTarget(pathname);
  return clientId === undefined ? undefined : { kind: 'disconnect', clientId };
}

/** Answers `/api/rider/*`; the caller routes only those paths here. */
export async function riderApi(request: Request, context: RiderApiContext): Promise<Response> {
  const route = routeOf(new URL(request.url).pathname);
  if (!route) return json(404, { error: 'not_found' });
  const method = route.kind === 'me' ? 'GET' : 'POST';
  if (request.method !== method) return json(405, { error: 'method_not_allowed' }, { Allow: method });
  if (method === 'POST' && request.headers.get('origin') !== context.origin) {
    return json(403, { error: 'forbidden', error_description: 'Cross-site request refused.' });
  }
  const session = await context.session(request.headers);
  if (!session) return json(401, { error: 'unauthorized', error_description: 'Sign in first.' });
  if (route.kind === 'me') return json(200, await me(context, session.user));
  if (route.kind === 'webhook') {
    const reply = await updateRiderWebhook(request, context.db, session.user, context.webhookUrl);
    return json(reply.status, reply.body);
  }
  if (route.kind === 'add_segment' || route.kind === 'remove_segment') {
    const handle = route.kind === 'add_segment' ? addOwnSegmentFromUpload : removeOwnSegment;
    const reply = await handle(request, context.db, session.user);
    return json(reply.status, reply.body);
  }
  if (route.kind === 'checkout' || route.kind === 'portal')
    return billingRoute(route.kind, request, context, session.user);
  const result = await disconnectClient(withAuthTables(context.db), session.user.id, route.clientId);
  if (!result.disconnected)
    return json(404, { error: 'not_found', error_description: 'No such connection.' });
  return json(200, {
    disconnected: true,
    client_id: route.clientId,
    revoked_tokens: result.refreshTokens + result.accessTokens,
  });
}

/** Checkout and portal: Stripe's answer is a URL the page sends the rider to. */
async function billingRoute(
  kind: 'checkout' | 'portal',
  request: Request,
  context: RiderApiContext,
  user: { id: string; email: string; createdAt: Date },
): Promise<Response> {
  const { db, origin, payments } = context;
  try {
    if (kind === 'portal') {
      const reply = await payments.portal(db, user.id, origin);
      return json(reply.status, reply.body);
    }
    const body: unknown = await request.json().catch(() => undefined);
    const rider = await ensureRider(db, user);
    const reply = await payments.checkout(db, rider, body, origin, nowSeconds());
    return json(reply.status, reply.body);
  } catch (error) {
    console.error(
      `billing ${kind} for rider ${user.id} failed:`,
      error instanceof Error ? error.message : error,
    );
    return json(502, {
      error: 'payment_provider_unavailable',
      error_description: 'The payment provider could not be reached. Try again in a moment.',
    });
  }
}
