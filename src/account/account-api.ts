/**
 * The JSON behind the settings page, for the signed-in rider (the better-auth
 * session cookie): `GET /api/rider/me`,
 * `POST /api/rider/connections/{clientId}/disconnect`,
 * `POST /api/rider/webhook` (see `webhook-setting.ts`),
 * `POST /api/rider/segments` and `/api/rider/segments/remove` (see `own-segments-api.ts`),
 * `POST /api/rider/watchlist` and `/api/rider/watchlist/remove` (see `watch-api.ts`),
 * `POST /api/rider/billing/checkout` and `POST /api/rider/billing/portal`
 * (payments through the port {@link AccountPayments}), the alert channels
 * (`POST /api/rider/channels`, `/push`, `/push/remove`, `/calendar`: see
 * `channels-api.ts`) and `GET /api/rider/export` (`export.ts`). A POST must
 * come from our own origin (the `Origin` header browsers always send on it),
 * which stops cross-site forgery even where SameSite cookies are not
 * honoured. Two paths need no session, since their secret is in the address
 * and they are called by mail and calendar apps: the calendar feed
 * (`calendar-feed.ts`) and one-click unsubscribe (`unsubscribe.ts`).
 */
import { localSpan } from '../core/local-time.ts';
import { segmentTimeZone } from '../data/time-zone/zone-at.ts';
import type { Kysely } from 'kysely';
import type { WebhookTargetCheck } from '../rider/webhook-url.ts';
import { answerResponse, refusal, type AnswerTarget, type JsonAnswer } from '../http/json-answer.ts';
import { CACHE } from '../http/cache-control.ts';
import { ApiError } from '../core/problems.ts';
import { OWN_SEGMENT_ALLOWANCE } from '../core/plans.ts';
import { hasProAccess, isInTrial, ownSegmentAllowance, planNow } from '../core/rider-rules.ts';
import { isoTime } from '../core/time.ts';
import { nowSeconds } from '../store/clock.ts';
import { listOwnSegments } from '../service/own-segments.ts';
import { readWatchlist } from '../service/watchlist.ts';
import type { Database } from '../store/schema.ts';
import type { Rider } from '../service/account.ts';
import type { SegmentCatalog } from '../data/segments/types.ts';
import { connectionsOf, disconnect } from '../service/account.ts';
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
import { changeWatch, UNWATCH_PATH, WATCH_PATH } from './watch-api.ts';
import { channelsOf, deliveriesOf, riderOfCalendarToken } from '../service/alert-channels.ts';
import { addPushDevice, changeCalendar, removeDevice, switchChannels } from './channels-api.ts';
import { calendarFeed } from './calendar-feed.ts';
import { unsubscribe } from './unsubscribe.ts';
import { exportResponse } from './export.ts';
import {
  CALENDAR_FEED_PREFIX,
  CALENDAR_FEED_SUFFIX,
  CALENDAR_PATH,
  CHANNELS_PATH,
  EXPORT_PATH,
  PUSH_PATH,
  PUSH_REMOVE_PATH,
  UNSUBSCRIBE_PATH,
} from './channel-paths.ts';

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
  /** better-auth's flag: the rider followed the link mailed to this address. */
  readonly emailVerified?: boolean;
}

/**
 * What the channels need from the composition root: the VAPID public key a
 * browser subscribes with (made at first need and stored), and how mail
 * leaves this deployment (`outbox` says nothing is really sent; absent: no
 * mailer, so addresses cannot be verified).
 */
export interface AccountChannels {
  pushPublicKey(): Promise<string>;
  readonly mail?: 'smtp' | 'outbox';
}

