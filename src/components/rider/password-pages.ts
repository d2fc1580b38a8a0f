/**
 * The small pages reached from a mail: asking for a reset link
 * (`/forgot-password`), choosing the new password from that link
 * (`/reset-password?token=…`, where better-auth sends the browser, or
 * `?error=INVALID_TOKEN` for a used, expired or forged link), and stopping
 * alert emails (`/unsubscribe?token=…`). The forgot page says the same
 * thing whether or not an account uses the address.
 */
import { byId } from '../dom/by-id.ts';
import { failureMessage, postJson, UNREACHABLE_MESSAGE } from './auth-client.ts';

export function startForgotPassword(): void {
  const form = byId<HTMLFormElement>('forgot-form');
  const status = byId('forgot-status');
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (!form.reportValidity()) return;
    const email = byId<HTMLInputElement>('forgot-email').value.trim();
    byId<HTMLButtonElement>('forgot-submit').disabled = true;
    void postJson('/api/auth/request-password-reset', { email, redirectTo: '/reset-password' })
      .then((reply) => {
        status.textContent =
          reply.status === 200
            ? `If an account uses ${email}, a link to choose a new password is on its way. Check your inbox (and spam folder).`
            : failureMessage(reply);
      })
      .catch(() => {
        status.textContent = UNREACHABLE_MESSAGE;
      })
      .finally(() => {
        byId<HTMLButtonElement>('forgot-submit').disabled = false;
      });
  });
}

export function startResetPassword(): void {
  const params = new URLSearchParams(location.search);
  const token = params.get('token');
  const form = byId<HTMLFormElement>('reset-form');
  if (!token || params.has('error')) {
    byId('reset-invalid').hidden = false;
    return;
  }
  form.hidden = false;
  const status = byId('reset-status');
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (!form.reportValidity()) return;
    byId<HTMLButtonElement>('reset-submit').disabled = true;
    void postJson('/api/auth/reset-password', {
      newPassword: byId<HTMLInputElement>('reset-password').value,
      token,
      disconnectAssistants: byId<HTMLInputElement>('reset-assistants').checked,
    })
      .then((reply) => {
        if (reply.status === 200) {
          form.hidden = true;
          status.replaceChildren('Your password is changed. ', link('/login', 'Sign in with it'), '.');
          return;
        }
        if (reply.body?.['code'] === 'INVALID_TOKEN') {
          form.hidden = true;
          byId('reset-invalid').hidden = false;
          return;
        }
        status.textContent = failureMessage(reply);
        byId<HTMLButtonElement>('reset-submit').disabled = false;
      })
      .catch(() => {
        status.textContent = UNREACHABLE_MESSAGE;
        byId<HTMLButtonElement>('reset-submit').disabled = false;
      });
  });
}

function link(href: string, text: string): HTMLAnchorElement {
  const anchor = document.createElement('a');
  anchor.href = href;
  anchor.textContent = text;
  return anchor;
}

export function startUnsubscribe(): void {
  const token = new URLSearchParams(location.search).get('token') ?? '';
  const button = byId<HTMLButtonElement>('unsubscribe-submit');
  const status = byId('unsubscribe-status');
  button.addEventListener('click', () => {
    button.disabled = true;
    void postJson(`/api/rider/unsubscribe?token=${encodeURIComponent(token)}`, {})
      .then((reply) => {
        status.textContent =
          reply.status === 200
            ? 'Done: no more alert emails. Everything else stays as it was.'
            : failureMessage(reply);
        if (reply.status !== 200) button.disabled = false;
      })
      .catch(() => {
        status.textContent = UNREACHABLE_MESSAGE;
        button.disabled = false;
      });
  });
}
