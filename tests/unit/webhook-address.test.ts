import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkWebhookUrl, isPublicAddress, type HostLookup } from '../../src/rider/webhook-url.ts';

const PUBLIC_V4 = '93.184.215.14';
const resolvesPublic: HostLookup = async () => [PUBLIC_V4];

/**
 * Written forms of addresses a webhook must never reach, each with what it
 * really is. Every one is refused whether it is written in the URL or
 * returned by DNS for a name.
 */
const INWARD: readonly (readonly [string, string])[] = [
  ['127.0.0.1', 'loopback'],
  ['0.0.0.0', 'this host'],
  ['10.0.0.1', 'RFC 1918'],
  ['172.16.5.4', 'RFC 1918'],
  ['192.168.1.1', 'RFC 1918'],
  ['100.64.0.1', 'CGNAT'],
  ['169.254.169.254', 'cloud metadata, link-local'],
  ['192.0.0.8', 'IETF protocol assignments'],
  ['192.0.2.10', 'TEST-NET-1'],
  ['198.51.100.7', 'TEST-NET-2'],
  ['203.0.113.9', 'TEST-NET-3'],
  ['198.18.0.1', 'benchmarking'],
  ['224.0.0.251', 'multicast'],
  ['240.0.0.1', 'reserved'],
  ['255.255.255.255', 'broadcast'],
  ['::1', 'IPv6 loopback'],
  ['::', 'unspecified'],
  ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
  ['::ffff:7f00:1', 'IPv4-mapped loopback, hex'],
  ['::ffff:10.0.0.1', 'IPv4-mapped private'],
  ['::ffff:0:7f00:1', 'SIIT-translated 127.0.0.1'],
  ['::ffff:0:a9fe:a9fe', 'SIIT-translated 169.254.169.254'],
  ['::ffff:0:a00:1', 'SIIT-translated 10.0.0.1'],
  ['::1:0:0:1', 'inside ::/8'],
  ['::7f00:1', 'IPv4-compatible 127.0.0.1'],
  ['::a00:1', 'IPv4-compatible 10.0.0.1'],
  ['64:ff9b::7f00:1', 'NAT64 well-known prefix, 127.0.0.1'],
  ['64:ff9b::808:808', 'NAT64 well-known prefix, even of a public IPv4'],
  ['64:ff9b:1::a00:1', 'NAT64 local-use prefix'],
  ['2002:7f00:1::1', '6to4 embedding 127.0.0.1'],
  ['2002:a00:1::1', '6to4 embedding 10.0.0.1'],
  ['2001:0:4136:e378:8000:63bf:f5ff:fffe', 'Teredo (client 10.0.0.1)'],
  ['2001:db8::1', 'documentation'],
  ['3fff::1', 'documentation (RFC 9637)'],
  ['2001:2::1', 'benchmarking'],
  ['2001:10::1', 'ORCHID'],
  ['100::1', 'discard-only'],
  ['fc00::1', 'unique local'],
  ['fd12:3456::1', 'unique local'],
  ['fe80::1', 'link-local'],
  ['fec0::1', 'site-local (deprecated)'],
  ['ff02::1', 'multicast'],
];

/** How a URL may write an inward host so that a careless rule misses it. */
const INWARD_URL_FORMS: readonly string[] = [
  'https://2130706433/', // 127.0.0.1 as one decimal number
  'https://0x7f000001/',
  'https://0177.0.0.1/', // octal
  'https://0x7f.1/',
  'https://127.1/',
  'https://127.0.0.1./', // trailing dot
  'https://0xa9.0xfe.0xa9.0xfe/', // 169.254.169.254
  'https://012.0.0.1/', // 10.0.0.1
  'https://%31%32%37.0.0.1/', // percent-encoded digits
  'https://１２７.０.０.１/', // full-width digits (IDNA maps them)
  'https://localhost./',
  'https://LOCALHOST/',
  'https://api.localhost/',
  'https://[::ffff:127.0.0.1]/',
  'https://[::ffff:0:7f00:1]/',
  'https://[::ffff:0:a9fe:a9fe]/',
  'https://[::ffff:0:a00:1]/',
  'https://[::1:0:0:1]/',
  'https://[0:0:0:0:0:0:0:1]/',
  'https://[64:ff9b::a9fe:a9fe]/',
  'https://[2002:a9fe:a9fe::]/',
  'https://[fe80::1%25eth0]/',
];

