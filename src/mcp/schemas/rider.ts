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
import { SegmentFactsSchema, SegmentIdSchema } from './segment.ts';

const THRESHOLD_BOUNDS = `threshold_kmh must be between ${ALERT_THRESHOLD_MIN_KMH} and ${ALERT_THRESHOLD_MAX_KMH} km/h`;
const RECORD_BOUNDS = `record_s must be a whole number of seconds from 1 to ${RECORD_MAX_S} (24 h)`;

/**
 * The free allowance as every metered answer shows it. All four fields are
 * null for riders with Pro access (paid or in trial): they have no limit and
 * their calls are not counted.
 */
export const UsageSchema = z
  .object({
    used: z.int().min(0).nullable().describe('Calls counted this calendar month (UTC), this one included'),
    limit: z.int().min(0).nullable().describe(`Calls allowed per month (${FREE_MONTHLY_CALLS} on Free)`),
    remaining: z.int().min(0).nullable().describe('Calls left this month'),
    resets_at: IsoTimeSchema.nullable().describe('When the count starts again: the next month, 00:00 UTC'),
  })
  .describe(
    `Free riders: ${FREE_MONTHLY_CALLS} calls per calendar month (UTC) to get_my_watchlist and ` +
      'get_my_tailwind_windows together; refused or failed calls are not counted. ' +
      'All null with Pro access (paid or trial): no limit.',
  );

export const AccessSchema = z.object({
  plan: z
    .enum(['free', 'pro'] as const satisfies readonly RiderPlan[])
    .describe('The plan on the account: free or pro (any paid Pro plan)'),
  pro_access: z.boolean().describe('True on Pro or during the trial: Pro details unlocked, no call limit'),
  in_trial: z.boolean(),
  trial_ends_at: IsoTimeSchema.nullable().describe('End of the Pro trial (past or future); null if none'),
  paid_plan: z
    .enum(['pro_monthly', 'pro_annual', 'pro_lifetime'] as const satisfies readonly PaidPlanId[])
    .nullable()
    .describe('The paid plan giving Pro now; null when none does (free, trial only, or set by the operator)'),
  renews_at: IsoTimeSchema.nullable().describe(
    'When the paid plan renews and is charged next; null for lifetime, a cancelled plan or none',
  ),
  pro_until: IsoTimeSchema.nullable().describe(
    'When paid Pro ends (a cancelled plan at its period end, a failed renewal at the end of its grace period); null when it renews, is lifetime, or there is none',
  ),
});

export const CatalogStatusSchema = z
  .enum(['in_catalog', 'own_segment', 'missing_from_catalog'])
  .describe(
    "own_segment: one of the rider's own segments (add_my_segment), private to them; " +
      'missing_from_catalog: the id is no longer in the segment catalog; unwatch_segment removes it',
  );

/** Segment facts at the rider address, where a rider's own segment has no catalog rank. */
export const RiderSegmentFactsSchema = SegmentFactsSchema.extend({
  popularity_rank: SegmentFactsSchema.shape.popularity_rank
    .nullable()
    .describe(
      "1 = most ridden in the catalog (editorial rank, not an effort count); null for the rider's own segment",
    ),
});

/** One watched segment with the rider's own settings. */
export const WatchEntrySchema = z.object({
  segment_id: SegmentIdSchema,
  catalog_status: CatalogStatusSchema,
  segment: RiderSegmentFactsSchema.nullable().describe('Segment facts; null when missing_from_catalog'),
  record_s: z.int().nullable().describe('Personal record on the segment, seconds; null if not given'),
  alerts_on: z
    .boolean()
    .describe('Tailwind alerts wanted; they are recorded only with Pro access (see locked)'),
  threshold_kmh: z.number().describe('Peak tailwind, km/h, at or above which an alert is recorded'),
  min_chance_pct: z
    .int()
    .nullable()
    .describe('Alert only when this share of ensemble members reach threshold_kmh; null: no such rule'),
  watched_at: IsoTimeSchema,
});

export const RecentAlertSchema = z.object({
  segment_id: SegmentIdSchema,
  segment_name: z.string().nullable().describe('Null when the segment left the catalog'),
  window_start: IsoTimeSchema,
  window_end: IsoTimeSchema,
  time_zone: TimeZoneSchema.describe('IANA time zone at the segment (UTC when it left the catalog)'),
  window_start_local: LocalTimeSchema,
  window_end_local: LocalTimeSchema,
  peak_tailwind_kmh: z.number(),
  recorded_at: IsoTimeSchema,
  delivered_at: IsoTimeSchema.nullable().describe("When the rider's webhook accepted it; null if not (yet)"),
});

const metered = { locked: z.array(LockedFeatureSchema), usage: UsageSchema };
const LIMIT_NOTE =
  'Past the free monthly limit the answer holds only locked and usage; every other field is then absent.';

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
  cda_m2: z.number().describe('Drag area, m²'),
  crr: z.number().describe('Rolling resistance coefficient'),
  mass_kg: z.number().describe('Rider, bike and kit'),
  air_density_kg_m3: z.number(),
  drivetrain_efficiency: z.number(),
  wind_height_factor: z.number().describe('Share of the 10 m forecast wind felt at rider height'),
  assumptions: z.array(z.string()),
});

