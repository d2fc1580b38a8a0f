/**
 * The rider's state in the top menu, loaded only in a browser where a rider
 * signed in (`session-hint.ts`), after the page is shown. It asks the session
 * the way the settings page does (`/api/auth/get-session`, which answers
 * `null` without one) and turns "Sign in" into "Signed in as …", a link to
 * the settings; without a session it forgets the note and leaves the link.
 */
import { rememberSignedIn } from './session-hint.ts';

function emailOf(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const user = (body as { user?: unknown }).user;
  if (typeof user !== 'object' || user === null) return undefined;
  const email = (user as { email?: unknown }).email;
  return typeof email === 'string' && email !== '' ? email : undefined;
}

/** The menu's account link as a signed-in rider's: their address, leading to their settings. */
export function markMenuSignedIn(email: string): void {
  const link = document.querySelector<HTMLAnchorElement>('a[data-account-link]');
  if (!link) return;
  link.href = '/settings';
  link.dataset['state'] = 'signed-in';
  link.textContent = `Signed in as ${email}`;
  link.title = `Signed in as ${email}: your settings`;
}

export async function showSessionInMenu(): Promise<void> {
  const response = await fetch('/api/auth/get-session', {
    headers: { accept: 'application/json' },
    credentials: 'same-origin',
  }).catch(() => undefined);
  // No answer or a failure says nothing about the session: keep the note and the link as they are.
  if (!response?.ok) return;
  const email = emailOf(await response.json().catch(() => undefined));
  if (email === undefined) rememberSignedIn(false);
  else markMenuSignedIn(email);
}
