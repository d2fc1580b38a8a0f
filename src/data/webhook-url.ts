/**
 * Which webhook URLs the service will POST to. A rider chooses the URL, so
 * without a rule the alert job could be pointed at the service's own network
 * (SSRF: cloud metadata at 169.254.169.254, a database on 10.x, localhost).
 * The rule: https only, no credentials in the URL, and the host must be (or
 * resolve only to) public unicast addresses. Plain http is allowed only to
 * loopback and only with `allowInsecureLocalhost` (tests, local development).
 *
 * Limits, documented: the name is resolved here and again by `fetch`, so a
 * hostile DNS server could answer differently the second time (DNS
 * rebinding); redirects are never followed, so a public URL cannot bounce the
 * POST inward. Call it when a rider saves a URL too, to refuse it up front.
 */
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/** Resolves a host name to every address it has; injectable for tests. */
export type HostLookup = (hostname: string) => Promise<readonly string[]>;

export interface WebhookUrlOptions {
  /** Allows http:// (and https://) to localhost, 127.0.0.0/8 and ::1: for tests only. */
  readonly allowInsecureLocalhost?: boolean;
  readonly lookup?: HostLookup;
}

export type WebhookUrlCheck =
  { readonly ok: true; readonly url: URL } | { readonly ok: false; readonly reason: string };

const IPV4_NOT_PUBLIC: readonly (readonly [string, number])[] = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
];
const IPV6_NOT_PUBLIC: readonly (readonly [string, number])[] = [
  ['::', 96],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 32],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
];

const notPublic = new BlockList();
for (const [net, prefix] of IPV4_NOT_PUBLIC) notPublic.addSubnet(net, prefix, 'ipv4');
// IPv4-mapped addresses (::ffff:10.0.0.1) are checked against the IPv4 rules by BlockList itself.
for (const [net, prefix] of IPV6_NOT_PUBLIC) notPublic.addSubnet(net, prefix, 'ipv6');

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

/** True for an IP address a webhook may be sent to: public unicast, not reserved, private or loopback. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  return !notPublic.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

function isLoopbackHost(hostname: string): boolean {
  if (hostname === 'localhost') return true;
  const family = isIP(hostname);
  return family !== 0 && loopback.check(hostname, family === 4 ? 'ipv4' : 'ipv6');
}

const systemLookup: HostLookup = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

/** Applies the rule above; the reason is stored as the delivery's error, so it is written for the rider. */
export async function checkWebhookUrl(
  raw: string,
  options: WebhookUrlOptions = {},
): Promise<WebhookUrlCheck> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'refused: the webhook URL is not a valid URL' };
  }
  if (url.username !== '' || url.password !== '') {
    return { ok: false, reason: 'refused: the webhook URL must not contain a user name or password' };
  }
  // URL keeps IPv6 hosts in brackets and already normalises forms such as 0x7f.1 to 127.0.0.1.
  const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (options.allowInsecureLocalhost && isLoopbackHost(hostname)) {
    return url.protocol === 'http:' || url.protocol === 'https:'
      ? { ok: true, url }
      : { ok: false, reason: 'refused: the webhook URL must use https' };
  }
  if (url.protocol !== 'https:') return { ok: false, reason: 'refused: the webhook URL must use https' };
  if (hostname === 'localhost' || hostname.endsWith('.localhost')) {
    return { ok: false, reason: 'refused: the webhook host is not a public address' };
  }
  let addresses: readonly string[];
  if (isIP(hostname) !== 0) addresses = [hostname];
  else {
    try {
      addresses = await (options.lookup ?? systemLookup)(hostname);
    } catch {
      return { ok: false, reason: `refused: the webhook host ${hostname} does not resolve` };
    }
  }
  if (addresses.length === 0 || !addresses.every(isPublicAddress)) {
    return { ok: false, reason: 'refused: the webhook host is not a public address' };
  }
  return { ok: true, url };
}
