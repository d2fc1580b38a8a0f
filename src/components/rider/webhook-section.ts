/**
 * The Webhook section of the settings page: save or remove the URL alerts are
 * POSTed to, and show the signing secret the one time the server gives it.
 * Everything from the server goes in as text; the secret is never kept
 * anywhere but this page's DOM, and leaves it on the next save or remove.
 */
import { byId } from '../dom/by-id.ts';
import { failureMessage, postJson, type JsonReply, UNREACHABLE_MESSAGE } from './auth-client.ts';

const WEBHOOK_API = '/api/rider/webhook';

/** The server's refusal, written for the rider ("refused: the URL must…" → "Not saved: the URL must…"). */
export function webhookFailure(reply: JsonReply): string {
  const message = failureMessage(reply);
  return reply.status === 400 ? message.replace(/^refused: /, 'Not saved: ') : message;
}

function announce(message: string): void {
  byId('webhook-status').textContent = message;
}

function busy(on: boolean): void {
  byId<HTMLButtonElement>('webhook-save').disabled = on;
  byId<HTMLButtonElement>('webhook-remove').disabled = on;
}

function hideSecret(): void {
  byId('webhook-secret').textContent = '';
  byId('webhook-secret-box').hidden = true;
}

/** Shows the saved URL (or none) in the section; called with `GET /api/rider/me`'s `webhook_url`. */
export function showWebhook(url: string | null): void {
  byId<HTMLInputElement>('webhook-url').value = url ?? '';
  byId('webhook-remove').hidden = url === null;
  byId('webhook-current').textContent =
    url === null
      ? 'No webhook is set: alerts are listed here and by your assistant only.'
      : `Alerts are sent to ${url}`;
}

async function save(url: string | null): Promise<void> {
  busy(true);
  hideSecret();
  try {
    const reply = await postJson(WEBHOOK_API, { url });
    if (reply.status !== 200) return announce(webhookFailure(reply));
    const saved = reply.body?.['webhook_url'];
    const secret = reply.body?.['secret'];
    showWebhook(typeof saved === 'string' ? saved : null);
    if (typeof saved !== 'string') return announce('Webhook removed. Alerts are no longer sent to it.');
    if (typeof secret === 'string') {
      byId('webhook-secret').textContent = secret;
      byId('webhook-secret-box').hidden = false;
      byId('webhook-secret-title').focus();
    }
    announce('Webhook saved. Copy the signing secret below: it is shown only this once.');
  } catch {
    announce(UNREACHABLE_MESSAGE);
  } finally {
    busy(false);
  }
}

function copySecret(): void {
  const secret = byId('webhook-secret').textContent ?? '';
  // No clipboard API outside secure contexts (plain http on a LAN address).
  const write = navigator.clipboard?.writeText(secret) ?? Promise.reject(new Error('no clipboard'));
  write.then(
    () => announce('Secret copied.'),
    () => announce('Copying is blocked here: select the secret and copy it yourself.'),
  );
}

export function startWebhookSection(): void {
  const form = byId<HTMLFormElement>('webhook-form');
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void save(byId<HTMLInputElement>('webhook-url').value.trim());
  });
  byId('webhook-remove').addEventListener('click', () => {
    void save(null).then(() => byId('webhook-url').focus());
  });
  byId('webhook-copy').addEventListener('click', copySecret);
}
