import * as z from 'zod';
import { PLANS, TRIAL_DAYS, TRIAL_HOW_TO_START } from '../../core/plans.ts';

/** Display prices, currency symbol included. */
export const MoneySchema = z
  .object({
    eur: z.string().meta({ example: '€4.99' }),
    usd: z.string().meta({ example: '$5.49' }),
  })
  .meta({ id: 'Money' });

export const PlanSchema = z
  .object({
    id: z.enum(['free', 'pro_monthly', 'pro_annual', 'pro_lifetime']),
    name: z.string().meta({ description: 'Display name.' }),
    price: MoneySchema,
    list_price: MoneySchema.nullable().meta({
      description: 'Always null: no plan is discounted. Kept so 1.0 clients keep parsing.',
    }),
    billing: z.enum(['free', 'monthly', 'yearly', 'one-time']),
    features: z.array(z.string()).readonly().meta({ description: 'What the plan includes.' }),
  })
  .meta({ id: 'Plan' });

export const TrialSchema = z
  .object({
    days: z.int().min(1).meta({ description: 'Length of the free Pro trial in days.' }),
    how_to_start: z.string(),
  })
  .meta({ id: 'Trial' });

/** Response of `GET /v1/plans`. */
export const PlansResultSchema = z
  .object({
    plans: z.array(PlanSchema).readonly().meta({ description: 'Free plus the three Pro plans.' }),
    trial: TrialSchema,
    pricing_url: z.url().meta({ description: 'Link to the pricing page.' }),
  })
  .meta({
    id: 'PlansResult',
    example: {
      plans: PLANS,
      trial: { days: TRIAL_DAYS, how_to_start: TRIAL_HOW_TO_START },
      pricing_url: 'https://wind-on-segment.example/pricing',
    },
  });

export type PlansResult = z.output<typeof PlansResultSchema>;
