/**
 * The billing rows of the settings page: the paid plan with its renewal or
 * end date and the last payment, Buy Pro (to the pricing page) for a rider
 * without one, Manage billing (Stripe's customer portal) for a rider who
 * has paid, and a plain note when this deployment takes no payments.
 */
import { PLANS } from '../../core/plans.ts';
import { byId } from '../dom/by-id.ts';
import { failureMessage, postJson } from '../rider/auth-client.ts';
import { formatDate } from '../rider/settings-view.ts';

export interface BillingView {
  readonly payments_enabled: boolean;
  readonly has_customer: boolean;
  readonly plan_id: string | null;
  readonly status: string | null;
  readonly active: boolean;
  readonly renews_at: string | null;
  readonly ends_at: string | null;
  readonly access_until: string | null;
  readonly grace_until: string | null;
  readonly last_payment: { at: string; amount_minor: number; currency: string } | null;
}

/** "€4.99" style, in the rider's locale. */
export function formatMoney(amountMinor: number, currency: string): string {
  try {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency: currency.toUpperCase() }).format(
      amountMinor / 100,
    );
  } catch {
    return `${(amountMinor / 100).toFixed(2)} ${currency.toUpperCase()}`;
  }
}

/** What the renewal row says, or undefined when there is nothing to say. */
export function renewalLine(billing: BillingView): { label: string; text: string } | undefined {
  if (!billing.active) return undefined;
  if (billing.status === 'lifetime') return { label: 'Renews', text: 'Never: Pro for good' };
  if (billing.grace_until) {
    return { label: 'Payment failed', text: `Update your card: Pro ends ${formatDate(billing.grace_until)}` };
  }
  if (billing.ends_at) return { label: 'Ends', text: formatDate(billing.ends_at) };
  if (billing.renews_at) return { label: 'Renews', text: formatDate(billing.renews_at) };
  return undefined;
}

export function showBilling(billing: BillingView): void {
  const plan = billing.active ? PLANS.find((p) => p.id === billing.plan_id) : undefined;
  if (plan) byId('account-plan').textContent = plan.name;
  const renewal = renewalLine(billing);
  byId('billing-renewal-row').hidden = !renewal;
  byId('billing-renewal-label').textContent = renewal?.label ?? '';
  byId('billing-renewal').textContent = renewal?.text ?? '';
  const payment = billing.last_payment;
  byId('billing-payment-row').hidden = !payment;
  byId('billing-payment').textContent = payment
    ? `${formatMoney(payment.amount_minor, payment.currency)} on ${formatDate(payment.at)}`
    : '';
  byId('billing-off').hidden = billing.payments_enabled;
  byId('billing-buy').hidden = !billing.payments_enabled || billing.active;
  byId('billing-manage').hidden = !billing.payments_enabled || !billing.has_customer;
}

export function startBillingSection(): void {
  const manage = byId<HTMLButtonElement>('billing-manage');
  manage.addEventListener('click', () => {
    manage.disabled = true;
    byId('billing-status').textContent = '';
    postJson('/api/rider/billing/portal', {})
      .then((reply) => {
        const url = reply.body?.['url'];
        if (reply.status === 200 && typeof url === 'string') return location.assign(url);
        manage.disabled = false;
        byId('billing-status').textContent = failureMessage(reply);
      })
      .catch(() => {
        manage.disabled = false;
        byId('billing-status').textContent = 'The server could not be reached. Try again.';
      });
  });
}