/**
 * Payments as the settings page uses them: the composition root wires them
 * to `src/billing` (a peer surface this one does not import), whose answers
 * say so when payments are off.
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
  ): Promise<JsonAnswer>;
  portal(db: Kysely<Database>, riderId: string, origin: string): Promise<JsonAnswer>;
}

export interface RiderApiContext {
  /** The signed-in user of the request's session cookie, or null (the authorization server's session check). */
  readonly session: (headers: Headers) => Promise<{ readonly user: SessionUser } | null>;
  readonly db: Kysely<Database>;
  readonly origin: string;
  /** `{docs_url}` of problem `type` URIs; `{origin}/docs` when unset. */
  readonly docsUrl?: string | undefined;
  /** The segment catalog, which names the watched and alerted segments with the rider's own ones. */
  readonly catalog: Pick<SegmentCatalog, 'get'>;
  /** The webhook target rule a saved URL must pass (the alert job's own). */
  readonly checkTarget: WebhookTargetCheck;
  readonly payments: AccountPayments;
  /** Email and push; without it the page shows push as unavailable. */
  readonly channels?: AccountChannels;
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

async function me(context: RiderApiContext, user: SessionUser) {
  const { db, origin, catalog } = context;
  const rider = await ensureRider(db, user);
  const now = nowSeconds();
  const [connections, watched, own, billing, { channels, devices }, pushKey] = await Promise.all([
    connectionsOf(db, rider.id),
    readWatchlist(db, rider.id, riderSegmentLookup(catalog, db, rider.id), RECENT_ALERTS),
    listOwnSegments(db, rider.id),
    context.payments.summary(db, rider, now),
    channelsOf(db, rider.id),
    context.channels ? context.channels.pushPublicKey() : Promise.resolve(null),
  ]);
  const { entries: watchlist, alerts, segments: named } = watched;
  const deliveries = await deliveriesOf(
    db,
    rider.id,
    alerts.map((a) => a.id),
  );
  const deviceLabels = new Map(devices.map((d) => [d.id, d.label]));
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
    channels: {
      email: {
        on: channels?.emailAlerts ?? true,
        verified: user.emailVerified === true,
        // 'outbox': this deployment keeps mail in a folder instead of sending it.
        delivery: context.channels?.mail ?? null,
      },
      push: {
        on: channels?.pushAlerts ?? true,
        public_key: pushKey,
        devices: devices.map((d) => ({ id: d.id, label: d.label, added_at: isoTime(d.createdAt) })),
      },
      // The address itself is shown once, when made: only its hash is kept.
      calendar: { on: channels?.calendarOn ?? false },
    },
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
    alerts: alerts.map((a) => {
      const segment = named.get(a.segmentId);
      const timeZone = segment === undefined ? 'UTC' : segmentTimeZone(segment);
      return {
        segment_id: a.segmentId,
        segment_name: name(a.segmentId),
        window_start: iso(a.windowStart),
        window_end: iso(a.windowEnd),
        time_zone: timeZone,
        // The window on the segment's clock, in the one format of every answer.
        window_text: localSpan(a.windowStart, a.windowEnd, timeZone),
        peak_tailwind_kmh: a.peakTailwindKmh,
        delivered: a.deliveredAt !== null,
        deliveries: [
          ...(rider.webhook || a.attempts > 0
            ? [
                {
                  channel: 'webhook',
                  state: a.deliveredAt !== null ? 'delivered' : a.attempts === 0 ? 'pending' : 'failed',
                  attempts: a.attempts,
                  last_error: a.lastError,
                },
              ]
            : []),
          ...deliveries
            .filter((d) => d.alertId === a.id)
            .map((d) => ({
              channel: d.channel,
              ...(d.channel === 'push' ? { device: deviceLabels.get(d.target) ?? 'a removed device' } : {}),
              state: d.state,
              attempts: d.attempts,
              last_error: d.lastError,
              next_attempt_at: d.state === 'failed' ? isoTime(d.nextAttemptAt) : null,
            })),
        ],
      };
    }),
  };
}

type SettingsEndpoint =
  | { kind: 'me' }
  | { kind: 'webhook' }
  | { kind: 'add_segment' }
  | { kind: 'remove_segment' }
  | { kind: 'watch' }
  | { kind: 'unwatch' }
  | { kind: 'checkout' }
  | { kind: 'portal' }
  | { kind: 'channels' }
  | { kind: 'push' }
  | { kind: 'push_remove' }
  | { kind: 'calendar' }
  | { kind: 'export' }
  | { kind: 'disconnect'; clientId: string };

