/**
 * Builds the settings page's lists from `GET /api/rider/me`. Every value from
 * the server (assistant names above all: a client chooses its own) goes in
 * as text, never as markup.
 */
import type { BillingView } from '../billing/settings-billing.ts';
import { scopeLabel } from './scope-labels.ts';
import { clockTime } from '../../core/duration-words.ts';

export interface Me {
  readonly rider: {
    email: string;
    plan: 'free' | 'pro';
    trial_ends_at: string | null;
    in_trial: boolean;
    pro_access: boolean;
  };
  /** The paid plan (`src/billing/checkout.ts` billingSummary). */
  readonly billing: BillingView;
  readonly mcp_url: string;
  /** Where alerts are POSTed; the secret is never in this answer. */
  readonly webhook_url: string | null;
  readonly connections: readonly {
    client_id: string;
    client_name: string | null;
    scopes: readonly string[];
    connected_at: string | null;
  }[];
  readonly own_segments: readonly {
    id: string;
    name: string;
    distance_m: number;
    gain_m: number;
  }[];
  readonly own_segment_allowance: { used: number; allowance: number; free: number; pro: number };
  readonly watchlist: readonly {
    segment_id: string;
    segment_name: string | null;
    record_s: number | null;
    alerts_on: boolean;
    threshold_kmh: number;
  }[];
  readonly alerts: readonly {
    segment_id: string;
    segment_name: string | null;
    window_start: string | null;
    /** "Sat 28 Nov 08:00–10:00 CET": the window on the segment's clock. */
    window_text?: string;
    peak_tailwind_kmh: number;
    /** How the alert went out on each channel (webhook, email, push to each device). */
    deliveries?: readonly Delivery[];
  }[];
  readonly channels?: Channels;
}

export interface Delivery {
  readonly channel: 'webhook' | 'email' | 'push';
  readonly device?: string;
  readonly state: 'pending' | 'sending' | 'delivered' | 'failed' | 'gave_up' | 'dropped';
  readonly attempts: number;
  readonly last_error: string | null;
  readonly next_attempt_at?: string | null;
}

export interface Channels {
  readonly email: { on: boolean; verified: boolean; delivery: 'smtp' | 'outbox' | null };
  readonly push: {
    on: boolean;
    public_key: string | null;
    devices: readonly { id: string; label: string; added_at: string }[];
  };
  readonly calendar: { on: boolean };
}

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const dateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export function formatDate(iso: string | null, withTime = false): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isFinite(date.getTime()) ? (withTime ? dateTimeFormat : dateFormat).format(date) : '—';
}

/** A segment time as h:mm:ss or m:ss; a dash for none. */
export const formatRecord = (seconds: number | null): string => (seconds === null ? '—' : clockTime(seconds));

function element<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, className?: string) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
}

export function planText(rider: Me['rider']): string {
  if (rider.plan === 'pro') return 'Pro';
  return rider.in_trial ? `Free, with the Pro trial until ${formatDate(rider.trial_ends_at)}` : 'Free';
}

/** One list item per connected assistant, each with its Disconnect button. */
export function connectionItems(
  connections: Me['connections'],
  onDisconnect: (clientId: string, name: string, item: HTMLLIElement) => void,
): HTMLLIElement[] {
  return connections.map((connection) => {
    const name = connection.client_name?.trim() || connection.client_id;
    const item = element('li', undefined, 'connection');
    const head = element('div', undefined, 'connection-head');
    head.append(
      element('strong', name),
      element('span', `connected ${formatDate(connection.connected_at)}`, 'muted'),
    );
    const scopes = element('ul', undefined, 'scopes');
    scopes.append(...connection.scopes.map((scope) => element('li', scopeLabel(scope))));
    const button = element('button', 'Disconnect', 'button secondary');
    button.type = 'button';
    button.setAttribute('aria-label', `Disconnect ${name}`);
    button.addEventListener('click', () => onDisconnect(connection.client_id, name, item));
    item.append(head, scopes, button);
    return item;
  });
}

export function recordRows(watchlist: Me['watchlist']): HTMLTableRowElement[] {
  return watchlist.map((watch) => {
    const row = element('tr');
    row.append(
      element('td', watch.segment_name ?? watch.segment_id),
      element('td', formatRecord(watch.record_s)),
      element('td', watch.alerts_on ? `from ${watch.threshold_kmh} km/h` : 'off'),
    );
    return row;
  });
}

const STATE_WORDS: Record<Delivery['state'], string> = {
  pending: 'waiting',
  sending: 'sent, outcome unknown',
  delivered: 'delivered',
  failed: 'failed, will retry',
  gave_up: 'failed, given up',
  dropped: 'not sent',
};

/** "email: delivered", "push to Chrome on Android: failed, will retry (the push service did not answer…)". */
export function deliveryText(delivery: Delivery): string {
  const where = delivery.channel === 'push' ? `push to ${delivery.device ?? 'a device'}` : delivery.channel;
  const retry = delivery.next_attempt_at ? ` at ${formatDate(delivery.next_attempt_at, true)}` : '';
  const why = delivery.last_error && delivery.state !== 'delivered' ? ` (${delivery.last_error})` : '';
  return `${where}: ${STATE_WORDS[delivery.state]}${retry}${why}`;
}

export function alertItems(alerts: Me['alerts']): HTMLLIElement[] {
  return alerts.map((alert) => {
    const item = element(
      'li',
      `${alert.segment_name ?? alert.segment_id}: peak tailwind ${alert.peak_tailwind_kmh} km/h at 10 m, ` +
        (alert.window_text ?? formatDate(alert.window_start, true)),
    );
    const deliveries = alert.deliveries ?? [];
    if (deliveries.length > 0) {
      const list = element('ul');
      list.className = 'deliveries';
      list.append(...deliveries.map((delivery) => element('li', deliveryText(delivery))));
      item.append(list);
    }
    return item;
  });
}