export const RecordEstimateSchema = z.object({
  record_s: z.int().describe('The personal record, seconds'),
  estimated_s: z.number().describe('Record re-ridden at the same power in the peak-hour wind, seconds (0.1)'),
  gain_s: z.number().describe('record_s − estimated_s: positive = faster than the record'),
  power_w: z
    .int()
    .describe("Mean pedal power backed out of the record (watts), the model's only rider input"),
  wind_at: IsoTimeSchema.describe('The forecast hour whose wind is used: best_window.peak.time'),
});

export const EstimateStatusSchema = z
  .enum(['estimated', 'no_record', 'no_window', 'record_too_slow', 'missing_from_catalog'])
  .describe(
    'no_record: set one with watch_segment record_s; no_window: no tailwind to estimate in; ' +
      'record_too_slow: the record is slower than freewheeling, so no power can be backed out',
  );

export const WindowEntrySchema = z.object({
  segment_id: SegmentIdSchema,
  catalog_status: CatalogStatusSchema,
  segment: RiderSegmentFactsSchema.nullable(),
  best_window: TailwindWindowSchema.nullable(),
  window_status: WindowStatusSchema,
  record_s: z.int().nullable(),
  estimate: RecordEstimateSchema.nullable(),
  estimate_status: EstimateStatusSchema,
  timeline: z
    .array(SegmentHourSchema)
    .optional()
    .describe('Hour by hour for the next 72 hours (Pro; listed under locked otherwise)'),
});

export const GetMyTailwindWindowsInputSchema = z.object({
  include_timeline: z
    .boolean()
    .default(false)
    .describe(
      'Pro: add the hour-by-hour 72-hour timeline to every segment (about 25 KB each; get_segment gives one ' +
        "segment's). Free riders get it listed under locked instead.",
    ),
  include_darkness: IncludeDarknessSchema,
});

export const GetMyTailwindWindowsOutputSchema = z
  .object({
    segments: z.array(WindowEntrySchema).optional().describe('In watchlist order'),
    model: PowerModelInfoSchema.optional(),
    ensemble: EnsembleInfoSchema.optional(),
    forecast: ForecastInfoSchema.nullable().optional().describe('Null when nothing was forecast'),
    attribution: AttributionSchema.optional(),
    ...metered,
  })
  .describe(LIMIT_NOTE);

export const RecordSecondsSchema = z
  .int(RECORD_BOUNDS)
  .min(1, RECORD_BOUNDS)
  .max(RECORD_MAX_S, RECORD_BOUNDS)
  .describe('Personal record on the segment in whole seconds (e.g. 2520 for 42:00), at most 86400');

export const WatchSegmentInputSchema = z.object({
  segment_id: SegmentIdSchema,
  record_s: RecordSecondsSchema.optional().describe(
    'Personal record in whole seconds (e.g. 2520 for 42:00); omit to keep the stored one',
  ),
});

export const WatchSegmentOutputSchema = z.object({
  watched: WatchEntrySchema,
  created: z.boolean().describe('False when the segment was already watched (its settings were updated)'),
  watchlist_size: z.int(),
  locked: z.array(LockedFeatureSchema),
});

export const UnwatchSegmentInputSchema = z.object({ segment_id: SegmentIdSchema });

export const UnwatchSegmentOutputSchema = z.object({
  segment_id: SegmentIdSchema,
  removed: z.boolean().describe('False when the segment was not in the watchlist (nothing changed)'),
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
  segment_id: SegmentIdSchema,
  threshold_kmh: ThresholdKmhSchema,
  min_chance_pct: z
    .int(CHANCE_BOUNDS)
    .min(1, CHANCE_BOUNDS)
    .max(100, CHANCE_BOUNDS)
    .nullable()
    .optional()
    .describe(
      `Pro: alert only when at least this percent of ensemble members reach threshold_kmh in the window ` +
        `(${ALERT_CHANCE_DEFAULT_PCT} for "only when likely"); null removes the rule; omit to keep it`,
    ),
});

export const SetAlertThresholdOutputSchema = z.object({
  watched: WatchEntrySchema,
  previous_threshold_kmh: z.number(),
  locked: z.array(LockedFeatureSchema),
});

export type Usage = z.infer<typeof UsageSchema>;
export type Access = z.infer<typeof AccessSchema>;
export type RiderSegmentFacts = z.infer<typeof RiderSegmentFactsSchema>;
export type WatchEntryOut = z.infer<typeof WatchEntrySchema>;
export type GetMyWatchlistOutput = z.infer<typeof GetMyWatchlistOutputSchema>;
export type WindowEntry = z.infer<typeof WindowEntrySchema>;
export type PowerModelInfo = z.infer<typeof PowerModelInfoSchema>;
export type GetMyTailwindWindowsOutput = z.infer<typeof GetMyTailwindWindowsOutputSchema>;
