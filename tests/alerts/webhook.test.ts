import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runAlertJob } from '../../src/alerts/run.ts';
import { signWebhook, verifyWebhookSignature } from '../../src/alerts/signature.ts';
import { checkWebhookUrl, isPublicAddress } from '../../src/rider/webhook-url.ts';
import { alertPayload, deliverPendingAlerts, type DeliverDeps } from '../../src/alerts/alert-delivery.ts';
import { sendPinned, type WebhookSender } from '../../src/alerts/webhook-send.ts';
import { WEBHOOK_MAX_ATTEMPTS } from '../../src/core/rider-rules.ts';
import type { Store } from '../../src/store/database.ts';
import { listRecentAlerts, recordAlertOnce, type AlertRecord } from '../../src/store/repositories/alerts.ts';
import { watchSegment } from '../../src/store/repositories/watchlist.ts';
import { catalog, demoAt, freshStore, proRider, removeTestStores, TEST_NOW } from './helpers.ts';
import { acceptLoopback } from '../support/loopback-webhooks.ts';

interface Received {
  readonly headers: IncomingMessage['headers'];
  readonly path: string;
  readonly body: string;
}

/** A receiver on 127.0.0.1 that records each request and answers as `answer` says. */
let answer: (response: ServerResponse, path: string) => void = (response) => response.writeHead(204).end();
let received: Received[] = [];
const held: ServerResponse[] = [];
let server: Server;
let origin: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '';
      received.push({ headers: request.headers, path, body: Buffer.concat(chunks).toString('utf8') });
      answer(response, path);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const response of held) response.destroy();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  removeTestStores();
});

let store: Store;
beforeEach(async () => {
  store = await freshStore();
  received = [];
  answer = (response) => response.writeHead(204).end();
});
afterEach(async () => {
  await store.close();
});

const SECRET = 'whsec_test_0123456789abcdef';
const nowS = TEST_NOW / 1000;
const fixedNow = () => TEST_NOW;

/** A Pro rider with a webhook and one recorded alert whose window is still ahead. */
async function pendingAlert(url = `${origin}/hook`): Promise<AlertRecord> {
  const rider = await proRider(store, { url, secret: SECRET });
  const window = {
    segmentId: 'gb-box-hill',
    windowStart: nowS + 3600,
    windowEnd: nowS + 4 * 3600,
    peakTailwindKmh: 30.2,
  };
  const alert = await recordAlertOnce(store.db, rider.id, window, nowS);
  if (!alert) throw new Error('alert not recorded');
  return alert;
}

async function stored(alert: AlertRecord): Promise<AlertRecord | undefined> {
  return (await listRecentAlerts(store.db, alert.riderId)).find((a) => a.id === alert.id);
}

function deps(overrides: Partial<DeliverDeps> = {}): DeliverDeps {
  return { store, now: fixedNow, catalog, checkTarget: acceptLoopback, timeoutMs: 2000, ...overrides };
}

