/**
 * The consent page. The authorization server sends the signed-in rider here
 * with the signed authorization request in the URL; the page names the
 * assistant (from the server, never from the URL alone), lists what it asks
 * for, and posts the rider's answer with that signed request. The server
 * answers with where to send the browser: back to the assistant with a code,
 * or with `access_denied`.
 */
import { byId } from '../dom/by-id.ts';
import {
  failureMessage,
  getJson,
  nextUrl,
  oauthQuery,
  postJson,
  UNREACHABLE_MESSAGE,
} from './auth-client.ts';
import { scopeLabel } from './scope-labels.ts';

function showScopes(scope: string | null): void {
  const list = byId('consent-scopes');
  list.replaceChildren();
  for (const item of (scope ?? '').split(' ').filter(Boolean)) {
    const li = document.createElement('li');
    li.textContent = scopeLabel(item);
    list.append(li);
  }
}

function showReturnHost(redirectUri: string | null): void {
  let host = 'the assistant';
  try {
    if (redirectUri) host = new URL(redirectUri).host || new URL(redirectUri).protocol;
  } catch {
    // Not a URL: the server refuses such a request anyway.
  }
  byId('consent-return').textContent = host;
}

async function showClientName(clientId: string): Promise<void> {
  const reply = await getJson(`/api/auth/oauth2/public-client?client_id=${encodeURIComponent(clientId)}`);
  const name = reply.body?.['client_name'];
  byId('consent-client').textContent = typeof name === 'string' && name.trim() ? name : clientId;
}

function answer(accept: boolean, query: string): void {
  const buttons = document.querySelectorAll<HTMLButtonElement>('#consent-request button');
  const error = byId('consent-error');
  buttons.forEach((button) => (button.disabled = true));
  error.textContent = '';
  void postJson('/api/auth/oauth2/consent', { accept, oauth_query: query })
    .then((reply) => {
      const url = nextUrl(reply);
      if (reply.status === 200 && url) return location.assign(url);
      error.textContent =
        reply.status === 401
          ? 'Your session has ended. Sign in again from your assistant.'
          : failureMessage(reply);
      buttons.forEach((button) => (button.disabled = false));
    })
    .catch(() => {
      error.textContent = UNREACHABLE_MESSAGE;
      buttons.forEach((button) => (button.disabled = false));
    });
}

export function startConsent(): void {
  const params = new URLSearchParams(location.search);
  const query = oauthQuery();
  const clientId = params.get('client_id');
  if (!query || !clientId) return;
  byId('consent-missing').hidden = true;
  byId('consent-request').hidden = false;
  byId('consent-client').textContent = clientId;
  showScopes(params.get('scope'));
  showReturnHost(params.get('redirect_uri'));
  void showClientName(clientId).catch(() => undefined);
  byId('consent-allow').addEventListener('click', () => answer(true, query));
  byId('consent-deny').addEventListener('click', () => answer(false, query));
}
