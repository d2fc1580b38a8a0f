/**
 * The Alerts section of the settings page: where tailwind alerts reach the
 * rider. Email (on or off; only to a confirmed address, with a button to
 * send the confirmation link again), push on each browser or phone (added
 * from the device itself, removed from anywhere), and the private calendar
 * address (made or renewed here, shown once, since the server keeps only
 * its hash). Every value from the server goes in as text.
 */
import { byId } from '../dom/by-id.ts';
import { failureMessage, postJson, UNREACHABLE_MESSAGE } from './auth-client.ts';
import { subscribeThisDevice } from './push-device.ts';
import { formatDate, type Channels } from './settings-view.ts';

let channels: Channels | undefined;
let email = '';
let reload: () => void = () => undefined;

function announce(message: string): void {
  byId('channels-status').textContent = message;
}

function showEmail(view: Channels['email']): void {
  byId<HTMLInputElement>('email-alerts').checked = view.on;
  byId('email-unverified').hidden = view.verified;
  byId('email-verified').hidden = !view.verified;
  byId('email-outbox').hidden = view.delivery !== 'outbox';
}

function showPush(view: Channels['push']): void {
  byId<HTMLInputElement>('push-alerts').checked = view.on;
  byId('push-unavailable').hidden = view.public_key !== null;
  byId<HTMLButtonElement>('push-add').hidden = view.public_key === null;
  byId('push-empty').hidden = view.devices.length > 0;
  byId('push-devices').replaceChildren(
    ...view.devices.map((device) => {
      const item = document.createElement('li');
      item.className = 'device';
      const name = document.createElement('span');
      name.textContent = `${device.label}, added ${formatDate(device.added_at)}`;
      const remove = document.createElement('button');
      remove.type = 'button';
      remove.className = 'button secondary';
      remove.textContent = 'Remove';
      remove.addEventListener('click', () => void removeDevice(device.id, device.label));
      item.append(name, ' ', remove);
      return item;
    }),
  );
}

function showCalendar(view: Channels['calendar']): void {
  byId('calendar-on').hidden = !view.on;
  byId('calendar-off').hidden = view.on;
  byId<HTMLButtonElement>('calendar-renew').textContent = view.on
    ? 'Renew the address'
    : 'Make a calendar address';
  byId<HTMLButtonElement>('calendar-stop').hidden = !view.on;
}

/** Shows the channels from `GET /api/rider/me`. */
export function showChannels(view: Channels | undefined, riderEmail: string): void {
  channels = view;
  email = riderEmail;
  byId('channels').hidden = view === undefined;
  if (!view) return;
  showEmail(view.email);
  showPush(view.push);
  showCalendar(view.calendar);
}

async function switchChannel(channel: 'email' | 'push', on: boolean): Promise<void> {
  const reply = await postJson('/api/rider/channels', { [channel]: on });
  if (reply.status !== 200) return announce(failureMessage(reply));
  const what = channel === 'email' ? 'Alerts by email' : 'Push alerts';
  announce(`${what} ${on ? 'on' : 'off'}.`);
}

async function addThisDevice(): Promise<void> {
  const key = channels?.push.public_key;
  if (!key) return;
  const button = byId<HTMLButtonElement>('push-add');
  button.disabled = true;
  try {
    const outcome = await subscribeThisDevice(key);
    if (!outcome.ok) return announce(outcome.message);
    if (outcome.reply.status !== 200) return announce(failureMessage(outcome.reply));
    announce('This device gets tailwind alerts now.');
    reload();
  } catch {
    announce(UNREACHABLE_MESSAGE);
  } finally {
    button.disabled = false;
  }
}

async function removeDevice(id: string, label: string): Promise<void> {
  const reply = await postJson('/api/rider/push/remove', { id });
  if (reply.status !== 200) return announce(failureMessage(reply));
  announce(`${label} no longer gets push alerts.`);
  reload();
}

async function calendar(action: 'renew' | 'off'): Promise<void> {
  const reply = await postJson('/api/rider/calendar', { action });
  if (reply.status !== 200) return announce(failureMessage(reply));
  const url = reply.body?.['calendar_url'];
  const box = byId('calendar-url-box');
  if (typeof url === 'string') {
    byId('calendar-url').textContent = url;
    box.hidden = false;
    announce('Calendar address made. Copy it now: it is shown only this once.');
  } else {
    box.hidden = true;
    announce('Calendar feed turned off: the address no longer works.');
  }
  showCalendar({ on: typeof url === 'string' });
}

async function resendVerification(): Promise<void> {
  const reply = await postJson('/api/auth/send-verification-email', {
    email,
    callbackURL: '/settings?verified=1',
  });
  announce(reply.status === 200 ? `A new link is on its way to ${email}.` : failureMessage(reply));
}

export function startChannelsSection(onChange: () => void): void {
  reload = onChange;
  const guard = (work: Promise<void>) => work.catch(() => announce(UNREACHABLE_MESSAGE));
  byId<HTMLInputElement>('email-alerts').addEventListener('change', (event) => {
    void guard(switchChannel('email', (event.target as HTMLInputElement).checked));
  });
  byId<HTMLInputElement>('push-alerts').addEventListener('change', (event) => {
    void guard(switchChannel('push', (event.target as HTMLInputElement).checked));
  });
  byId('push-add').addEventListener('click', () => void guard(addThisDevice()));
  byId('calendar-renew').addEventListener('click', () => void guard(calendar('renew')));
  byId('calendar-stop').addEventListener('click', () => void guard(calendar('off')));
  byId('email-resend').addEventListener('click', () => void guard(resendVerification()));
  if (new URLSearchParams(location.search).get('verified') === '1')
    announce('Your email address is confirmed.');
}
