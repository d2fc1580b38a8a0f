/**
 * The settings page: signed out, it offers the sign-in page; signed in, it
 * shows the rider's plan, MCP address, connected assistants (each with
 * Disconnect), personal records, recent alerts and how each went out, the
 * alert channels (`channels-section.ts`), the alert webhook
 * (`webhook-section.ts`), the password and the rider's data
 * (`account-data-section.ts`), and signs out.
 */
import { byId } from '../dom/by-id.ts';
import { failureMessage, getJson, postJson } from './auth-client.ts';
import { alertItems, connectionItems, planText, recordRows, type Me } from './settings-view.ts';
import { showOwnSegments, startOwnSegmentsSection } from './own-segments-section.ts';
import { showBilling, startBillingSection } from '../billing/settings-billing.ts';
import { showWebhook, startWebhookSection } from './webhook-section.ts';
import { postRowAction } from './row-action.ts';
import { markMenuSignedIn, rememberSignedIn } from './menu-session.ts';
import { showChannels, startChannelsSection } from './channels-section.ts';
import { startAccountDataSections } from './account-data-section.ts';

function show(state: 'signed-in' | 'signed-out' | 'failed', message = ''): void {
  if (state !== 'failed') rememberSignedIn(state === 'signed-in');
  byId('settings-loading').hidden = true;
  byId('settings-signed-in').hidden = state !== 'signed-in';
  byId('settings-signed-out').hidden = state !== 'signed-out';
  const failed = byId('settings-failed');
  failed.hidden = state !== 'failed';
  failed.textContent = message;
}

function announce(message: string): void {
  byId('settings-status').textContent = message;
}

function disconnect(clientId: string, name: string, item: HTMLLIElement): void {
  const path = `/api/rider/connections/${encodeURIComponent(clientId)}/disconnect`;
  void postRowAction(item, path, {}, announce).then((done) => {
    if (!done) return;
    item.remove();
    byId('connections-empty').hidden = byId('connections').childElementCount > 0;
    announce(`${name} is disconnected. Its next request will be refused.`);
  });
}

function render(me: Me): void {
  byId('account-email').textContent = me.rider.email;
  markMenuSignedIn(me.rider.email);
  byId('account-plan').textContent = planText(me.rider);
  showBilling(me.billing);
  byId('mcp-url').textContent = me.mcp_url;
  byId('connections').replaceChildren(...connectionItems(me.connections, disconnect));
  byId('connections-empty').hidden = me.connections.length > 0;
  byId('records').replaceChildren(...recordRows(me.watchlist));
  byId('records-table').hidden = me.watchlist.length === 0;
  byId('records-empty').hidden = me.watchlist.length > 0;
  byId('alerts').replaceChildren(...alertItems(me.alerts));
  byId('alerts-empty').hidden = me.alerts.length > 0;
  showWebhook(me.webhook_url);
  showChannels(me.channels, me.rider.email);
  showOwnSegments(me);
  show('signed-in');
}

async function load(): Promise<void> {
  // better-auth answers 200 `null` without a session: no failed request in the console.
  const session = await getJson('/api/auth/get-session');
  if (session.status === 200 && session.body === null) return show('signed-out');
  const me = await getJson('/api/rider/me');
  if (me.status === 401) return show('signed-out');
  if (me.status !== 200 || !me.body) return show('failed', failureMessage(me));
  render(me.body as unknown as Me);
}

export function startSettings(): void {
  startWebhookSection();
  startOwnSegmentsSection(() => {
    load().catch(() => announce('The server could not be reached. Reload the page to try again.'));
  });
  startBillingSection();
  startChannelsSection(() => {
    load().catch(() => announce('The server could not be reached. Reload the page to try again.'));
  });
  startAccountDataSections();
  byId('sign-out').addEventListener('click', () => {
    void postJson('/api/auth/sign-out', {}).then(
      () => {
        rememberSignedIn(false);
        location.assign('/login');
      },
      () => announce('The server could not be reached. Try again.'),
    );
  });
  load().catch(() => show('failed', 'The server could not be reached. Reload the page to try again.'));
}
