/**
 * Turning Web Push on in this browser: the service worker (`/push-sw.js`),
 * the browser's permission, a subscription to its push service bound to
 * this deployment's VAPID public key, and the subscription saved to the
 * rider's account. Each step that can fail says which in words a rider can
 * act on (blocked notifications, a browser without push, a private window).
 */
import { postJson, type JsonReply } from './auth-client.ts';

/** The VAPID key as the Push API takes it: the raw bytes of the base64url text. */
function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
  const text = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  const bytes = new Uint8Array(new ArrayBuffer(text.length));
  for (let i = 0; i < text.length; i += 1) bytes[i] = text.charCodeAt(i);
  return bytes;
}

/** "Firefox on Android", "Chrome on Windows": enough to tell a rider's devices apart. */
export function deviceName(userAgent: string): string {
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /Firefox\//.test(userAgent)
      ? 'Firefox'
      : /Chrome\//.test(userAgent)
        ? 'Chrome'
        : /Safari\//.test(userAgent)
          ? 'Safari'
          : 'A browser';
  const system = /Android/.test(userAgent)
    ? 'Android'
    : /iPhone|iPad/.test(userAgent)
      ? 'iOS'
      : /Mac OS X/.test(userAgent)
        ? 'macOS'
        : /Windows/.test(userAgent)
          ? 'Windows'
          : /Linux/.test(userAgent)
            ? 'Linux'
            : '';
  return system ? `${browser} on ${system}` : browser;
}

export type PushOutcome = { ok: true; reply: JsonReply } | { ok: false; message: string };

export async function subscribeThisDevice(publicKey: string): Promise<PushOutcome> {
  if (!('serviceWorker' in navigator) || !('PushManager' in window)) {
    return {
      ok: false,
      message:
        'This browser cannot receive push notifications (on an iPhone, add the site to the Home Screen first).',
    };
  }
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') {
    return {
      ok: false,
      message:
        'Notifications are blocked for this site. Allow them in the browser’s site settings, then try again.',
    };
  }
  const registration = await navigator.serviceWorker.register('/push-sw.js');
  await navigator.serviceWorker.ready;
  let subscription: PushSubscription;
  try {
    subscription =
      (await registration.pushManager.getSubscription()) ??
      (await registration.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: keyBytes(publicKey),
      }));
  } catch {
    return {
      ok: false,
      message: 'The browser’s push service could not be reached. Try again, or use another browser.',
    };
  }
  const reply = await postJson('/api/rider/push', {
    ...subscription.toJSON(),
    label: deviceName(navigator.userAgent),
  });
  return { ok: true, reply };
}
