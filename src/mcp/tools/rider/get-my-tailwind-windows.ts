import { FREE_MONTHLY_CALLS } from '../../../core/rider-rules.ts';
import type { Segment } from '../../../data/segments/types.ts';
import { watchedSegments, type WatchEntry } from '../../../service/watchlist.ts';
import { attributionFor, forecastForSegments } from '../../report/forecast.ts';
import { ensembleForPoints, withChance } from '../../report/ensemble.ts';
import { DEFAULT_CHANCE_THRESHOLD_KMH } from '../../../core/ensemble-chance.ts';
import { forecastPointOf, legsOf } from '../../../data/segments/segment-geometry.ts';
import { segmentWindReport } from '../../report/segment-report.ts';
import {
  GetMyTailwindWindowsInputSchema,
  GetMyTailwindWindowsOutputSchema,
  type GetMyTailwindWindowsOutput,
  type WindowEntry,
} from '../../schemas/rider.ts';
import type { ToolDefinition } from '../../tool.ts';
import { riderLockedFeature } from './rider-locked-feature.ts';
import { metered } from './metered.ts';
import { zoneOfSegments } from './rider-zone.ts';
import { POWER_MODEL_INFO, estimateRecord } from './record-estimate.ts';
import { requireRider } from './rider-context.ts';
import { summarizeWindows } from './rider-summaries.ts';
import { catalogStatusOf } from './watch-entry.ts';

function missingEntry(entry: WatchEntry): WindowEntry {
  return {
    segment_id: entry.segmentId,
    catalog_status: 'missing_from_catalog',
    segment_name: null,
    best_window: null,
    window_status: 'no_forecast',
    record_s: entry.recordS,
    estimate: null,
    estimate_status: 'missing_from_catalog',
  };
}

/** Rider tool: the best tailwind window on every watched segment and what it does to the rider's record. */
export const getMyTailwindWindows: ToolDefinition<
  typeof GetMyTailwindWindowsInputSchema,
  typeof GetMyTailwindWindowsOutputSchema
> = {
  name: 'get_my_tailwind_windows',
  title: 'Best tailwind on my segments',
  description:
    "Each watched segment's best tailwind window in the next 3 days and, with a record set, the record " +
    `re-ridden in that wind (a model estimate: say so). Free: ${FREE_MONTHLY_CALLS} calls a month.`,
  inputSchema: GetMyTailwindWindowsInputSchema,
  outputSchema: GetMyTailwindWindowsOutputSchema,
  annotations: {
    readOnlyHint: true,
    // Each call spends one of a free rider's monthly calls: repeating it is not free.
    idempotentHint: false,
    openWorldHint: true,
  },
  async run({ include_timeline, include_darkness }, context) {
    const session = await requireRider(context);
    return metered(session, context.urls, async () => {
      const { entries, segments: found } = await watchedSegments(
        session.store.db,
        session.rider.id,
        session.segments,
      );
      const known = entries.flatMap((entry) => {
        const segment = found.get(entry.segmentId);
        return segment ? [{ entry, segment }] : [];
      });
      const segments: Segment[] = known.map((k) => k.segment);
      // Pro only: the ensemble is paid per member; Free riders see the chance locked.
      const [forecast, ensemble] = await Promise.all([
        segments.length > 0 ? forecastForSegments(context, segments) : null,
        session.proAccess && segments.length > 0
          ? ensembleForPoints(context, segments.map(forecastPointOf), DEFAULT_CHANCE_THRESHOLD_KMH)
          : null,
      ]);
      const bySegment = new Map<string, WindowEntry>();
      known.forEach(({ entry, segment }, i) => {
        const report = segmentWindReport(segment, forecast?.samples[i] ?? null, {
          includeDarkness: include_darkness,
        });
        const { estimate, status } = estimateRecord(segment, entry.recordS, report.bestWindow);
        const hours = ensemble?.hours[i] ?? null;
        bySegment.set(entry.segmentId, {
          segment_id: entry.segmentId,
          catalog_status: catalogStatusOf(segment),
          segment_name: segment.name,
          best_window: ensemble
            ? withChance(report.bestWindow, legsOf(segment), hours, DEFAULT_CHANCE_THRESHOLD_KMH)
            : report.bestWindow,
          window_status: report.windowStatus,
          record_s: entry.recordS,
          estimate,
          estimate_status: status,
          ...(session.proAccess && include_timeline ? { timeline: [...report.timeline()] } : {}),
        });
      });
      const data = {
        segments: entries.map((entry) => bySegment.get(entry.segmentId) ?? missingEntry(entry)),
        model: POWER_MODEL_INFO,
        ...(ensemble ? { ensemble: ensemble.info } : {}),
        forecast: forecast?.info ?? null,
        attribution: attributionFor(forecast?.info.source ?? null, segments, null),
        locked: session.proAccess
          ? []
          : [
              riderLockedFeature('hourly_timeline', session, context.urls),
              riderLockedFeature('tailwind_chance', session, context.urls),
            ],
      } satisfies Omit<GetMyTailwindWindowsOutput, 'usage'>;
      // The rider's zone for the monthly reset: where their watched segments are.
      return { data, summary: summarizeWindows(data), timeZone: zoneOfSegments(segments) };
    });
  },
};
