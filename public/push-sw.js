// The service worker of tailwind alerts by Web Push: shows the notification the
// alert job sends (its payload is JSON: title, body, url, tag) and opens the
// segment's page when the rider taps it. It does nothing else: no caching, no
// fetch handler, so the site behaves exactly as without it.
/* global self */

/** The JSON payload, or the text as the body when a push is not JSON. */
function payloadOf(event) {
  if (!event.data) return {};
  try {
    return event.data.json();
  } catch {
    return { title: 'Tailwind alert', body: event.data.text() };
  }
}

self.addEventListener('push', (event) => {
  const data = payloadOf(event);
  const title = typeof data.title === 'string' ? data.title : 'Tailwind alert';
  event.waitUntil(
    self.registration.showNotification(title, {
      body: typeof data.body === 'string' ? data.body : '',
      tag: typeof data.tag === 'string' ? data.tag : undefined,
      data: { url: typeof data.url === 'string' ? data.url : '/settings' },
      icon: '/favicon.svg',
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = new URL(event.notification.data?.url ?? '/settings', self.location.origin);
  // Only pages of this site are opened from a notification.
  const target = url.origin === self.location.origin ? url.href : '/settings';
  event.waitUntil(self.clients.openWindow(target));
});
