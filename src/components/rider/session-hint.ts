/**
 * A note in this browser that a rider signed in here, so the top menu asks
 * for the session only where there may be one: the site is static, and a
 * session check on every page view of every visitor would be a call to the
 * sign-in service for nothing. The note holds no name or address; the menu
 * reads those from the session itself and drops the note when the session is
 * gone. Written by the pages that learn the session: sign-in, sign-up and
 * settings.
 */
export const SESSION_HINT_KEY = 'wos-signed-in';

export function rememberSignedIn(signedIn: boolean): void {
  try {
    if (signedIn) localStorage.setItem(SESSION_HINT_KEY, '1');
    else localStorage.removeItem(SESSION_HINT_KEY);
  } catch {
    // Storage refused (a private window's quota, a policy): the menu keeps its "Sign in" link.
  }
}
