/**
 * How a webhook receiver tells a delivery came from this service and is
 * fresh: `X-WOS-Signature: sha256=<hex>` is the HMAC-SHA256, keyed with the
 * rider's webhook secret, of `<X-WOS-Timestamp>.<raw body>`. Signing the
 * timestamp with the body lets a receiver refuse a replayed old delivery; the
 * scheme is the one Stripe and Slack use, so receivers know it.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** How far a delivery's timestamp may be from the receiver's clock by default (5 minutes). */
export const SIGNATURE_TOLERANCE_S = 300;

const PREFIX = 'sha256=';

/** The `X-WOS-Signature` value for a body sent at `timestamp` (unix seconds). */
export function signWebhook(secret: string, timestamp: number | string, body: string): string {
  return PREFIX + createHmac('sha256', secret).update(`${timestamp}.${body}`, 'utf8').digest('hex');
}

export interface VerifyOptions {
  /** The receiver's clock, unix seconds; defaults to now. */
  readonly nowS?: number;
  /** Largest accepted distance between `timestamp` and `nowS`; `Infinity` turns the check off. */
  readonly toleranceS?: number;
}

/**
 * The reference check for riders' receivers (and the tests): true when
 * `signature` is the header this service would send for `body` at `timestamp`
 * with `secret`, and the timestamp is within the tolerance. Compares in
 * constant time. Pass the raw body bytes as received, before any JSON parsing.
 */
export function verifyWebhookSignature(
  secret: string,
  timestamp: string | number,
  body: string,
  signature: string,
  options: VerifyOptions = {},
): boolean {
  const text = String(timestamp);
  if (!/^\d{1,12}$/.test(text)) return false;
  const nowS = options.nowS ?? Math.floor(Date.now() / 1000);
  if (Math.abs(nowS - Number(text)) > (options.toleranceS ?? SIGNATURE_TOLERANCE_S)) return false;
  const hex = /^sha256=([0-9a-f]{64})$/i.exec(signature.trim())?.[1];
  if (hex === undefined) return false;
  const given = Buffer.from(hex, 'hex');
  const expected = Buffer.from(signWebhook(secret, text, body).slice(PREFIX.length), 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
