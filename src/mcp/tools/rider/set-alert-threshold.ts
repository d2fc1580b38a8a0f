import { windFigure } from '../../report/weather-words.ts';
import { SCOPE_WRITE } from '../../../rider/access-policy.ts';
import { ALERT_THRESHOLD_MAX_KMH, ALERT_THRESHOLD_MIN_KMH } from '../../../core/rider-rules.ts';
import { setThresholdForRider } from '../../../service/watchlist.ts';
import { SetAlertThresholdInputSchema, SetAlertThresholdOutputSchema } from '../../schemas/rider.ts';
import { ToolError, type ToolDefinition } from '../../tool.ts';
import { riderLockedFeature } from './rider-locked-feature.ts';
import { requireRider } from './rider-context.ts';
import { watchOut } from './watch-entry.ts';

function notWatched(segmentId: string): ToolError {
  return new ToolError(
    `The rider does not watch "${segmentId}". Call watch_segment with this id first (it must come from ` +
      'find_tailwind_segments), then set the threshold; get_my_watchlist lists the watched ids.',
  );
}

/** Rider tool: the peak tailwind that triggers an alert on one watched segment. */
export const setAlertThreshold: ToolDefinition<
  typeof SetAlertThresholdInputSchema,
  typeof SetAlertThresholdOutputSchema
> = {
  name: 'set_alert_threshold',
  title: 'Set the alert threshold',
  description:
    `Sets the peak tailwind (${ALERT_THRESHOLD_MIN_KMH}–${ALERT_THRESHOLD_MAX_KMH} km/h) that records an ` +
    'alert on a watched segment, and the share of ensemble members that must agree. Alerts are Pro.',
  inputSchema: SetAlertThresholdInputSchema,
  outputSchema: SetAlertThresholdOutputSchema,
  annotations: {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  async run({ segment_id, threshold_kmh, min_chance_pct }, context) {
    const session = await requireRider(context, SCOPE_WRITE);
    const outcome = await setThresholdForRider(
      session.store.db,
      session.rider.id,
      segment_id,
      threshold_kmh,
      min_chance_pct,
    );
    if (!outcome.ok) throw notWatched(segment_id);
    const { before, after } = outcome;
    const watched = watchOut(after, await session.segments.get(segment_id));
    const data = {
      watched,
      previous_threshold_kmh: before.thresholdKmh,
      locked: session.proAccess ? [] : [riderLockedFeature('tailwind_alerts', session, context.urls)],
    };
    const name = watched.segment_name ?? segment_id;
    const pro = session.proAccess ? '' : ' Alerts fire only with Pro access (see locked).';
    return {
      data,
      summary:
        `Alert threshold on ${name} [${segment_id}]: peak tailwind ${before.thresholdKmh} → ${windFigure(threshold_kmh)}` +
        (after.minChancePct === null
          ? '.'
          : `, only when at least ${after.minChancePct}% of ensemble members reach it (a share of forecast runs, not a calibrated probability).`) +
        pro,
    };
  },
};