describe('deliverPendingAlerts', () => {
  it('POSTs a signed JSON alert to the rider webhook and marks it delivered', async () => {
    const alert = await pendingAlert();
    const summary = await deliverPendingAlerts(deps());
    expect(summary).toEqual({
      attempted: 1,
      delivered: 1,
      failed: 0,
      refused: 0,
      expired: 0,
      gaveUp: 0,
      deferred: 0,
    });

    expect(received).toHaveLength(1);
    const [request] = received;
    if (!request) throw new Error('nothing received');
    expect(request.path).toBe('/hook');
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['x-wos-alert-id']).toBe(alert.id);
    expect(request.headers['idempotency-key']).toBe(`"${alert.id}"`);
    expect(request.headers['x-wos-timestamp']).toBe(String(nowS));
    const signature = String(request.headers['x-wos-signature']);
    expect(signature).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(verifyWebhookSignature(SECRET, String(nowS), request.body, signature, { nowS })).toBe(true);
    expect(verifyWebhookSignature('another secret', String(nowS), request.body, signature, { nowS })).toBe(
      false,
    );
    expect(JSON.parse(request.body)).toEqual({
      type: 'tailwind_alert',
      alert: {
        id: alert.id,
        segment_id: 'gb-box-hill',
        segment_name: catalog.get('gb-box-hill')?.name,
        window_start: '2026-11-21T11:20:00Z',
        window_end: '2026-11-21T14:20:00Z',
        // Box Hill is in Surrey: in November its clock reads UTC, named GMT.
        time_zone: 'Europe/London',
        window_start_local: '2026-11-21T11:20:00+00:00',
        window_end_local: '2026-11-21T14:20:00+00:00',
        window_text: 'Sat 21 Nov 11:20–14:20 GMT',
        peak_tailwind_kmh: 30.2,
      },
      sent_at: '2026-11-21T10:20:00Z',
    });
    expect(await stored(alert)).toMatchObject({ deliveredAt: nowS, attempts: 1, lastError: null });

    // Delivered alerts leave the queue.
    expect((await deliverPendingAlerts(deps())).attempted).toBe(0);
    expect(received).toHaveLength(1);
  });

  it(`retries a failing receiver on each run and gives up after ${WEBHOOK_MAX_ATTEMPTS} attempts`, async () => {
    answer = (response) => response.writeHead(500).end('boom');
    const alert = await pendingAlert();
    for (let run = 1; run <= WEBHOOK_MAX_ATTEMPTS; run++) {
      const summary = await deliverPendingAlerts(deps());
      expect(summary).toMatchObject({
        attempted: 1,
        failed: 1,
        gaveUp: run === WEBHOOK_MAX_ATTEMPTS ? 1 : 0,
      });
      expect(await stored(alert)).toMatchObject({ attempts: run, deliveredAt: null, lastError: 'HTTP 500' });
    }
    expect(received).toHaveLength(WEBHOOK_MAX_ATTEMPTS);
    expect((await deliverPendingAlerts(deps())).attempted).toBe(0);
    expect(received).toHaveLength(WEBHOOK_MAX_ATTEMPTS);
  });

  it('delivers on a later run once the receiver recovers', async () => {
    answer = (response) => response.writeHead(503).end();
    const alert = await pendingAlert();
    await deliverPendingAlerts(deps());
    answer = (response) => response.writeHead(200).end('ok');
    expect((await deliverPendingAlerts(deps())).delivered).toBe(1);
    expect(await stored(alert)).toMatchObject({ attempts: 2, deliveredAt: nowS, lastError: null });
  });

  it('counts a receiver that does not answer in time as a failed attempt', async () => {
    answer = (response) => void held.push(response);
    const alert = await pendingAlert();
    const started = performance.now();
    const summary = await deliverPendingAlerts(deps({ timeoutMs: 200 }));
    expect(performance.now() - started).toBeLessThan(2000);
    expect(summary).toMatchObject({ failed: 1, delivered: 0 });
    expect(await stored(alert)).toMatchObject({
      attempts: 1,
      deliveredAt: null,
      lastError: 'timed out after 200 ms',
    });
  });

  it('does not follow a redirect', async () => {
    answer = (response, path) =>
      path === '/hook'
        ? response.writeHead(307, { Location: '/elsewhere' }).end()
        : response.writeHead(204).end();
    const alert = await pendingAlert();
    await deliverPendingAlerts(deps());
    expect(received.map((r) => r.path)).toEqual(['/hook']);
    expect((await stored(alert))?.lastError).toMatch(/^HTTP 307/);
  });

  it('refuses plain http to a public host without sending anything', async () => {
    const sent: string[] = [];
    const spy: WebhookSender = async (target) => {
      sent.push(target.url.href);
      return 204;
    };
    const alert = await pendingAlert('http://hooks.example.com/alerts');
    const summary = await deliverPendingAlerts(deps({ send: spy }));
    expect(summary).toMatchObject({ refused: 1, delivered: 0 });
    expect(sent).toEqual([]);
    expect(await stored(alert)).toMatchObject({
      attempts: 1,
      deliveredAt: null,
      lastError: expect.stringMatching(/https/),
    });
  });

  it('refuses http://127.0.0.1 under the production target rule', async () => {
    const alert = await pendingAlert();
    expect(await deliverPendingAlerts(deps({ checkTarget: (url) => checkWebhookUrl(url) }))).toMatchObject({
      refused: 1,
    });
    expect(received).toEqual([]);
    expect((await stored(alert))?.lastError).toMatch(/https/);
  });

  it('sends to an https host that resolves to public addresses only, at the address it checked', async () => {
    const sent: string[] = [];
    const spy: WebhookSender = async (target) => {
      sent.push(`${target.url.href} via ${target.address}`);
      return 202;
    };
    await pendingAlert('https://hooks.example.com/wos');
    let lookups = 0;
    const lookup = async () => {
      lookups += 1;
      return ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'];
    };
    expect(
      await deliverPendingAlerts(deps({ send: spy, checkTarget: (url) => checkWebhookUrl(url, { lookup }) })),
    ).toMatchObject({
      delivered: 1,
    });
    expect(sent).toEqual(['https://hooks.example.com/wos via 93.184.215.14']);
    expect(lookups).toBe(1);
  });

  it('connects to the pinned address without resolving the name again', async () => {
    // `.invalid` never resolves (RFC 6761): reaching the receiver proves no lookup happened.
    const url = new URL(`http://receiver.invalid:${new URL(origin).port}/pinned`);
    const status = await sendPinned(
      { url, address: '127.0.0.1', family: 4 },
      { headers: { 'Content-Type': 'application/json' }, body: '{"x":1}', timeoutMs: 2000 },
    );
    expect(status).toBe(204);
    expect(received.map((r) => [r.path, r.headers.host, r.body])).toEqual([['/pinned', url.host, '{"x":1}']]);
  });

  it('does not send an alert whose window has already ended', async () => {
    const alert = await pendingAlert();
    const afterWindow = () => (alert.windowEnd + 60) * 1000;
    expect(await deliverPendingAlerts(deps({ now: afterWindow }))).toMatchObject({
      expired: 1,
      delivered: 0,
    });
    expect(received).toEqual([]);
    expect((await stored(alert))?.lastError).toMatch(/window ended/);
  });

  it('runs the whole job: an evaluated alert reaches the webhook once over two runs', async () => {
    const rider = await proRider(store, { url: `${origin}/job`, secret: SECRET });
    await watchSegment(store.db, rider.id, 'gb-box-hill', { thresholdKmh: 5 });
    const lines: string[] = [];
    const job = { store, catalog, forecast: demoAt(fixedNow), now: fixedNow, checkTarget: acceptLoopback };
    const first = await runAlertJob({ ...job, log: (line) => lines.push(line) });
    const second = await runAlertJob({ ...job, log: (line) => lines.push(line) });
    expect(first).toMatchObject({ ok: true, errors: [] });
    expect(first.evaluation?.alertsRecorded).toBe(1);
    expect(first.delivery?.delivered).toBe(1);
    expect(second.evaluation?.alertsRecorded).toBe(0);
    expect(second.delivery?.attempted).toBe(0);
    expect(received.map((r) => r.path)).toEqual(['/job']);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^alert job ok in \d+ ms: 1 watch with alerts on .*; alerts: 1 recorded, 0 already known; webhooks: 1\/1 delivered/,
    );
  });
});

