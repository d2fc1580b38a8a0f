import { listedWinds, placeSegments } from '../../service/segments-near.ts';
import type { WindOptions } from '../../data/segments/segment-window.ts';
import type { ToolContext } from '../context.ts';
import { attributionFor, forecastForPoints } from '../report/forecast.ts';
import { headingWindows } from '../report/headings.ts';
import { briefWindow, judgedWindReport, listedFacts } from '../report/segment-report.ts';
import { daylightDays } from '../report/place-daylight.ts';
import { ensembleForPoints, withChance } from '../report/ensemble.ts';
import { DEFAULT_CHANCE_THRESHOLD_KMH } from '../../core/ensemble-chance.ts';
import { legsOf } from '../../data/segments/segment-geometry.ts';
import {
  FindTailwindSegmentsInputSchema,
  FindTailwindSegmentsOutputSchema,
  type FindTailwindSegmentsOutput,
} from '../schemas/find.ts';
import { READ_ONLY_OPEN_WORLD, type ToolDefinition } from '../tool.ts';
import { callerAccess } from '../report/pro-details.ts';
import { summarizeFind } from './public-summaries.ts';
import { ANSWER_BUDGET } from '../size-budgets.ts';

/** Public tool: the best-known segments near a place, each with its best tailwind window. */
export const findTailwindSegments: ToolDefinition<
  typeof FindTailwindSegmentsInputSchema,
  typeof FindTailwindSegmentsOutputSchema
> = {
  name: 'find_tailwind_segments',
  title: 'Find segments with a tailwind',
  description:
    'Start here: the best-known climbs and roads near a place (name or coordinates), each with its best ' +
    'rideable tailwind window in the next 3 days or why none. With no segment in radius_m: the nearest ' +
    'beyond it and 8 compass HEADINGS (not segments). Then get_segment for one id.',
  inputSchema: FindTailwindSegmentsInputSchema,
  outputSchema: FindTailwindSegmentsOutputSchema,
  annotations: READ_ONLY_OPEN_WORLD,
  async run(input, context) {
    // The use case finds the place and the segments around it (its errors are worded in `tool.ts`);
    // the forecast and, for Pro callers, the ensemble are then read side by side.
    const [{ place, credit, near, timeZone }, access] = await Promise.all([
      placeSegments(input, { radiusM: input.radius_m, limit: input.limit }, context),
      callerAccess(context),
    ]);
    const { pro } = access;
    const options: WindOptions = { includeDarkness: input.include_darkness };
    const { point, radiusM, found, beyond } = near;
    const segments = near.listed.map((f) => f.segment);
    // One forecast request: the listed segments, plus the place itself when headings are due.
    // The ensemble is asked for Pro callers only, in one batch with the deterministic request's points.
    const [forecast, ensemble] = await Promise.all([
      near.forecastPoints.length > 0 ? forecastForPoints(context, near.forecastPoints) : null,
      pro && segments.length > 0
        ? ensembleForPoints(
            context,
            near.forecastPoints.slice(0, segments.length),
            DEFAULT_CHANCE_THRESHOLD_KMH,
          )
        : null,
    ]);
    // The listed segments are those within the radius or, with none there, those beyond it.
    const listed = listedWinds(near, forecast?.samples ?? [], options).map(
      ({ segment, distanceM, location, wind }, i) => {
        const report = judgedWindReport(wind, location.timeZone);
        const window = briefWindow(report.bestWindow);
        const hours = ensemble?.hours[i] ?? null;
        return {
          ...listedFacts(segment),
          distance_from_place_m: distanceM,
          // Said once for the answer; a segment across a zone border says its own.
          ...(location.timeZone === timeZone ? {} : { time_zone: location.timeZone }),
          best_window: ensemble
            ? withChance(window, legsOf(segment), hours, DEFAULT_CHANCE_THRESHOLD_KMH)
            : window,
          window_status: report.windowStatus,
        };
      },
    );
    const data: FindTailwindSegmentsOutput = {
      place,
      time_zone: timeZone,
      daylight: daylightDays(point, context.now()),
      radius_m: radiusM,
      segments: found.length > 0 ? listed : [],
      nearest_beyond_radius: beyond && listed,
      headings: beyond && headingWindows(point, forecast?.samples[segments.length] ?? null, options),
      add_your_own: beyond && addYourOwn(context),
      ...(near.mapping === null ? {} : { mapping: near.mapping }),
      ...(ensemble ? { ensemble: ensemble.info } : {}),
      forecast: forecast?.info ?? null,
      attribution: attributionFor(forecast?.info.source ?? null, segments, credit),
      // Only the chance is withheld here: no caller gets a timeline from a list (get_segment has it).
      locked: pro ? [] : [access.lock('tailwind_chance')],
    };
    return fitFindAnswer(data, summarizeFind);
  },
};

