/**
 * The rider's state in the top menu. Only in a browser where a rider signed
 * in (the note below) does it ask the session, the way the settings page
 * does (`/api/auth/get-session`, which answers `null` without one), and turn
 * "Sign in" into "Signed in as …", a link to the settings; without a session
 * it forgets the note and leaves the link. One small module, loaded up front:
 * a lazy one would bring Vite's preload helper to pages that have none.
 */

/**
 * A note in this browser that a rider signed in here, so the top menu asks
 * for the session only where there may be one: the site is static, and a
 * session check on every page view of every visitor would be a call to the
 * sign-in service for nothing. The note holds no name or address; the menu
 * reads those from the session itself and drops the note when the session is
 * gone. Written by the pages that learn the session: sign-in, sign-up and
 * settings.
 */
const SESSION_HINT_KEY = 'wos-signed-in';

export function rememberSignedIn(signedIn: boolean): void {
  try {
    if (signedIn) localStorage.setItem(SESSION_HINT_KEY, '1');
    else localStorage.removeItem(SESSION_HINT_KEY);
  } catch {
    // Storage refused (a private window's quota, a policy): the menu keeps its "Sign in" link.
  }
}

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

/** Whether this browser noted a sign-in: the only case in which a page asks the server for the session. */
export function signedInHere(): boolean {
  try {
    return localStorage.getItem(SESSION_HINT_KEY) === '1';
  } catch {
    // No storage: nothing remembered, nothing to ask.
    return false;
  }
}

export async function showSessionInMenu(): Promise<void> {
  const hinted = signedInHere();
  if (!hinted) return;
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