describe('webhook URL rule', () => {
  it.each([
    ['ftp://hooks.example.com/x', /https/],
    ['https://user:pw@hooks.example.com/x', /user name/],
    ['https://localhost/x', /public/],
    ['https://app.localhost/x', /public/],
    ['https://127.0.0.1/x', /public/],
    ['https://10.0.0.8/x', /public/],
    ['https://169.254.169.254/latest/meta-data', /public/],
    ['https://[::1]/x', /public/],
    ['https://[fd12::1]/x', /public/],
    ['https://[::ffff:192.168.1.1]/x', /public/],
    ['https://0x7f.1/x', /public/],
    ['not a url', /valid/],
  ])('refuses %s', async (url, reason) => {
    const check = await checkWebhookUrl(url, { lookup: async () => ['93.184.215.14'] });
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.reason).toMatch(reason);
  });

  it('refuses a name that resolves to any private address, or does not resolve', async () => {
    const mixed = await checkWebhookUrl('https://rebind.example.com/', {
      lookup: async () => ['93.184.215.14', '10.1.2.3'],
    });
    expect(mixed.ok).toBe(false);
    const missing = await checkWebhookUrl('https://nxdomain.example.com/', {
      lookup: () => Promise.reject(new Error('ENOTFOUND')),
    });
    expect(missing).toEqual({ ok: false, reason: expect.stringMatching(/does not resolve/) });
  });

  it('tells public unicast addresses from the rest', () => {
    for (const address of ['93.184.215.14', '8.8.8.8', '2606:4700::1111'])
      expect(isPublicAddress(address)).toBe(true);
    for (const address of [
      '0.0.0.0',
      '100.64.1.1',
      '172.31.255.255',
      '192.168.0.1',
      '224.0.0.1',
      '::',
      'fe80::1',
      'x',
    ]) {
      expect(isPublicAddress(address)).toBe(false);
    }
  });
});

