import type { PaidPlanId } from '../../core/billing-rules.ts';
import { z } from 'zod';
import {
  ALERT_CHANCE_DEFAULT_PCT,
  ALERT_THRESHOLD_MAX_KMH,
  ALERT_THRESHOLD_MIN_KMH,
  FREE_MONTHLY_CALLS,
  RECORD_MAX_S,
  type RiderPlan,
} from '../../core/rider-rules.ts';
import {
  AttributionSchema,
  EnsembleInfoSchema,
  ForecastInfoSchema,
  IncludeDarknessSchema,
  IsoTimeSchema,
  LocalTimeSchema,
  LockedFeatureSchema,
  SegmentHourSchema,
  TailwindWindowSchema,
  TimeZoneSchema,
  WindowStatusSchema,
} from './common.ts';
import { SegmentFactsSchema, SegmentIdArgSchema, SegmentOutIdSchema } from './segment.ts';

const THRESHOLD_BOUNDS = `threshold_kmh must be between ${ALERT_THRESHOLD_MIN_KMH} and ${ALERT_THRESHOLD_MAX_KMH} km/h`;
const RECORD_BOUNDS = `record_s must be a whole number of seconds from 1 to ${RECORD_MAX_S} (24 h)`;

/**
 * The free allowance as every metered answer shows it. All four fields are
 * null for riders with Pro access (paid or in trial): they have no limit and
 * their calls are not counted.
 */
export const UsageSchema = z
  .object({
    used: z.int().min(0).nullable().describe('This month (UTC), this call included'),
    limit: z.int().min(0).nullable(),
    remaining: z.int().min(0).nullable(),
    resets_at: IsoTimeSchema.nullable(),
  })
  .describe(`Free: ${FREE_MONTHLY_CALLS} calls a month; null with Pro`)
  .meta({ id: 'Usage' });

export const AccessSchema = z.object({
  plan: z.enum(['free', 'pro'] as const satisfies readonly RiderPlan[]),
  pro_access: z.boolean().describe('Pro or in trial: details unlocked, no call limit'),
  in_trial: z.boolean(),
  trial_ends_at: IsoTimeSchema.nullable(),
  paid_plan: z
    .enum(['pro_monthly', 'pro_annual', 'pro_lifetime'] as const satisfies readonly PaidPlanId[])
    .nullable()
    .describe('The paid plan giving Pro now'),
  renews_at: IsoTimeSchema.nullable().describe('Next charge'),
  pro_until: IsoTimeSchema.nullable().describe('End of a cancelled or unpaid plan'),
});

export const CatalogStatusSchema = z
  .enum(['in_catalog', 'own_segment', 'missing_from_catalog'])
  .describe('missing_from_catalog: unwatch_segment removes it');

/** Segment facts at the rider address, where a rider's own segment has no catalog rank. */
export const RiderSegmentFactsSchema = SegmentFactsSchema.extend({
  popularity_rank: z.int().min(1).nullable().describe('1 = best known; null: own segment'),
}).meta({ id: 'RiderSegment' });

/**
 * One watch as the tools that change it answer: the rider's settings and
 * the segment's name. The caller has just named the segment, so its facts
 * (get_my_watchlist, get_segment) are not repeated.
 */
export const WatchSchema = z
  .object({
    segment_id: SegmentOutIdSchema,
    segment_name: z.string().nullable(),
    catalog_status: CatalogStatusSchema,
    record_s: z.int().nullable(),
    alerts_on: z.boolean().describe('Recorded only with Pro access'),
    threshold_kmh: z.number(),
    min_chance_pct: z.int().nullable().describe('Alert only when this share of members agree'),
    watched_at: IsoTimeSchema,
  })
  .meta({ id: 'Watch' });

/** One watched segment in the watchlist: the settings with the segment's facts in place of its name. */
export const WatchEntrySchema = WatchSchema.omit({ segment_name: true }).extend({
  segment: RiderSegmentFactsSchema.nullable().describe('Null when missing_from_catalog'),
  // Only on loops kept as own segments before loops were refused (issue 28): the job skips them.
  alerts_cannot_fire: z.string().optional().describe('Why, and what to use instead'),
});

export const RecentAlertSchema = z.object({
  segment_id: SegmentOutIdSchema,
  segment_name: z.string().nullable(),
  window_start: IsoTimeSchema,
  window_end: IsoTimeSchema,
  time_zone: TimeZoneSchema.describe('IANA'),
  window_start_local: LocalTimeSchema,
  window_end_local: LocalTimeSchema,
  peak_tailwind_kmh: z.number(),
  recorded_at: IsoTimeSchema,
  delivered_at: IsoTimeSchema.nullable().describe("When the rider's webhook accepted it"),
});

const metered = { locked: z.array(LockedFeatureSchema), usage: UsageSchema };
const LIMIT_NOTE = 'Past the free monthly limit only locked and usage are present.';

export const GetMyWatchlistInputSchema = z.object({});

export const GetMyWatchlistOutputSchema = z
  .object({
    access: AccessSchema.optional(),
    watchlist: z.array(WatchEntrySchema).optional().describe('Oldest watch first'),
    recent_alerts: z.array(RecentAlertSchema).optional().describe('Newest first, at most 10'),
    ...metered,
  })
  .describe(LIMIT_NOTE);

