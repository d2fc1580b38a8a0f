/**
 * The settings page's Password and Your data sections: change the password
 * (and, when asked, sign out every other browser and disconnect every
 * assistant), download everything the service holds as one JSON file, and
 * delete the account after the password confirms it. Deletion cancels a
 * running subscription first; when that fails, nothing is deleted and the
 * page says so.
 */
import { byId } from '../dom/by-id.ts';
import { failureMessage, postJson, UNREACHABLE_MESSAGE } from './auth-client.ts';
import { rememberSignedIn } from './menu-session.ts';

function say(id: string, message: string): void {
  byId(id).textContent = message;
}

async function changePassword(form: HTMLFormElement): Promise<void> {
  const data = new FormData(form);
  const everywhere = data.get('everywhere') === 'on';
  const reply = await postJson('/api/auth/change-password', {
    currentPassword: String(data.get('current') ?? ''),
    newPassword: String(data.get('new') ?? ''),
    revokeOtherSessions: everywhere,
  });
  if (reply.status !== 200) return say('password-status', failureMessage(reply));
  form.reset();
  say(
    'password-status',
    everywhere
      ? 'Password changed. Every other browser is signed out and every assistant disconnected.'
      : 'Password changed. Other browsers and assistants stay signed in.',
  );
}

async function deleteAccount(form: HTMLFormElement): Promise<void> {
  const password = String(new FormData(form).get('password') ?? '');
  const reply = await postJson('/api/auth/delete-user', { password });
  if (reply.status !== 200) return say('delete-status', failureMessage(reply));
  rememberSignedIn(false);
  location.assign('/?account=deleted');
}

export function startAccountDataSections(): void {
  const password = byId<HTMLFormElement>('password-form');
  password.addEventListener('submit', (event) => {
    event.preventDefault();
    if (!password.reportValidity()) return;
    void changePassword(password).catch(() => say('password-status', UNREACHABLE_MESSAGE));
  });
  const removal = byId<HTMLFormElement>('delete-form');
  removal.addEventListener('submit', (event) => {
    event.preventDefault();
    if (!removal.reportValidity()) return;
    const button = byId<HTMLButtonElement>('delete-submit');
    button.disabled = true;
    void deleteAccount(removal)
      .catch(() => say('delete-status', UNREACHABLE_MESSAGE))
      .finally(() => {
        button.disabled = false;
      });
  });
}
