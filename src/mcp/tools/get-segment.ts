import type { LatLon } from '../../core/bearing.ts';
import { roundHalfAway } from '../../core/round.ts';
import { simplifyRoute } from '../../core/route/route-simplify.ts';
import { segmentTimeZone } from '../../data/time-zone/zone-at.ts';
import { isOwnSegmentId } from '../../core/rider-rules.ts';
import type { Segment } from '../../data/segments/types.ts';
import { isOwnSegment } from '../../data/segments/owned-segment.ts';
import { riderSegmentLookup } from '../../rider/segment-lookup.ts';
import type { ToolContext } from '../context.ts';
import { compassPoint } from '../../core/compass.ts';
import { attributionFor, forecastForSegments } from '../report/forecast.ts';
import { callerAccess, lockedDetails } from '../report/pro-details.ts';
import { ensembleForPoints, withChance } from '../report/ensemble.ts';
import { DEFAULT_CHANCE_THRESHOLD_KMH } from '../../core/ensemble-chance.ts';
import { forecastPointOf, legsOf } from '../../data/segments/segment-geometry.ts';
import { segmentFacts, segmentWindReport } from '../report/segment-report.ts';
import { endOf, toPoint } from '../../data/segments/segment-geometry.ts';
import { GetSegmentInputSchema, GetSegmentOutputSchema, type GetSegmentOutput } from '../schemas/segment.ts';
import { catalogSegmentOf } from '../../service/catalog-segment.ts';
import { ServiceError } from '../../service/service-error.ts';
import { READ_ONLY_OPEN_WORLD, type ToolDefinition } from '../tool.ts';
import { summarizeSegment } from './public-summaries.ts';

/**
 * The segment an id names for this caller: the catalog for everyone, and at
 * the rider address the rider's own segments too (through the one lookup
 * that keeps them private, so to anyone else an own id answers exactly as an
 * unknown one).
 */
async function segmentFor(context: ToolContext, id: string): Promise<Segment | undefined> {
  const { caller, store } = context;
  if (caller.kind === 'rider' && store !== undefined && isOwnSegmentId(id)) {
    return riderSegmentLookup(context.catalog, store.db, caller.riderId).get(id);
  }
  return catalogSegmentOf(id, context);
}

/** Public tool: one segment, the wind on it now and its best tailwind window. */
export const getSegment: ToolDefinition<typeof GetSegmentInputSchema, typeof GetSegmentOutputSchema> = {
  name: 'get_segment',
  title: 'Get a segment and its wind',
  description:
    'One segment by id: facts, route as [latitude, longitude], the wind this hour and its best rideable ' +
    'tailwind window in the next 3 days (or why none); with Pro access, include_timeline adds the hours.',
  inputSchema: GetSegmentInputSchema,
  outputSchema: GetSegmentOutputSchema,
  annotations: READ_ONLY_OPEN_WORLD,
  async run({ segment_id, include_darkness, include_timeline }, context) {
    const segment = await segmentFor(context, segment_id);
    if (!segment) {
      throw new ServiceError('unknown_segment', `No segment has the id "${segment_id}".`, { id: segment_id });
    }
    const [forecast, access] = await Promise.all([
      forecastForSegments(context, [segment]),
      callerAccess(context),
    ]);
    const { pro } = access;
    const report = segmentWindReport(segment, forecast.samples[0] ?? null, {
      includeDarkness: include_darkness,
    });
    // The ensemble is asked only for Pro callers: it is paid per member, and the rest see it locked.
    const ensemble =
      pro && report.bestWindow
        ? await ensembleForPoints(context, [forecastPointOf(segment)], DEFAULT_CHANCE_THRESHOLD_KMH)
        : null;
    // An own segment has no catalog rank (as in the rider tools' answers).
    const facts = isOwnSegment(segment)
      ? { ...segmentFacts(segment), popularity_rank: null }
      : segmentFacts(segment);
    const data: GetSegmentOutput = {
      segment: {
        ...facts,
        aliases: [...segment.aliases],
        ...(segment.maxGradePct === undefined ? {} : { max_grade_pct: segment.maxGradePct }),
        end: toPoint(endOf(segment)),
        compass: compassPoint(facts.bearing_deg),
        polyline: answerPolyline(segment.polyline),
        source: segment.source,
        license: segment.license,
      },
      time_zone: segmentTimeZone(segment),
      wind_now: report.windNow(),
      best_window: ensemble
        ? withChance(
            report.bestWindow,
            legsOf(segment),
            ensemble.hours[0] ?? null,
            DEFAULT_CHANCE_THRESHOLD_KMH,
          )
        : report.bestWindow,
      window_status: report.windowStatus,
      // Pro riders (paid or trial) at the rider address get the timeline when they ask; everyone else
      // sees it locked.
      ...(pro && include_timeline ? { timeline: [...report.timeline()] } : {}),
      ...(ensemble ? { ensemble: ensemble.info } : {}),
      forecast: forecast.info,
      attribution: attributionFor(forecast.info.source, [segment], null),
      locked: pro ? [] : lockedDetails(access.lock),
    };
    return { data, summary: summarizeSegment(data) };
  },
};

/** Most points a segment's route is given in: a discovered climb's hairpins can number hundreds. */
export const ANSWER_POLYLINE_POINTS = 120;

/**
 * The route as an answer gives it: at most {@link ANSWER_POLYLINE_POINTS}
 * points, simplified with a tolerance that doubles from 5 m until it fits
 * (every point kept is a point of the segment, so it stays on the road),
 * to 5 decimals (about a metre).
 */
export function answerPolyline(polyline: readonly LatLon[]): [number, number][] {
  let kept: readonly LatLon[] = polyline;
  for (let toleranceM = 5; kept.length > ANSWER_POLYLINE_POINTS; toleranceM *= 2) {
    kept = simplifyRoute(polyline, toleranceM);
  }
  return kept.map((p) => [roundHalfAway(p.lat, 5), roundHalfAway(p.lon, 5)]);
}
