/**
 * The plan catalog: one source for `/v1/plans`, the pricing page and the MCP
 * `locked` hints. Feature lines describe what the service enforces.
 */
export type PlanId = 'free' | 'pro_monthly' | 'pro_annual' | 'pro_lifetime';
export type Billing = 'free' | 'monthly' | 'yearly' | 'one-time';

export interface Money {
  readonly eur: string;
  readonly usd: string;
}

export interface Plan {
  readonly id: PlanId;
  readonly name: string;
  readonly price: Money;
  /** Always null since 1.1.0: no plan is discounted. Kept for 1.0 clients. */
  readonly list_price: Money | null;
  readonly billing: Billing;
  readonly features: readonly string[];
}

/** Length of the free Pro trial. */
export const TRIAL_DAYS = 14;

/**
 * How many segments of their own (from a GPX file, a GeoJSON line or a list
 * of points) a rider may keep, by access. Every own segment is watched from
 * the moment it is added, so the Pro allowance stays under
 * `WATCHLIST_MAX_SEGMENTS` (50, in `rider-rules.ts`), leaving room for catalog segments. The plan
 * catalog's feature lines, the pricing page and the `locked` hint are all
 * written from these two numbers.
 */
export const OWN_SEGMENT_ALLOWANCE: Readonly<Record<'free' | 'pro', number>> = { free: 3, pro: 25 };

/** The feature line promising `count` own segments: one wording for Free, Pro and the `locked` hint. */
export function ownSegmentsFeature(count: number): string {
  return `Up to ${count} segments of your own from GPX, GeoJSON or points, watched like catalog ones`;
}

/**
 * The metered rider tools (get_my_watchlist, get_my_tailwind_windows) as a
 * rider meets them: questions to an assistant about their watched segments.
 * The feature lines say what a rider gets, not which tool answers.
 */
const WATCHLIST_QUESTIONS =
  'questions to your assistant about your watched segments and their tailwind windows';

/** The Pro line for the unmetered rider tools; the `locked` hint quotes it. */
export const UNLIMITED_RIDER_QUESTIONS = `Unlimited ${WATCHLIST_QUESTIONS}`;

const PRO_FEATURES = [
  'Everything in Free',
  UNLIMITED_RIDER_QUESTIONS,
  // The site shows every segment's 72 hours to everyone; what Pro adds is the timeline in an assistant's answers.
  'Hour-by-hour 72-hour wind timeline in your assistant’s answers',
  'Tailwind alerts on watched segments, with webhook delivery',
  'Chance of a tailwind from ensemble forecasts on best windows, route starts and alerts',
  ownSegmentsFeature(OWN_SEGMENT_ALLOWANCE.pro),
];

export const PLANS: readonly Plan[] = [
  {
    id: 'free',
    name: 'Free',
    price: { eur: '€0', usd: '$0' },
    list_price: null,
    billing: 'free',
    features: [
      'The tailwind calculator and the REST API, no key needed',
      'Ask your assistant for the segments near a place and the best tailwind window on each',
      // FREE_MONTHLY_CALLS (rider-rules.ts, which imports this file); tests/unit/plans-words.test.ts ties them.
      `20 ${WATCHLIST_QUESTIONS} a month`,
      ownSegmentsFeature(OWN_SEGMENT_ALLOWANCE.free),
    ],
  },
  {
    id: 'pro_monthly',
    name: 'Pro Monthly',
    price: { eur: '€4.99', usd: '$5.49' },
    list_price: null,
    billing: 'monthly',
    features: PRO_FEATURES,
  },
  {
    id: 'pro_annual',
    name: 'Pro Annual',
    price: { eur: '€49.90', usd: '$54.90' },
    list_price: null,
    billing: 'yearly',
    features: [...PRO_FEATURES, 'Two months free compared with monthly billing'],
  },
  {
    id: 'pro_lifetime',
    name: 'Pro Lifetime',
    price: { eur: '€149', usd: '$165' },
    list_price: null,
    billing: 'one-time',
    features: [...PRO_FEATURES, 'One payment, Pro for the life of the service'],
  },
];

/** How a rider starts the trial: a new account on the sign-up page is Pro for the trial's length. */
export const TRIAL_HOW_TO_START =
  `Create a free rider account and connect an assistant to the rider MCP address: ` +
  `Pro is unlocked for ${TRIAL_DAYS} days, no card needed, and drops back to Free when it ends.`;
