/**
 * Whether this browser noted a sign-in: the note `rememberSignedIn` in
 * src/components/rider/menu-session.ts writes, read here so the segment page
 * asks the server for the session only where a rider may be signed in, as
 * the top menu does. The key is repeated rather than imported because any
 * import from menu-session.ts would change the chunk every page loads up
 * front; tests/unit/segment-pages.test.ts checks that both agree.
 */
const SIGNED_IN_NOTE_KEY = 'wos-signed-in';

export function signedInNoted(): boolean {
  try {
    return localStorage.getItem(SIGNED_IN_NOTE_KEY) === '1';
  } catch {
    // No storage: nothing remembered, nothing to ask.
    return false;
  }
}
