/**
 * The private calendar feed, read by an independent parser (ical.js): each
 * recorded window is an event in its segment's time zone, with that zone's
 * VTIMEZONE, the right instants, and a UID that stays the same from one
 * fetch to the next and differs between windows. The address is the key:
 * a renewed one replaces the old, which then answers `link_not_valid`.
 */
import ICAL from 'ical.js';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { riderApi, type RiderApiContext } from '../../src/account/account-api.ts';
import { accountPayments } from '../../src/app/rider-endpoints.ts';
import { checkWebhookUrl } from '../../src/rider/webhook-url.ts';
import type { Store } from '../../src/store/database.ts';
import { recordAlertOnce } from '../../src/store/repositories/alerts.ts';
import type { Rider } from '../../src/store/repositories/riders.ts';
import { catalog, freshStore, removeTestStores } from '../alerts/helpers.ts';
import { ORIGIN, verifiedRider } from './fixtures.ts';

/** The feed reads the real clock: windows are placed from now, on the hour. */
const HOUR_S = 3600;
const nextHour = () => Math.ceil(Date.now() / 1000 / HOUR_S) * HOUR_S;

/** `YYYY-MM-DDTHH:MM:SS` on a zone's clock, by Intl: independent of the feed's own conversion. */
function wallClock(unixS: number, timeZone: string): string {
  const text = new Intl.DateTimeFormat('sv-SE', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).format(new Date(unixS * 1000));
  return text.replace(' ', 'T');
}

async function windowOn(segmentId: string, startS: number, hours: number) {
  const alert = await recordAlertOnce(
    store.db,
    rider.id,
    { segmentId, windowStart: startS, windowEnd: startS + hours * HOUR_S, peakTailwindKmh: 18.46 },
    Math.floor(Date.now() / 1000),
  );
  if (!alert) throw new Error('not recorded');
  return alert;
}

let store: Store;
let rider: Rider;

afterAll(() => removeTestStores());
beforeEach(async () => {
  store = await freshStore();
  rider = await verifiedRider(store);
});
afterEach(async () => {
  await store.close();
});

function context(): RiderApiContext {
  return {
    session: async () => ({
      user: { id: rider.id, email: rider.email, createdAt: new Date(), emailVerified: true },
    }),
    db: store.db,
    origin: ORIGIN,
    catalog,
    payments: accountPayments(undefined),
    checkTarget: (url) => checkWebhookUrl(url),
  };
}

async function renew(): Promise<string> {
  const response = await riderApi(
    new Request(`${ORIGIN}/api/rider/calendar`, {
      method: 'POST',
      headers: { origin: ORIGIN, 'content-type': 'application/json' },
      body: JSON.stringify({ action: 'renew' }),
    }),
    context(),
  );
  expect(response.status).toBe(200);
  const body = (await response.json()) as { calendar_url: string };
  expect(body.calendar_url).toMatch(/^https:\/\/wos\.test\/api\/rider\/calendar\/[\w-]{43}\.ics$/);
  return body.calendar_url;
}

const feed = (url: string) => riderApi(new Request(url), context());

describe('the calendar feed', () => {
  it('holds each window in its segment’s zone, with a stable UID per window', async () => {
    const alpe = await windowOn('fr-alpe-d-huez', nextHour() + 3 * HOUR_S, 2);
    const fallsStart = nextHour() + 20 * HOUR_S;
    const falls = await windowOn('au-falls-creek', fallsStart, 3);
    const url = await renew();
    const response = await feed(url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    const text = await response.text();
    expect(text).toMatch(/\r\n/);

    const calendar = new ICAL.Component(ICAL.parse(text));
    const zones = calendar.getAllSubcomponents('vtimezone').map((zone) => zone.getFirstPropertyValue('tzid'));
    expect(zones.sort()).toEqual(['Australia/Melbourne', 'Europe/Paris']);
    for (const zone of calendar.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(zone);
    const events = calendar.getAllSubcomponents('vevent').map((vevent) => new ICAL.Event(vevent));
    expect(events).toHaveLength(2);

    const paris = events.find((event) => event.uid === `alert-${alpe.id}@wos.test`);
    expect(paris).toBeDefined();
    expect(paris?.component.getFirstProperty('dtstart')?.getParameter('tzid')).toBe('Europe/Paris');
    expect(paris?.startDate.zone.tzid).toBe('Europe/Paris');
    expect(paris?.startDate.toString()).toBe(wallClock(alpe.windowStart, 'Europe/Paris'));
    expect(paris?.startDate.toUnixTime()).toBe(alpe.windowStart);
    expect(paris?.endDate.toUnixTime()).toBe(alpe.windowEnd);
    expect(paris?.summary).toBe(`Tailwind: ${catalog.get('fr-alpe-d-huez')?.name}`);
    expect(paris?.description).toContain(': up to 18.5 km/h of tailwind.');
    expect(paris?.description).toContain(`${ORIGIN}/segments/fr-alpe-d-huez`);

    const melbourne = events.find((event) => event.uid === `alert-${falls?.id}@wos.test`);
    expect(melbourne?.startDate.zone.tzid).toBe('Australia/Melbourne');
    expect(melbourne?.startDate.toUnixTime()).toBe(fallsStart);
    expect(melbourne?.startDate.toString()).toBe(wallClock(fallsStart, 'Australia/Melbourne'));
    expect(melbourne?.endDate.toUnixTime()).toBe(falls.windowEnd);

    const again = new ICAL.Component(ICAL.parse(await (await feed(url)).text()));
    expect(
      again
        .getAllSubcomponents('vevent')
        .map((e) => e.getFirstPropertyValue('uid'))
        .sort(),
    ).toEqual(events.map((e) => e.uid).sort());
  });

  it('stops answering the old address once renewed, and any address once turned off', async () => {
    await windowOn('fr-alpe-d-huez', nextHour(), 2);
    const first = await renew();
    const second = await renew();
    const old = await feed(first);
    expect(old.status).toBe(404);
    expect(await old.json()).toMatchObject({ code: 'link_not_valid' });
    expect((await feed(second)).status).toBe(200);
    const off = await riderApi(
      new Request(`${ORIGIN}/api/rider/calendar`, {
        method: 'POST',
        headers: { origin: ORIGIN, 'content-type': 'application/json' },
        body: JSON.stringify({ action: 'off' }),
      }),
      context(),
    );
    expect(await off.json()).toEqual({ calendar_url: null });
    expect((await feed(second)).status).toBe(404);
  });

  it('answers a forged or malformed address the same way', async () => {
    for (const path of ['/api/rider/calendar/forged.ics', `/api/rider/calendar/${'a'.repeat(500)}.ics`]) {
      const response = await feed(`${ORIGIN}${path}`);
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ code: 'link_not_valid' });
    }
  });
});
