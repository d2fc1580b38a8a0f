/**
 * `POST /api/rider/webhook`: the signed-in rider sets (`{ "url": "https://…" }`)
 * or removes (`{ "url": null }`) the URL their tailwind alerts are POSTed to.
 * The URL is checked here with the same rule the alert job applies before each
 * delivery, so a rider hears at once that a URL will never be used instead of
 * finding failed deliveries later. Every save makes a fresh signing secret and
 * answers it this one time only: the server never shows it again, so a rider
 * who lost it saves the URL again (which also rotates a leaked secret).
 */
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { isRefusal, refusal, type JsonAnswer } from '../http/json-answer.ts';
import type { ApiError } from '../core/problems.ts';
import type { WebhookTargetCheck } from '../rider/webhook-url.ts';
import type { Database } from '../store/schema.ts';
import { setRiderWebhook } from '../service/account.ts';
import { ensureRider, type AuthUser } from '../rider/rider-account.ts';
import { readBoundedText } from '../http/bounded-body.ts';

import { WEBHOOK_BODY_MAX_BYTES } from './account-paths.ts';

export { WEBHOOK_BODY_MAX_BYTES, WEBHOOK_PATH } from './account-paths.ts';
/** Longest webhook URL accepted, before and after normalisation (what browsers and proxies reliably carry). */
export const WEBHOOK_URL_MAX_LENGTH = 2048;
/** Random bytes in a signing secret (256 bits, the HMAC-SHA256 key size). */
const SECRET_BYTES = 32;

export const WebhookSettingSchema = z.object({
  url: z.string().trim().min(1).max(WEBHOOK_URL_MAX_LENGTH).nullable(),
});

/** A fresh signing secret: 32 random bytes as base64url (43 characters), safe in any header or JSON. */
export function newWebhookSecret(): string {
  return randomBytes(SECRET_BYTES).toString('base64url');
}

async function parseSetting(request: Request): Promise<z.infer<typeof WebhookSettingSchema> | ApiError> {
  const type = request.headers.get('content-type') ?? '';
  if (!/^application\/json\s*(;|$)/i.test(type)) {
    return refusal('unsupported_media_type', 'Send the webhook setting as application/json.');
  }
  const text = await readBoundedText(request, WEBHOOK_BODY_MAX_BYTES);
  if (text === undefined) return refusal('payload_too_large', 'The request body is too large.');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return refusal('invalid_request', 'The request body is not valid JSON.');
  }
  const parsed = WebhookSettingSchema.safeParse(json);
  if (parsed.success) return parsed.data;
  const tooLong = parsed.error.issues.some((issue) => issue.code === 'too_big');
  return refusal(
    'invalid_webhook_url',
    tooLong
      ? `refused: the webhook URL is longer than ${WEBHOOK_URL_MAX_LENGTH} characters`
      : 'refused: send { "url": "https://…" } to set the webhook, or { "url": null } to remove it',
  );
}

/**
 * Applies a `POST /api/rider/webhook` for the session's rider (the caller has
 * checked the method, the Origin and the session): the rider id comes from the
 * session alone, so no request can name another rider's row.
 */
export async function updateRiderWebhook(
  request: Request,
  db: Kysely<Database>,
  user: AuthUser,
  checkTarget: WebhookTargetCheck,
): Promise<JsonAnswer> {
  const setting = await parseSetting(request);
  if (isRefusal(setting)) return setting;
  const rider = await ensureRider(db, user);
  if (setting.url === null) {
    await setRiderWebhook(db, rider.id, null);
    return { status: 200, body: { webhook_url: null } };
  }
  const check = await checkTarget(setting.url);
  if (!check.ok) return refusal('invalid_webhook_url', check.reason);
  const url = check.url.href;
  if (url.length > WEBHOOK_URL_MAX_LENGTH) {
    return refusal(
      'invalid_webhook_url',
      `refused: the webhook URL is longer than ${WEBHOOK_URL_MAX_LENGTH} characters`,
    );
  }
  const secret = newWebhookSecret();
  await setRiderWebhook(db, rider.id, { url, secret });
  return { status: 200, body: { webhook_url: url, secret } };
}
