/**
 * The README's Stripe setup lists exactly the webhook events the handler
 * acts on, so an operator subscribes the endpoint to every one of them.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HANDLED_EVENT_TYPES } from '../../src/billing/stripe-webhook.ts';

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

describe('the README payments section', () => {
  it('names every webhook event the handler uses, and no other', () => {
    const start = README.indexOf('\n## Payments (Stripe)\n');
    const section = README.slice(start, README.indexOf('\n## ', start + 1));
    const step = section.slice(
      section.indexOf('3. Webhook endpoint'),
      section.indexOf('4. `STRIPE_SECRET_KEY`'),
    );
    const listed = [...step.matchAll(/`([a-z_]+(?:\.[a-z_]+)+)`/g)].map((match) => match[1]);
    expect(new Set(listed)).toEqual(new Set(HANDLED_EVENT_TYPES));
  });
});