describe('verifyWebhookSignature', () => {
  it('accepts exactly the signature this service sends, within the tolerance', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }),
        fc.string(),
        fc.integer({ min: 1_600_000_000, max: 2_200_000_000 }),
        fc.integer({ min: -300, max: 300 }),
        (secret, body, timestamp, skew) => {
          const signature = signWebhook(secret, timestamp, body);
          expect(verifyWebhookSignature(secret, timestamp, body, signature, { nowS: timestamp + skew })).toBe(
            true,
          );
          expect(verifyWebhookSignature(secret, timestamp, `${body} `, signature, { nowS: timestamp })).toBe(
            false,
          );
          expect(verifyWebhookSignature(secret, timestamp + 1, body, signature, { nowS: timestamp })).toBe(
            false,
          );
          expect(verifyWebhookSignature(`${secret}x`, timestamp, body, signature, { nowS: timestamp })).toBe(
            false,
          );
        },
      ),
    );
  });

  it('refuses an old timestamp, a malformed header and trailing junk', () => {
    const body = '{"type":"tailwind_alert"}';
    const signature = signWebhook(SECRET, nowS, body);
    expect(verifyWebhookSignature(SECRET, nowS, body, signature, { nowS: nowS + 301 })).toBe(false);
    expect(
      verifyWebhookSignature(SECRET, nowS, body, signature, { nowS: nowS + 301, toleranceS: Infinity }),
    ).toBe(true);
    expect(verifyWebhookSignature(SECRET, nowS, body, `${signature}00`, { nowS })).toBe(false);
    expect(verifyWebhookSignature(SECRET, nowS, body, signature.replace('sha256=', ''), { nowS })).toBe(
      false,
    );
    expect(verifyWebhookSignature(SECRET, `${nowS}.5`, body, signature, { nowS })).toBe(false);
  });
});

describe('alertPayload with a chance', () => {
  const alert: AlertRecord = {
    id: 'a-1',
    riderId: 'r-1',
    segmentId: 'gb-box-hill',
    windowStart: 1_795_255_200,
    windowEnd: 1_795_262_400,
    peakTailwindKmh: 18.4,
    createdAt: 1_795_250_000,
    deliveredAt: null,
    attempts: 0,
    lastError: null,
  };

  it('says the chance, and that it is a share of members, only when the watch asked for one', () => {
    const plain = alertPayload({ ...alert, chancePct: null }, 1_795_250_100);
    expect(plain.alert.chance_pct).toBeUndefined();
    expect(plain.alert.chance_text).toBeUndefined();
    const withChance = alertPayload({ ...alert, chancePct: 76 }, 1_795_250_100);
    expect(withChance.alert.chance_pct).toBe(76);
    expect(withChance.alert.chance_text).toBe(
      '76% of ensemble members reach your threshold in this window (a share of forecast runs, not a calibrated probability).',
    );
  });
});