describe('webhook address rule: a table of written forms', () => {
  it.each(INWARD)('refuses %s (%s) as an address', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(INWARD)('refuses %s (%s) written in the URL', async (address) => {
    const host = address.includes(':') ? `[${address}]` : address;
    expect(await checkWebhookUrl(`https://${host}/hook`, { lookup: resolvesPublic })).toMatchObject({
      ok: false,
    });
  });

  it.each(INWARD)('refuses a name that resolves to %s (%s)', async (address) => {
    const check = await checkWebhookUrl('https://hooks.example.org/hook', { lookup: async () => [address] });
    expect(check).toEqual({ ok: false, reason: expect.stringMatching(/not a public address/) });
  });

  it.each(INWARD_URL_FORMS)('refuses %s', async (url) => {
    expect(await checkWebhookUrl(url, { lookup: resolvesPublic })).toMatchObject({ ok: false });
  });

  it.each([
    ['8.8.8.8', '8.8.8.8'],
    ['https://[2606:4700:4700::1111]/x', '2606:4700:4700::1111'],
    ['https://[::ffff:8.8.8.8]/x', '8.8.8.8'],
    ['https://134744072/x', '8.8.8.8'],
    ['https://0x08080808/x', '8.8.8.8'],
  ])('accepts the public address in %s and pins it', async (url, address) => {
    const raw = url.includes('://') ? url : `https://${url}/x`;
    expect(await checkWebhookUrl(raw)).toMatchObject({ ok: true, address });
  });

  it('pins the first resolved address of a name, normalised by IDNA, trailing dot and all', async () => {
    const asked: string[] = [];
    const lookup: HostLookup = async (name) => {
      asked.push(name);
      return ['2606:4700:4700::1111', PUBLIC_V4];
    };
    const check = await checkWebhookUrl('https://HOOKS.bücher.example./x', { lookup });
    expect(check).toMatchObject({ ok: true, address: '2606:4700:4700::1111', family: 6 });
    expect(asked).toEqual(['hooks.xn--bcher-kva.example']);
  });

  it('refuses a name whose answer mixes public and inward addresses', async () => {
    const lookup: HostLookup = async () => [PUBLIC_V4, '::ffff:0:a9fe:a9fe'];
    expect(await checkWebhookUrl('https://rebind.example.org/', { lookup })).toMatchObject({ ok: false });
  });

  it('gives up on a lookup that hangs, within the DNS timeout', async () => {
    const started = Date.now();
    const check = await checkWebhookUrl('https://slow.example.org/', {
      lookup: () => new Promise(() => undefined),
      dnsTimeoutMs: 200,
    });
    expect(check).toEqual({ ok: false, reason: expect.stringMatching(/did not resolve within 0.2 s/) });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('never calls an address inside 10/8, 127/8, 169.254/16 or 192.168/16 public, in any IPv6 wrapping', () => {
    const inward = fc.oneof(
      fc.tuple(fc.constant(10), fc.nat(255), fc.nat(255), fc.nat(255)),
      fc.tuple(fc.constant(127), fc.nat(255), fc.nat(255), fc.nat(255)),
      fc.tuple(fc.constant(169), fc.constant(254), fc.nat(255), fc.nat(255)),
      fc.tuple(fc.constant(192), fc.constant(168), fc.nat(255), fc.nat(255)),
    );
    const hex = (a: number, b: number) => ((a << 8) | b).toString(16);
    fc.assert(
      fc.property(inward, fc.nat(5), ([a, b, c, d], form) => {
        const v4 = `${a}.${b}.${c}.${d}`;
        const written = [
          v4,
          `::ffff:${v4}`,
          `::ffff:${hex(a, b)}:${hex(c, d)}`,
          `::ffff:0:${hex(a, b)}:${hex(c, d)}`,
          `64:ff9b::${hex(a, b)}:${hex(c, d)}`,
          `2002:${hex(a, b)}:${hex(c, d)}::1`,
        ][form];
        expect(isPublicAddress(written ?? v4)).toBe(false);
      }),
    );
  });
});
