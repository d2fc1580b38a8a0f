/**
 * The Buy buttons of the pricing page. The page is static, so it asks the
 * server whether this deployment takes payments (`/api/billing/status`):
 * without, the buttons stay hidden and a note says how to start the trial
 * instead. A rider who is not signed in goes through sign-up (or sign-in)
 * and comes back here with the plan and currency they picked pre-selected.
 * A click disables every Buy button until the answer, and the server gives
 * a repeated click the same Checkout Session anyway.
 */
import { byId } from '../dom/by-id.ts';
import { failureMessage, getJson, postJson } from '../rider/auth-client.ts';
import { signUpThenBack } from './return-path.ts';

type Currency = 'eur' | 'usd';

function buttons(): HTMLButtonElement[] {
  return [...document.querySelectorAll<HTMLButtonElement>('button[data-buy]')];
}

function currency(): Currency {
  const checked = document.querySelector<HTMLInputElement>('input[name="currency"]:checked');
  return checked?.value === 'usd' ? 'usd' : 'eur';
}

function say(message: string): void {
  byId('buy-status').textContent = message;
}

async function buy(plan: string): Promise<void> {
  const chosen = currency();
  const here = `/pricing?plan=${encodeURIComponent(plan)}&currency=${chosen}`;
  const session = await getJson('/api/auth/get-session');
  if (session.status === 200 && session.body === null) {
    location.assign(signUpThenBack(here));
    return;
  }
  const reply = await postJson('/api/rider/billing/checkout', { plan, currency: chosen });
  const url = reply.body?.['url'];
  if (reply.status === 200 && typeof url === 'string') {
    say('Taking you to the payment page…');
    location.assign(url);
    return;
  }
  if (reply.status === 401) {
    location.assign(signUpThenBack(here));
    return;
  }
  throw new Error(failureMessage(reply));
}

/** Marks the plan named in `?plan=` (from a locked hint or a sign-in round trip) and its currency. */
function preselect(): void {
  const params = new URLSearchParams(location.search);
  const wanted = params.get('currency');
  if (wanted === 'usd' || wanted === 'eur') {
    const input = document.querySelector<HTMLInputElement>(`input[name="currency"][value="${wanted}"]`);
    if (input) input.checked = true;
  }
  const plan = params.get('plan');
  const card = plan ? document.querySelector<HTMLElement>(`[data-plan="${CSS.escape(plan)}"]`) : null;
  if (!card) return;
  card.classList.add('selected');
  card.setAttribute('aria-current', 'true');
  card.querySelector<HTMLButtonElement>('button[data-buy]')?.focus();
}

/**
 * Follows the "Pay in" switch: each card shows the chosen currency's price
 * first and the other one muted, and each Buy button names the price it
 * will charge, so the switch visibly does what it says.
 */
function showCurrency(): void {
  const chosen = currency();
  document.querySelector<HTMLElement>('.plans')?.setAttribute('data-paying', chosen);
  for (const button of buttons()) {
    const card = button.closest<HTMLElement>('[data-plan]');
    const name = card?.querySelector('h2')?.textContent ?? '';
    const price = card?.querySelector(`[data-currency="${chosen}"]`)?.textContent ?? '';
    button.textContent = `Buy ${name} for ${price}`;
  }
}

export async function startPricing(): Promise<void> {
  preselect();
  const status = await getJson('/api/billing/status').catch(() => ({ status: 0, body: null }));
  const enabled = status.status === 200 && status.body?.['payments_enabled'] === true;
  byId('payments-off').hidden = enabled;
  byId('buy-controls').hidden = !enabled;
  if (!enabled) return;
  byId('buy-controls').addEventListener('change', showCurrency);
  for (const button of buttons()) {
    button.hidden = false;
    button.addEventListener('click', () => {
      const all = buttons();
      for (const b of all) b.disabled = true;
      say('');
      buy(button.dataset['buy'] ?? '').catch((error: unknown) => {
        say(
          error instanceof Error && error.message
            ? error.message
            : 'The server could not be reached. Try again.',
        );
        for (const b of all) b.disabled = false;
      });
    });
  }
  preselect();
  showCurrency();
}
