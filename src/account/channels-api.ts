/**
 * The settings page's alert channels, for the signed-in rider:
 *
 * - `POST /api/rider/channels` `{ "email": true|false, "push": true|false }`
 *   turns email or push alerts on or off (the webhook has its own endpoint);
 * - `POST /api/rider/push` with the browser's `PushSubscription.toJSON()`
 *   (and a `label` naming the device) adds this browser or phone, and
 *   `POST /api/rider/push/remove` `{ "id": "…" }` removes one;
 * - `POST /api/rider/calendar` `{ "action": "renew" | "off" }` makes a new
 *   private calendar address (the old one stops at once), answered this one
 *   time only, or turns the feed off.
 *
 * A push endpoint is a URL the browser names, and the alert job will POST to
 * it, so it must pass the webhook's target rule (https, public address) here
 * and again before every push.
 */
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { isRefusal, refusal, type JsonAnswer } from '../http/json-answer.ts';
import type { WebhookTargetCheck } from '../rider/webhook-url.ts';
import { ensureRider, type AuthUser } from '../rider/rider-account.ts';
import { nowSeconds } from '../store/clock.ts';
import { removePushDevice, savePushDevice, setChannelOn, switchCalendar } from '../service/alert-channels.ts';
import type { Database } from '../store/schema.ts';
import { CALENDAR_FEED_PREFIX, CALENDAR_FEED_SUFFIX } from './channel-paths.ts';
import { readJson } from './read-json.ts';
import { LINE_BREAKING } from '../data/mail/mail-address.ts';

const BODY_MAX = 8 * 1024;
/** Longest push endpoint kept (push services' URLs are a few hundred characters). */
const ENDPOINT_MAX = 2048;
const LABEL_MAX = 60;

export const ChannelSwitchSchema = z
  .object({ email: z.boolean().optional(), push: z.boolean().optional() })
  .strict()
  .refine(
    (body) => body.email !== undefined || body.push !== undefined,
    'Send { "email": true|false } or { "push": true|false }.',
  );

/** Base64url that decodes to exactly `bytes` bytes (padding allowed). */
const keyOf = (bytes: number, name: string) =>
  z
    .string()
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, `${name} must be base64url`)
    .refine((text) => Buffer.from(text, 'base64url').length === bytes, `${name} must be ${bytes} bytes`);

export const PushSubscriptionSchema = z.object({
  endpoint: z.string().min(1).max(ENDPOINT_MAX),
  expirationTime: z.number().nullable().optional(),
  keys: z.object({
    // An uncompressed P-256 point (RFC 8291 §3.1) and a 16-byte auth secret.
    p256dh: keyOf(65, 'keys.p256dh').refine(
      (text) => Buffer.from(text, 'base64url')[0] === 4,
      'keys.p256dh must be an uncompressed P-256 key',
    ),
    auth: keyOf(16, 'keys.auth'),
  }),
  label: z.string().max(200).optional(),
});

export const PushRemoveSchema = z.object({ id: z.string().min(1).max(100) });
export const CalendarActionSchema = z.object({ action: z.enum(['renew', 'off']) });

/** A device name fit for the page: printable, one line, short. */
function deviceLabel(label: string | undefined): string {
  const clean = (label ?? '').replace(LINE_BREAKING, ' ').replace(/[<>]/g, ' ').replace(/\s+/g, ' ').trim();
  return clean.slice(0, LABEL_MAX) || 'A browser';
}

type Parsed<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly answer: JsonAnswer };

/** The body read and checked against `schema`, or the refusal naming the first thing wrong with it. */
async function parsed<T>(
  request: Request,
  schema: z.ZodType<T>,
  code: 'invalid_request' | 'invalid_push_subscription',
): Promise<Parsed<T>> {
  const read = await readJson(request, BODY_MAX);
  if (isRefusal(read)) return { ok: false, answer: read };
  const result = schema.safeParse(read.json);
  if (result.success) return { ok: true, value: result.data };
  const issue = result.error.issues[0];
  const where = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
  const detail = `Not saved: ${where}${issue?.message ?? 'the body is not what this endpoint takes'}.`;
  return { ok: false, answer: refusal(code, detail) };
}

export async function switchChannels(
  request: Request,
  db: Kysely<Database>,
  user: AuthUser,
): Promise<JsonAnswer> {
  const read = await parsed(request, ChannelSwitchSchema, 'invalid_request');
  if (!read.ok) return read.answer;
  const body = read.value;
  const rider = await ensureRider(db, user);
  if (body.email !== undefined) await setChannelOn(db, rider.id, 'email', body.email);
  if (body.push !== undefined) await setChannelOn(db, rider.id, 'push', body.push);
  return {
    status: 200,
    body: {
      ...(body.email === undefined ? {} : { email: body.email }),
      ...(body.push === undefined ? {} : { push: body.push }),
    },
  };
}

export async function addPushDevice(
  request: Request,
  db: Kysely<Database>,
  user: AuthUser,
  checkTarget: WebhookTargetCheck,
): Promise<JsonAnswer> {
  const read = await parsed(request, PushSubscriptionSchema, 'invalid_push_subscription');
  if (!read.ok) return read.answer;
  const body = read.value;
  const check = await checkTarget(body.endpoint);
  if (!check.ok) {
    return refusal(
      'invalid_push_subscription',
      `Not saved: ${check.reason.replace(/^refused: /, '').replace(/webhook URL/g, 'push endpoint')}.`,
    );
  }
  const rider = await ensureRider(db, user);
  const device = await savePushDevice(
    db,
    rider.id,
    {
      endpoint: body.endpoint,
      p256dh: body.keys.p256dh,
      auth: body.keys.auth,
      label: deviceLabel(body.label),
    },
    nowSeconds(),
  );
  return { status: 200, body: { id: device.id, label: device.label } };
}

export async function removeDevice(
  request: Request,
  db: Kysely<Database>,
  user: AuthUser,
): Promise<JsonAnswer> {
  const read = await parsed(request, PushRemoveSchema, 'invalid_request');
  if (!read.ok) return read.answer;
  const body = read.value;
  const removed = await removePushDevice(db, user.id, body.id);
  if (!removed) return refusal('device_not_found', 'You have no push device with this id.');
  return { status: 200, body: { removed: true, id: body.id } };
}

export async function changeCalendar(
  request: Request,
  db: Kysely<Database>,
  user: AuthUser,
  origin: string,
): Promise<JsonAnswer> {
  const read = await parsed(request, CalendarActionSchema, 'invalid_request');
  if (!read.ok) return read.answer;
  const body = read.value;
  const rider = await ensureRider(db, user);
  const token = await switchCalendar(db, rider.id, body.action !== 'off');
  if (token === null) return { status: 200, body: { calendar_url: null } };
  return {
    status: 200,
    body: { calendar_url: `${origin}${CALENDAR_FEED_PREFIX}${token}${CALENDAR_FEED_SUFFIX}` },
  };
}