/**
 * What a rider can do about a place the catalog does not cover, said
 * plainly: at the rider address the tools that do it now, elsewhere where
 * to find them.
 */
export function addYourOwn(context: Pick<ToolContext, 'caller' | 'urls'>): string {
  return context.caller.kind === 'rider'
    ? 'No catalog segment here yet: add_my_segment keeps a road you ride (watched, with alerts); ' +
        'get_route_wind judges a whole ride from here. Meanwhile, the headings say which way to ride out.'
    : `No catalog segment here yet: get_route_wind judges a whole ride from here; at the rider address ` +
        `${context.urls.mcp}/rider, add_my_segment keeps a road you ride (watched, with alerts). ` +
        'Meanwhile, the headings say which way to ride out.';
}

/**
 * What the JSON-RPC envelope (and SSE framing) adds around an answer's two
 * blocks, with room to spare: 115 bytes in the 2025 protocol and 234 in
 * 2026-07-28, measured as served; tests/mcp/size-budgets.test.ts holds the
 * whole answer to its budget.
 */
const ENVELOPE_BYTES = 300;

const MIN_ALTERNATIVES = 2;
const MIN_BEYOND = 1;

const cuttable = (data: FindTailwindSegmentsOutput) => ({
  alternatives: data.place.alternatives.length > MIN_ALTERNATIVES,
  beyond: (data.nearest_beyond_radius?.length ?? 0) > MIN_BEYOND,
});

function trimmable(data: FindTailwindSegmentsOutput): boolean {
  const can = cuttable(data);
  return can.alternatives || can.beyond;
}

/**
 * One item less: the last alternative or the farthest segment beyond the
 * radius. An ambiguous name keeps its alternatives longest, since the
 * assistant is to ask which place is meant.
 */
function trimmed(data: FindTailwindSegmentsOutput): FindTailwindSegmentsOutput {
  const can = cuttable(data);
  const cutBeyond = can.beyond && (data.place.ambiguous || !can.alternatives);
  if (cutBeyond) return { ...data, nearest_beyond_radius: data.nearest_beyond_radius?.slice(0, -1) ?? null };
  return { ...data, place: { ...data.place, alternatives: data.place.alternatives.slice(0, -1) } };
}

/** The summary and the data as the assistant receives them, less the envelope. */
function answerBytes(data: FindTailwindSegmentsOutput, summary: string): number {
  return Buffer.byteLength(JSON.stringify(data)) + Buffer.byteLength(JSON.stringify(summary));
}

/**
 * Keeps a find answer within its budget when a busy place adds to it: a
 * name shared by many places (its alternatives) with no segment near (the
 * nearest beyond the radius and the eight headings) can pass 8 KB. The
 * least useful parts go first, one item at a time (see `trimmed`):
 * alternatives beyond the first two (the assistant can still ask "Name,
 * CC") and the farthest of the nearest segments beyond the radius, down to
 * one. The headings and the segments in the radius are never cut. `summarize` builds the text from
 * the data, so text and data stay in step. `limit` is in bytes of the two
 * blocks (the budget less the envelope).
 */
export function fitFindAnswer(
  data: FindTailwindSegmentsOutput,
  summarize: (data: FindTailwindSegmentsOutput) => string,
  limit = ANSWER_BUDGET.find_tailwind_segments - ENVELOPE_BYTES,
): { data: FindTailwindSegmentsOutput; summary: string } {
  let fitted = data;
  let summary = summarize(fitted);
  // Most answers have nothing to cut (few alternatives, segments in the radius): they are not measured.
  while (trimmable(fitted) && answerBytes(fitted, summary) > limit) {
    fitted = trimmed(fitted);
    summary = summarize(fitted);
  }
  return { data: fitted, summary };
}
