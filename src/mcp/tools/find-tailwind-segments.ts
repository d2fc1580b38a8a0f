import { resolvePlace } from '../place.ts';
import { attributionFor, forecastForSegments } from '../report/forecast.ts';
import { lockedFeature } from '../report/pro-details.ts';
import { segmentFacts } from '../report/segment-facts.ts';
import { segmentWindReport } from '../report/segment-report.ts';
import {
  FindTailwindSegmentsInputSchema,
  FindTailwindSegmentsOutputSchema,
  type FindTailwindSegmentsOutput,
} from '../schemas/find.ts';
import { READ_ONLY_OPEN_WORLD, type ToolDefinition } from '../tool.ts';
import { callerHasProAccess } from './rider/rider-context.ts';
import { summarizeFind } from './public-summaries.ts';

/** Public tool: the most-ridden segments near a place, each with its best tailwind window. */
export const findTailwindSegments: ToolDefinition<
  typeof FindTailwindSegmentsInputSchema,
  typeof FindTailwindSegmentsOutputSchema
> = {
  name: 'find_tailwind_segments',
  title: 'Find segments with a tailwind',
  description:
    'Finds the most-ridden road segments and climbs near a place and, for each, the best tailwind window ' +
    'in the next 3 days (start, end, peak and mean tailwind in km/h, wind and gusts at the peak). ' +
    'Give a place name (town, city or segment; add ", CC" to pick a country) or latitude and longitude. ' +
    'Use get_segment with a returned id for the route and the wind on it now. ' +
    'If forecast.source is "demo" the weather is synthetic: say so to the user.',
  inputSchema: FindTailwindSegmentsInputSchema,
  outputSchema: FindTailwindSegmentsOutputSchema,
  annotations: { ...READ_ONLY_OPEN_WORLD, title: 'Find segments with a tailwind' },
  async run(input, context) {
    const [{ place, credit }, pro] = await Promise.all([
      resolvePlace(input, context),
      callerHasProAccess(context),
    ]);
    const found = context.catalog.near(
      { lat: place.latitude, lon: place.longitude },
      input.radius_m,
      input.limit,
    );
    const segments = found.map((f) => f.segment);
    const forecast = segments.length > 0 ? await forecastForSegments(context, segments) : null;
    const data: FindTailwindSegmentsOutput = {
      place,
      radius_m: input.radius_m,
      segments: found.map(({ segment, distanceM }, i) => {
        const report = segmentWindReport(segment, forecast?.samples[i] ?? null);
        return {
          ...segmentFacts(segment),
          distance_from_place_m: distanceM,
          best_window: report.bestWindow,
          window_status: report.windowStatus,
        };
      }),
      forecast: forecast?.info ?? null,
      attribution: attributionFor(forecast?.info.source ?? null, segments, credit),
      // The timeline lives in get_segment; a Pro rider is told nothing is withheld.
      locked: pro ? [] : [lockedFeature('hourly_timeline', context.urls)],
    };
    return { data, summary: summarizeFind(data) };
  },
};
