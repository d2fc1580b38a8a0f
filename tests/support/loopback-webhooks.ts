/**
 * The webhook target rule for tests whose receivers listen on this machine
 * over plain http (localhost, 127.0.0.0/8, ::1), which the production rule
 * refuses: it approves a loopback URL at its own address and leaves every
 * other URL to the real rule. Injected where production injects the real one
 * (`checkTarget`).
 */
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { checkWebhookUrl, type WebhookUrlCheck } from '../../src/rider/webhook-url.ts';

export async function acceptLoopback(raw: string): Promise<WebhookUrlCheck> {
  const url = URL.parse(raw);
  const host = url?.hostname.replace(/^\[(.*)\]$/, '$1') ?? '';
  const address = host === 'localhost' ? '127.0.0.1' : host;
  const loopback = isIP(address) !== 0 && ipaddr.process(address).range() === 'loopback';
  if (!url || !loopback) return checkWebhookUrl(raw);
  return { ok: true, url, address, family: isIP(address) === 6 ? 6 : 4 };
}
