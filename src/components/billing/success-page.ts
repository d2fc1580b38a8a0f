/**
 * The page Checkout returns to. Stripe's webhook and the rider's browser
 * race: the page asks `/api/rider/me` a few times until the paid plan shows
 * (usually at once), and says plainly when it is still on its way.
 */
import { PLANS } from '../../core/plans.ts';
import { byId } from '../dom/by-id.ts';
import { getJson } from '../rider/auth-client.ts';

const ATTEMPTS = 15;
const PAUSE_MS = 1000;

export async function startSuccessPage(): Promise<void> {
  // Signed out (another browser, or the session ended): the payment stands; settings shows it after sign-in.
  const session = await getJson('/api/auth/get-session').catch(() => undefined);
  if (session?.status === 200 && session.body === null) {
    byId('success-waiting').hidden = true;
    byId('success-signed-out').hidden = false;
    return;
  }
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    const me = await getJson('/api/rider/me').catch(() => undefined);
    const billing = me?.body?.['billing'] as { active?: boolean; plan_id?: string } | undefined;
    if (billing?.active) {
      const plan = PLANS.find((p) => p.id === billing.plan_id);
      byId('success-plan').textContent = plan ? ` (${plan.name})` : '';
      byId('success-waiting').hidden = true;
      byId('success-done').hidden = false;
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
  }
  byId('success-waiting').hidden = true;
  byId('success-late').hidden = false;
}
