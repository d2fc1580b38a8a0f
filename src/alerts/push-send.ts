/**
 * Web Push to one browser or phone: the `web-push` library encrypts the
 * payload for the subscription's keys (RFC 8291, `aes128gcm`) and signs the
 * VAPID header (RFC 8292); the request itself (RFC 8030) goes out through
 * `node:http(s)` pinned to the address the target rule approved, as the
 * webhook does (`webhook-send.ts`), since a push endpoint is a URL a browser
 * handed us and must not lead the job to an address inside our network.
 */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import webPush from 'web-push';
import type { WebhookTarget, WebhookTargetCheck } from '../rider/webhook-url.ts';
import type { VapidKeys } from '../rider/push-keys.ts';
import type { PushDevice } from '../store/repositories/push-subscriptions.ts';
import { pinnedLookup } from './webhook-send.ts';

/** A push service should answer at once (201); a hanging one fails the attempt after this. */
export const PUSH_TIMEOUT_MS = 10_000;

/** How one push ended. `gone`: the service says the subscription no longer exists (404, 410). */
export type PushResult =
  | { readonly kind: 'sent' }
  | { readonly kind: 'gone'; readonly status: number }
  /** The endpoint breaks the target rule (not https, not a public address): never sent. */
  | { readonly kind: 'refused'; readonly error: string }
  | { readonly kind: 'failed'; readonly error: string };

/** Sends bytes and resolves with the status; rejects on network failure or time-out. */
export type PushTransport = (
  target: WebhookTarget,
  request: { headers: Record<string, string>; body: Uint8Array; timeoutMs: number },
) => Promise<number>;

export const pinnedPushTransport: PushTransport = (target, { headers, body, timeoutMs }) =>
  new Promise((resolve, reject) => {
    const send = target.url.protocol === 'https:' ? httpsRequest : httpRequest;
    const outgoing = send(
      target.url,
      {
        method: 'POST',
        headers: { ...headers, 'Content-Length': String(body.byteLength) },
        lookup: pinnedLookup(target.address, target.family),
        agent: false,
        signal: AbortSignal.timeout(timeoutMs),
      },
      (answer) => {
        answer.resume();
        resolve(answer.statusCode ?? 0);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });

export interface PushOptions {
  readonly keys: VapidKeys;
  /** `mailto:` or https contact for the push service (VAPID `sub`). */
  readonly contact: string;
  readonly checkTarget: WebhookTargetCheck;
  readonly transport?: PushTransport;
  readonly timeoutMs?: number;
  /** How long the push service may hold the message for an offline device: until the window ends. */
  readonly ttlS: number;
}

function failureOf(error: unknown, timeoutMs: number): string {
  const timedOut = (e: unknown) => e instanceof Error && e.name === 'TimeoutError';
  if (timedOut(error) || (error instanceof Error && timedOut(error.cause)))
    return `the push service did not answer within ${timeoutMs} ms`;
  return `the push service could not be reached: ${error instanceof Error ? error.message : String(error)}`;
}

export async function sendPush(
  device: PushDevice,
  payload: string,
  options: PushOptions,
): Promise<PushResult> {
  const timeoutMs = options.timeoutMs ?? PUSH_TIMEOUT_MS;
  const check = await options.checkTarget(device.endpoint);
  if (!check.ok) return { kind: 'refused', error: check.reason };
  const details = webPush.generateRequestDetails(
    { endpoint: device.endpoint, keys: { p256dh: device.p256dh, auth: device.auth } },
    payload,
    {
      vapidDetails: {
        subject: options.contact,
        publicKey: options.keys.publicKey,
        privateKey: options.keys.privateKey,
      },
      TTL: Math.max(0, Math.floor(options.ttlS)),
      urgency: 'normal',
      contentEncoding: 'aes128gcm',
    },
  );
  const headers = Object.fromEntries(
    Object.entries(details.headers).map(([name, value]) => [name, String(value)]),
  );
  try {
    const status = await (options.transport ?? pinnedPushTransport)(check, {
      headers,
      body: details.body,
      timeoutMs,
    });
    if (status >= 200 && status < 300) return { kind: 'sent' };
    if (status === 404 || status === 410) return { kind: 'gone', status };
    return { kind: 'failed', error: `the push service answered HTTP ${status}` };
  } catch (error) {
    return { kind: 'failed', error: failureOf(error, timeoutMs) };
  }
}
