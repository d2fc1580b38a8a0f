/**
 * The parts of Stripe's objects this service reads, as zod schemas: an
 * event is signed, but its shape still decides what gets written, so a
 * field that is missing or of another type is a refused event, never a
 * crash or a half-applied change. Fields Stripe moved between API versions
 * (the period moved onto subscription items, an invoice's subscription
 * into `parent`) are read from either place.
 */
import { z } from 'zod';

const id = z.string().min(1);
/** An expandable reference: the id, or the object with its id. */
const ref = z
  .union([id, z.object({ id })])
  .transform((value) => (typeof value === 'string' ? value : value.id));

export const StripeEventSchema = z.object({
  id,
  type: z.string(),
  created: z.number().int(),
  data: z.object({ object: z.record(z.string(), z.unknown()) }),
});
export type StripeEvent = z.infer<typeof StripeEventSchema>;

export const CheckoutSessionSchema = z.object({
  id,
  mode: z.enum(['payment', 'setup', 'subscription']),
  customer: ref.nullable().optional(),
  client_reference_id: z.string().nullable().optional(),
  subscription: ref.nullable().optional(),
  payment_intent: ref.nullable().optional(),
  payment_status: z.string(),
  amount_total: z.number().int().nullable().optional(),
  currency: z.string().nullable().optional(),
  created: z.number().int(),
});

/** A session as Stripe lists it: what tells an open attempt from a closed one. */
export const CheckoutAttemptSchema = z.object({
  id,
  status: z.string().nullable().optional(),
  url: z.string().nullable().optional(),
  currency: z.string().nullable().optional(),
  expires_at: z.number().int().nullable().optional(),
  metadata: z.record(z.string(), z.string()).nullable().optional(),
});

const period = {
  current_period_start: z.number().int().optional(),
  current_period_end: z.number().int().optional(),
};

export const SubscriptionSchema = z.object({
  id,
  customer: ref,
  status: z.string(),
  cancel_at_period_end: z.boolean(),
  ...period,
  items: z.object({
    data: z.array(z.object({ price: z.object({ id }), ...period })),
  }),
});

export const InvoiceSchema = z.object({
  id,
  customer: ref.nullable().optional(),
  subscription: ref.nullable().optional(),
  parent: z
    .object({ subscription_details: z.object({ subscription: ref }).nullable().optional() })
    .nullable()
    .optional(),
  amount_paid: z.number().int(),
  currency: z.string(),
  created: z.number().int(),
  status_transitions: z.object({ paid_at: z.number().int().nullable().optional() }).optional(),
});

export const ChargeSchema = z.object({
  id,
  customer: ref.nullable().optional(),
  payment_intent: ref.nullable().optional(),
  refunded: z.boolean(),
});

export const DisputeSchema = z.object({
  id,
  charge: ref,
  payment_intent: ref.nullable().optional(),
  status: z.string(),
});

/** The subscription an invoice belongs to, wherever this API version puts it. */
export function invoiceSubscription(invoice: z.infer<typeof InvoiceSchema>): string | null {
  return invoice.parent?.subscription_details?.subscription ?? invoice.subscription ?? null;
}