/** The power model's inputs, stated once per answer so the estimate can be checked. */
export const PowerModelInfoSchema = z.object({
  name: z.string(),
  reference: z.string(),
  cda_m2: z.number(),
  crr: z.number(),
  mass_kg: z.number(),
  air_density_kg_m3: z.number(),
  drivetrain_efficiency: z.number(),
  wind_height_factor: z.number(),
  assumptions: z.array(z.string()),
});

export const RecordEstimateSchema = z.object({
  record_s: z.int(),
  estimated_s: z.number().describe('Record at the same power in the peak wind'),
  gain_s: z.number().describe('record_s − estimated_s'),
  power_w: z.int().describe('Backed out of the record'),
  wind_at: IsoTimeSchema.describe('The peak hour used'),
});

export const EstimateStatusSchema = z
  .enum(['estimated', 'no_record', 'no_window', 'record_too_slow', 'missing_from_catalog'])
  .describe('no_record: watch_segment record_s sets one');

export const WindowEntrySchema = z.object({
  segment_id: SegmentOutIdSchema,
  catalog_status: CatalogStatusSchema,
  // The name only: the facts are get_my_watchlist's, and a window does not need them.
  segment_name: z.string().nullable(),
  best_window: TailwindWindowSchema.nullable(),
  window_status: WindowStatusSchema,
  record_s: z.int().nullable(),
  estimate: RecordEstimateSchema.nullable(),
  estimate_status: EstimateStatusSchema,
  timeline: z.array(SegmentHourSchema).optional().describe('Pro, include_timeline'),
});

export const GetMyTailwindWindowsInputSchema = z.object({
  include_timeline: z.boolean().default(false).describe('Pro: 72-hour timelines (25 KB each)'),
  include_darkness: IncludeDarknessSchema,
});

export const GetMyTailwindWindowsOutputSchema = z
  .object({
    segments: z.array(WindowEntrySchema).optional().describe('In watchlist order'),
    model: PowerModelInfoSchema.optional(),
    ensemble: EnsembleInfoSchema.optional(),
    forecast: ForecastInfoSchema.nullable().optional(),
    attribution: AttributionSchema.optional(),
    ...metered,
  })
  .describe(LIMIT_NOTE);

export const RecordSecondsSchema = z
  .int(RECORD_BOUNDS)
  .min(1, RECORD_BOUNDS)
  .max(RECORD_MAX_S, RECORD_BOUNDS)
  .describe('Personal record in whole seconds (e.g. 2520 for 42:00)');

export const WatchSegmentInputSchema = z.object({
  segment_id: SegmentIdArgSchema,
  record_s: RecordSecondsSchema.optional().describe('Whole seconds (2520 = 42:00); omit to keep'),
});

export const WatchSegmentOutputSchema = z.object({
  watched: WatchSchema,
  created: z.boolean().describe('False: already watched, settings updated'),
  watchlist_size: z.int(),
  locked: z.array(LockedFeatureSchema),
});

export const UnwatchSegmentInputSchema = z.object({ segment_id: SegmentIdArgSchema });

export const UnwatchSegmentOutputSchema = z.object({
  segment_id: SegmentOutIdSchema,
  removed: z.boolean().describe('False: it was not watched'),
  watchlist_size: z.int(),
});

export const ThresholdKmhSchema = z
  .number(THRESHOLD_BOUNDS)
  .min(ALERT_THRESHOLD_MIN_KMH, THRESHOLD_BOUNDS)
  .max(ALERT_THRESHOLD_MAX_KMH, THRESHOLD_BOUNDS)
  .describe(
    `Peak tailwind in km/h that triggers an alert, ${ALERT_THRESHOLD_MIN_KMH} to ${ALERT_THRESHOLD_MAX_KMH}`,
  );

const CHANCE_BOUNDS = 'min_chance_pct must be a whole percent from 1 to 100, or null';

export const SetAlertThresholdInputSchema = z.object({
  segment_id: SegmentIdArgSchema,
  threshold_kmh: ThresholdKmhSchema,
  min_chance_pct: z
    .int(CHANCE_BOUNDS)
    .min(1, CHANCE_BOUNDS)
    .max(100, CHANCE_BOUNDS)
    .nullable()
    .optional()
    .describe(
      `Pro: alert only if this % of ensemble members agree (${ALERT_CHANCE_DEFAULT_PCT}: likely); null removes`,
    ),
});

export const SetAlertThresholdOutputSchema = z.object({
  watched: WatchSchema,
  previous_threshold_kmh: z.number(),
  locked: z.array(LockedFeatureSchema),
});

export type Usage = z.infer<typeof UsageSchema>;
export type Access = z.infer<typeof AccessSchema>;
export type RiderSegmentFacts = z.infer<typeof RiderSegmentFactsSchema>;
export type WatchEntryOut = z.infer<typeof WatchEntrySchema>;
export type WatchOut = z.infer<typeof WatchSchema>;
export type GetMyWatchlistOutput = z.infer<typeof GetMyWatchlistOutputSchema>;
export type WindowEntry = z.infer<typeof WindowEntrySchema>;
export type PowerModelInfo = z.infer<typeof PowerModelInfoSchema>;
export type GetMyTailwindWindowsOutput = z.infer<typeof GetMyTailwindWindowsOutputSchema>;