function endpointOf(pathname: string): SettingsEndpoint | undefined {
  if (pathname === ME_PATH) return { kind: 'me' };
  if (pathname === WEBHOOK_PATH) return { kind: 'webhook' };
  if (pathname === OWN_SEGMENTS_PATH) return { kind: 'add_segment' };
  if (pathname === OWN_SEGMENT_REMOVE_PATH) return { kind: 'remove_segment' };
  if (pathname === WATCH_PATH) return { kind: 'watch' };
  if (pathname === UNWATCH_PATH) return { kind: 'unwatch' };
  if (pathname === CHECKOUT_PATH) return { kind: 'checkout' };
  if (pathname === PORTAL_PATH) return { kind: 'portal' };
  if (pathname === CHANNELS_PATH) return { kind: 'channels' };
  if (pathname === PUSH_PATH) return { kind: 'push' };
  if (pathname === PUSH_REMOVE_PATH) return { kind: 'push_remove' };
  if (pathname === CALENDAR_PATH) return { kind: 'calendar' };
  if (pathname === EXPORT_PATH) return { kind: 'export' };
  const clientId = disconnectTarget(pathname);
  return clientId === undefined ? undefined : { kind: 'disconnect', clientId };
}

/** The endpoints, for the hint of a `not_found`. */
const ENDPOINTS = `GET ${ME_PATH}, ${EXPORT_PATH}, ${CALENDAR_FEED_PREFIX}{secret}${CALENDAR_FEED_SUFFIX}; POST ${CHANNELS_PATH}, ${PUSH_PATH}, ${PUSH_REMOVE_PATH}, ${CALENDAR_PATH}, ${UNSUBSCRIBE_PATH}?token=…, ${WEBHOOK_PATH}, ${OWN_SEGMENTS_PATH}, ${OWN_SEGMENT_REMOVE_PATH}, ${WATCH_PATH}, ${UNWATCH_PATH}, ${CHECKOUT_PATH}, ${PORTAL_PATH}, ${CONNECTIONS_PREFIX}{client_id}${DISCONNECT_SUFFIX}`;

/**
 * Answers `/api/rider/*`; the caller routes only those paths here. Every
 * error is a problem document; a failure nobody foresaw is logged and
 * answered as `internal_error` without its message.
 */
export async function riderApi(request: Request, context: RiderApiContext): Promise<Response> {
  const instance = new URL(request.url).pathname;
  const target: AnswerTarget = { instance, docsUrl: context.docsUrl ?? `${context.origin}/docs` };
  const open = await openPath(request, instance, context).catch((error: unknown) => {
    console.error('[wind-on-segment] settings API', instance, error);
    return refusal('internal_error', 'The server failed to answer this request.');
  });
  if (open) return open instanceof Response ? open : answerResponse(open, target);
  const route = endpointOf(instance);
  if (!route) {
    const answer = refusal(
      'not_found',
      `No settings endpoint at ${instance}.`,
      undefined,
      `Use one of: ${ENDPOINTS}.`,
    );
    return answerResponse(answer, target);
  }
  const method = route.kind === 'me' || route.kind === 'export' ? 'GET' : 'POST';
  if (request.method !== method) {
    const answer = refusal(
      'method_not_allowed',
      `${instance} answers ${method} only.`,
      undefined,
      `Send a ${method}.`,
    );
    const response = answerResponse(answer, target);
    response.headers.set('Allow', method);
    return response;
  }
  try {
    const answer = await routed(route, request, context);
    return answer instanceof Response ? answer : answerResponse(answer, target);
  } catch (error) {
    if (error instanceof ApiError) return answerResponse(error, target);
    console.error('[wind-on-segment] settings API', instance, error);
    const hint = 'This is a fault on our side. Retry in a moment; if it persists, report it.';
    return answerResponse(
      refusal('internal_error', 'The server failed to answer this request.', undefined, hint),
      target,
    );
  }
}

/** The feed token of `/api/rider/calendar/<token>.ics`, or undefined for another path. */
function feedToken(pathname: string): string | undefined {
  if (!pathname.startsWith(CALENDAR_FEED_PREFIX) || !pathname.endsWith(CALENDAR_FEED_SUFFIX))
    return undefined;
  const token = pathname.slice(CALENDAR_FEED_PREFIX.length, -CALENDAR_FEED_SUFFIX.length);
  return token.includes('/') ? undefined : token;
}

