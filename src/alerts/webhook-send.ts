/**
 * Sends one webhook POST to the address the URL rule approved. `fetch` would
 * resolve the host name again (a second answer could point inward), so the
 * request goes through `node:http`/`node:https` with a `lookup` that answers
 * the checked address: the Host header, TLS SNI and certificate check still
 * use the URL's name, only the connection is pinned. No agent: each
 * delivery opens its own connection, so no pooled socket from an earlier
 * answer is reused.
 */
import { request as httpRequest, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import type { WebhookTarget } from '../data/webhook-url.ts';

export interface WebhookPost {
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly timeoutMs: number;
}

/** Sends a POST and resolves with the answer's status; rejects on network failure or timeout. */
export type WebhookSender = (target: WebhookTarget, post: WebhookPost) => Promise<number>;

/** A `lookup` that never asks DNS: every name resolves to the pinned address. */
export function pinnedLookup(address: string, family: 4 | 6): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
}

export const sendPinned: WebhookSender = (target, { headers, body, timeoutMs }) =>
  new Promise((resolve, reject) => {
    const options: RequestOptions = {
      method: 'POST',
      headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
      lookup: pinnedLookup(target.address, target.family),
      agent: false,
      signal: AbortSignal.timeout(timeoutMs),
    };
    const send = target.url.protocol === 'https:' ? httpsRequest : httpRequest;
    const outgoing = send(target.url, options, (answer) => {
      // The body is not read: only the status decides, and the connection is not reused.
      answer.resume();
      resolve(answer.statusCode ?? 0);
      answer.destroy();
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
