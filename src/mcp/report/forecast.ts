import type { ForecastHourSet } from '../../data/forecast/hour-set.ts';
import type { LatLon } from '../../core/bearing.ts';
import { FORECAST_HOURS } from '../../data/forecast/types.ts';
import { forecastOrThrow, type JudgedForecast } from '../../service/segment-forecast.ts';
import type { Segment } from '../../data/segments/types.ts';
import type { z } from 'zod';
import type { ToolContext } from '../context.ts';
import type { ForecastInfoSchema } from '../schemas/common.ts';
import { forecastPointOf } from '../../data/segments/segment-geometry.ts';
import { isoTime } from '../../core/time.ts';

type ForecastInfo = z.infer<typeof ForecastInfoSchema>;

export interface SegmentsForecast {
  readonly info: ForecastInfo;
  /** The next 72 hours for each segment, named, in the order given; null = no (usable) data there. */
  readonly samples: readonly (ForecastHourSet | null)[];
}

const unusableNote = (hours: number): string =>
  `${hours} forecast hour(s) held impossible or missing values and were left out; windows are judged on the rest.`;

const DEMO_NOTE = 'Synthetic demo data: NOT real weather. Tell the user; do not plan a ride on it.';
const STALE_NOTE = 'The weather service did not answer; this is an older cached forecast.';

/**
 * Reads the forecast for several segments in one call to the source (which
 * batches and caches), keeps the hours from the current one to 72 h ahead
 * (`forecastOrThrow` of `src/service`, which the REST data endpoints read
 * too); a source failure is the service's `forecast_*` error, which the tool
 * mapper (`tool.ts`) words for the assistant.
 */
export async function forecastForSegments(
  context: ToolContext,
  segments: readonly Segment[],
): Promise<SegmentsForecast> {
  return forecastForPoints(context, segments.map(forecastPointOf));
}

/**
 * The same for bare points, in the order given. A point whose series has
 * fewer than `MIN_USABLE_HOURS` usable hours gets no samples; when no
 * point has enough, the call is an error that says why, so a broken
 * forecast never becomes a confident "no tailwind".
 */
export async function forecastForPoints(
  context: ToolContext,
  points: readonly LatLon[],
): Promise<SegmentsForecast> {
  return forecastInfo(context, await forecastOrThrow(context, points));
}

/** The judged forecast as the tools give it: its source, issue, notes, and the hours per point. */
export function forecastInfo(
  context: Pick<ToolContext, 'forecast'>,
  judged: JudgedForecast,
): SegmentsForecast {
  const { stale, unusable } = judged;
  const demo = context.forecast.id === 'demo';
  const notes = [demo ? DEMO_NOTE : stale ? STALE_NOTE : null, unusable > 0 ? unusableNote(unusable) : null];
  const note = notes.filter((n) => n !== null).join(' ');
  return {
    info: {
      source: context.forecast.id,
      issued_at: isoTime(judged.issuedAt),
      horizon_hours: FORECAST_HOURS,
      stale,
      note: note === '' ? null : note,
      unusable_hours: unusable,
    },
    samples: judged.sets,
  };
}

export { attributionFor } from '../../service/answer-words.ts';
