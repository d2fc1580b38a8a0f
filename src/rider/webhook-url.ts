/**
 * Which webhook URLs the service will POST to, and at which address. A rider
 * chooses the URL, so without a rule the alert job could be pointed at the
 * service's own network (SSRF: cloud metadata at 169.254.169.254, a
 * database on 10.x, localhost). The rule: https only, no credentials in the
 * URL, and the host must be (or resolve only to) globally routable unicast
 * addresses. Tests whose receiver listens on loopback inject their own
 * check where delivery and the settings API take one (`WebhookTargetCheck`).
 *
 * The check returns the address it approved, and delivery connects to that
 * address (see `src/alerts/alert-delivery.ts`): the name is never resolved a second time, so
 * a DNS server that answers differently later (rebinding) cannot move the
 * POST inward. Redirects are never followed. Call it when a rider saves a
 * URL too, to refuse it up front.
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** Resolves a host name to every address it has; injectable for tests. */
export type HostLookup = (hostname: string) => Promise<readonly string[]>;

/**
 * How long a webhook host may take to resolve. A resolver that hangs would
 * otherwise hold a delivery slot (or the rider's save) for the system's own
 * retry schedule, which is tens of seconds.
 */
export const DNS_TIMEOUT_MS = 3000;

export interface WebhookUrlOptions {
  readonly lookup?: HostLookup;
  /** Defaults to {@link DNS_TIMEOUT_MS}. */
  readonly dnsTimeoutMs?: number;
}

/** A URL that passed the rule, with the one address delivery must connect to. */
export interface WebhookTarget {
  readonly url: URL;
  readonly address: string;
  readonly family: 4 | 6;
}

export type WebhookUrlCheck =
  ({ readonly ok: true } & WebhookTarget) | { readonly ok: false; readonly reason: string };

/** The rule as the alert job and the settings API take it: {@link checkWebhookUrl} in production. */
export type WebhookTargetCheck = (raw: string) => Promise<WebhookUrlCheck>;

/** 2000::/3, the only IPv6 block IANA allocates for global unicast. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/**
 * True for an IP address a webhook may be sent to. The address is first
 * reduced to the form a socket would connect to: an IPv4-mapped IPv6
 * address (`::ffff:10.0.0.1`) is the IPv4 address. Then ipaddr.js names its
 * range, and only the ranges it leaves as plain `unicast` pass: for IPv4
 * that excludes private, loopback, link-local, CGNAT, multicast, broadcast,
 * documentation, benchmarking, AS112, AMT and 240/4; for IPv6 the address
 * must also lie in 2000::/3, which leaves out ::/8 (IPv4-compatible and
 * SIIT `::ffff:0:a.b.c.d` forms), 64:ff9b::/96 and 64:ff9b:1::/48 (NAT64,
 * which would translate to whatever IPv4 is embedded), 100::/64, ULA,
 * link-local and multicast; inside it, ipaddr.js's ranges take out 6to4
 * (2002::/16) and Teredo (2001::/32), whose embedded IPv4 may be private,
 * documentation, benchmarking, ORCHID and the other IETF-reserved blocks.
 * A library rather than our own table: its range list is maintained
 * against the IANA special-purpose registries.
 */
export function isPublicAddress(address: string): boolean {
  if (isIP(address) === 0) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  if (parsed.range() !== 'unicast') return false;
  return parsed.kind() === 'ipv4' || (parsed as ipaddr.IPv6).match(GLOBAL_UNICAST_V6);
}

const systemLookup: HostLookup = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

class LookupTimeout extends Error {}

async function resolveWithin(resolve: HostLookup, hostname: string, ms: number): Promise<readonly string[]> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new LookupTimeout()), ms);
  });
  try {
    return await Promise.race([resolve(hostname), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The approved target; an IPv4-mapped address is pinned as the IPv4 address it stands for. */
function target(url: URL, address: string): WebhookUrlCheck {
  const pinned = ipaddr.process(address).toString();
  return { ok: true, url, address: pinned, family: isIP(pinned) === 6 ? 6 : 4 };
}

const NOT_PUBLIC = { ok: false, reason: 'refused: the webhook host is not a public address' } as const;

/**
 * Applies the rule above; the reason is stored as the delivery's error, so
 * it is written for the rider. The WHATWG URL parser does the first
 * normalisation: IPv4 written in decimal, octal, hex or short forms becomes
 * dotted-quad, IDN names become punycode, IPv6 is compressed. Trailing dots
 * are removed here (`localhost.` is localhost).
 */
export async function checkWebhookUrl(
  raw: string,
  options: WebhookUrlOptions = {},
): Promise<WebhookUrlCheck> {
  const url = URL.parse(raw);
  if (!url) return { ok: false, reason: 'refused: the webhook URL is not a valid URL' };
  if (url.username !== '' || url.password !== '') {
    return { ok: false, reason: 'refused: the webhook URL must not contain a user name or password' };
  }
  const hostname = url.hostname
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.+$/, '')
    .toLowerCase();
  const localName = hostname === 'localhost' || hostname.endsWith('.localhost');
  if (url.protocol !== 'https:') return { ok: false, reason: 'refused: the webhook URL must use https' };
  if (hostname === '' || localName) return NOT_PUBLIC;
  if (isIP(hostname) !== 0) return isPublicAddress(hostname) ? target(url, hostname) : NOT_PUBLIC;
  let addresses: readonly string[];
  const timeoutMs = options.dnsTimeoutMs ?? DNS_TIMEOUT_MS;
  try {
    addresses = await resolveWithin(options.lookup ?? systemLookup, hostname, timeoutMs);
  } catch (error) {
    return {
      ok: false,
      reason:
        error instanceof LookupTimeout
          ? `refused: the webhook host ${hostname} did not resolve within ${timeoutMs / 1000} s`
          : `refused: the webhook host ${hostname} does not resolve`,
    };
  }
  // Every address must pass: a name that also points inward is refused, not steered around.
  const first = addresses[0];
  if (first === undefined || !addresses.every(isPublicAddress)) return NOT_PUBLIC;
  return target(url, first);
}