/**
 * The two paths opened by a secret in the address rather than a session:
 * the calendar feed and one-click unsubscribe. Undefined for every other path.
 */
async function openPath(
  request: Request,
  pathname: string,
  context: RiderApiContext,
): Promise<JsonAnswer | Response | undefined> {
  if (pathname === UNSUBSCRIBE_PATH) return unsubscribe(request, context.db);
  const token = feedToken(pathname);
  if (token === undefined) return undefined;
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return refusal('method_not_allowed', 'A calendar feed is read with GET.');
  }
  const riderId = await riderOfCalendarToken(context.db, token);
  if (!riderId) {
    return refusal(
      'link_not_valid',
      'This calendar address is not valid (renewed, turned off or never issued).',
    );
  }
  const body = await calendarFeed(context.db, context.catalog, riderId, context.origin, nowSeconds());
  return new Response(request.method === 'HEAD' ? null : body, {
    status: 200,
    headers: {
      'Content-Type': 'text/calendar; charset=utf-8',
      'Content-Disposition': 'inline; filename="tailwind-windows.ics"',
      'Cache-Control': CACHE.calendarFeed,
    },
  });
}

async function routed(
  route: SettingsEndpoint,
  request: Request,
  context: RiderApiContext,
): Promise<JsonAnswer | Response> {
  // Reads (me, export) answer only the caller's own browser, which CORS keeps other sites from reading.
  if (request.method !== 'GET' && request.headers.get('origin') !== context.origin) {
    return refusal('cross_site_request', 'Cross-site request refused.');
  }
  const session = await context.session(request.headers);
  if (!session) return refusal('unauthorized', 'Sign in first.');
  if (route.kind === 'me') return { status: 200, body: await me(context, session.user) };
  if (route.kind === 'export') return exportResponse(context.db, session.user, context.origin);
  if (route.kind === 'channels') return switchChannels(request, context.db, session.user);
  if (route.kind === 'push') return addPushDevice(request, context.db, session.user, context.checkTarget);
  if (route.kind === 'push_remove') return removeDevice(request, context.db, session.user);
  if (route.kind === 'calendar') return changeCalendar(request, context.db, session.user, context.origin);
  if (route.kind === 'webhook')
    return updateRiderWebhook(request, context.db, session.user, context.checkTarget);
  if (route.kind === 'add_segment') return addOwnSegmentFromUpload(request, context.db, session.user);
  if (route.kind === 'remove_segment') return removeOwnSegment(request, context.db, session.user);
  if (route.kind === 'watch' || route.kind === 'unwatch')
    return changeWatch(route.kind, request, context.db, context.catalog, session.user);
  if (route.kind === 'checkout' || route.kind === 'portal')
    return billingRoute(route.kind, request, context, session.user);
  const result = await disconnect(context.db, session.user.id, route.clientId);
  if (!result.disconnected) return refusal('connection_not_found', 'No such connection.');
  return {
    status: 200,
    body: {
      disconnected: true,
      client_id: route.clientId,
      revoked_tokens: result.refreshTokens + result.accessTokens,
    },
  };
}

/** Checkout and portal: Stripe's answer is a URL the page sends the rider to. */
async function billingRoute(
  kind: 'checkout' | 'portal',
  request: Request,
  context: RiderApiContext,
  user: { id: string; email: string; createdAt: Date },
): Promise<JsonAnswer> {
  const { db, origin, payments } = context;
  try {
    if (kind === 'portal') return await payments.portal(db, user.id, origin);
    const body: unknown = await request.json().catch(() => undefined);
    const rider = await ensureRider(db, user);
    return await payments.checkout(db, rider, body, origin, nowSeconds());
  } catch (error) {
    console.error(
      `billing ${kind} for rider ${user.id} failed:`,
      error instanceof Error ? error.message : error,
    );
    return refusal(
      'payment_provider_unavailable',
      'The payment provider could not be reached. Try again in a moment.',
    );
  }
}
