/**
 * The sign-in and sign-up forms. When an assistant sent the rider here, the
 * page's URL carries the signed authorization request; it goes along with
 * the credentials (`oauth_query`) and the server answers with where to go
 * next (the consent page, or straight back to the assistant). A plain visit
 * ends on the settings page.
 */
import { safeReturnPath } from '../billing/return-path.ts';
import { byId } from '../dom/by-id.ts';
import { failureMessage, nextUrl, oauthQuery, postJson, UNREACHABLE_MESSAGE } from './auth-client.ts';
import { rememberSignedIn } from './menu-session.ts';

const ENDPOINTS = {
  'sign-in': '/api/auth/sign-in/email',
  'sign-up': '/api/auth/sign-up/email',
} as const;

type Mode = keyof typeof ENDPOINTS;

function isMode(value: string | undefined): value is Mode {
  return value === 'sign-in' || value === 'sign-up';
}

/** Keeps the authorization request when the rider switches between sign-in and sign-up. */
function carryQuery(): void {
  const query = oauthQuery();
  const back = returnPath();
  if (!query && back) {
    for (const link of document.querySelectorAll<HTMLAnchorElement>('a[data-keep-query]')) {
      link.href = `${link.pathname}?return=${encodeURIComponent(back)}`;
    }
  }
  if (!query) return;
  for (const link of document.querySelectorAll<HTMLAnchorElement>('a[data-keep-query]')) {
    link.href = `${link.pathname}?${query}`;
  }
  byId('oauth-note').hidden = false;
}

/** The page of this site to come back to after signing in (`?return=`, from the pricing page's Buy). */
function returnPath(): string | undefined {
  return safeReturnPath(new URLSearchParams(location.search).get('return'));
}

export function startAccountForm(): void {
  const form = byId<HTMLFormElement>('account-form');
  const mode = form.dataset['mode'];
  if (!isMode(mode)) throw new Error(`account form: unknown mode ${String(mode)}`);
  const error = byId('account-error');
  const submit = byId<HTMLButtonElement>('account-submit');
  carryQuery();

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (!form.reportValidity()) return;
    const data = new FormData(form);
    const email = String(data.get('email') ?? '').trim();
    const password = String(data.get('password') ?? '');
    const query = oauthQuery();
    submit.disabled = true;
    error.textContent = '';
    void postJson(ENDPOINTS[mode], {
      email,
      password,
      // The confirmation link mailed at sign-up lands back on the settings page.
      ...(mode === 'sign-up' ? { name: email, callbackURL: '/settings?verified=1' } : {}),
      ...(query ? { oauth_query: query } : {}),
    })
      .then((reply) => {
        if (reply.status !== 200) {
          error.textContent = failureMessage(reply);
          submit.disabled = false;
          return;
        }
        rememberSignedIn(true);
        location.assign(nextUrl(reply) ?? returnPath() ?? '/settings');
      })
      .catch(() => {
        error.textContent = UNREACHABLE_MESSAGE;
        submit.disabled = false;
      });
  });
}
