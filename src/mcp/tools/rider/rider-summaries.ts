import { chanceText, ensembleLine } from '../../report/ensemble.ts';
import type { z } from 'zod';
import { localClock, localSpan } from '../../../core/local-time.ts';
import { clockTime } from '../../../core/duration-words.ts';
import { riderTime } from './rider-zone.ts';
import { conditionsText, NO_WINDOW, windowSpan } from '../public-summaries.ts';
import { flagLegend, tailwindFigures, windFigure } from '../../report/weather-words.ts';
import type { TailwindWindowSchema } from '../../schemas/common.ts';
import type {
  GetMyTailwindWindowsOutput,
  GetMyWatchlistOutput,
  WatchEntryOut,
  WatchOut,
  WindowEntry,
} from '../../schemas/rider.ts';

type WindowOut = z.infer<typeof TailwindWindowSchema>;
type Present<T> = { [K in keyof T]-?: Exclude<T[K], undefined> };

const unix = (iso: string): number => Date.parse(iso) / 1000;

function windowText(window: WindowOut): string {
  return (
    `${windowSpan(window)}, ` +
    tailwindFigures(
      window.peak.tailwind_kmh,
      window.mean_tailwind_kmh,
      window.peak.tailwind_kmh_rider_height,
      window.mean_tailwind_kmh_rider_height,
    ) +
    `, peak at ${localClock(unix(window.peak.time), window.time_zone)}; ${conditionsText(window)}`
  );
}

function watchLine(entry: WatchEntryOut): string {
  const name = entry.segment ? entry.segment.name : 'missing from the catalog (unwatch it)';
  const record = entry.record_s === null ? 'no record' : `record ${clockTime(entry.record_s)}`;
  const alerts =
    entry.alerts_cannot_fire !== undefined
      ? `alerts cannot fire. ${entry.alerts_cannot_fire}`
      : entry.alerts_on
        ? `alerts from a peak tailwind of ${windFigure(entry.threshold_kmh)}`
        : 'alerts off';
  return `- ${name} [${entry.segment_id}]: ${record}, ${alerts}`;
}

type WatchlistData = Present<Omit<GetMyWatchlistOutput, 'usage'>>;

/** The watchlist's text; the trial's end in the rider's zone (`riderTime`) when it is known. */
export function summarizeWatchlist(data: WatchlistData, timeZone?: string): string {
  const a = data.access;
  const access = a.in_trial
    ? `Pro trial until ${a.trial_ends_at === null ? 'its end' : riderTime(unix(a.trial_ends_at), timeZone)}`
    : a.pro_access
      ? 'Pro'
      : 'Free (some details locked)';
  const head =
    data.watchlist.length === 0
      ? `No watched segments yet (${access}). Find some with find_tailwind_segments, then watch_segment.`
      : `${data.watchlist.length} watched segment(s) (${access}):`;
  const alerts =
    data.recent_alerts.length === 0
      ? []
      : [
          `Recent alerts: ${data.recent_alerts
            .map(
              (x) =>
                `${x.segment_name ?? x.segment_id} ${localSpan(unix(x.window_start), unix(x.window_end), x.time_zone)} (peak tailwind ${windFigure(x.peak_tailwind_kmh)})`,
            )
            .join('; ')}`,
        ];
  return [head, ...data.watchlist.map(watchLine), ...alerts].join('\n');
}

function estimateText(entry: WindowEntry): string {
  const e = entry.estimate;
  if (e) {
    const verdict = e.gain_s >= 0 ? `${e.gain_s} s faster than` : `${-e.gain_s} s slower than`;
    return `; est. ${clockTime(e.estimated_s)} at ${e.power_w} W, ${verdict} the record ${clockTime(e.record_s)}`;
  }
  if (entry.estimate_status === 'record_too_slow') return '; record too slow to back out a power';
  return '';
}

function windowsLine(entry: WindowEntry): string {
  if (entry.segment_name === null) return `- [${entry.segment_id}]: missing from the catalog (unwatch it)`;
  const window = entry.best_window
    ? `best ${windowText(entry.best_window)}${chanceText(entry.best_window.chance)}`
    : (NO_WINDOW[entry.window_status] ?? entry.window_status);
  return `- ${entry.segment_name} [${entry.segment_id}]: ${window}${estimateText(entry)}`;
}

type WindowsData = Present<Omit<GetMyTailwindWindowsOutput, 'usage' | 'ensemble'>> &
  Pick<GetMyTailwindWindowsOutput, 'ensemble'>;

export function summarizeWindows(data: WindowsData): string {
  if (data.segments.length === 0) {
    return 'No watched segments yet. Find some with find_tailwind_segments, then watch_segment (with record_s for record estimates).';
  }
  const note = data.forecast?.note ? `\nNote: ${data.forecast.note}` : '';
  return (
    `Best tailwind windows on ${data.segments.length} watched segment(s), next 3 days ` +
    `(estimates for a model rider: ${data.model.mass_kg} kg, CdA ${data.model.cda_m2} m²):\n` +
    data.segments.map(windowsLine).join('\n') +
    flagLegend(data.segments.flatMap((entry) => entry.best_window?.flags ?? [])) +
    note +
    ensembleLine(data.ensemble)
  );
}

export function summarizeWatch(data: {
  watched: WatchOut;
  created: boolean;
  watchlist_size: number;
}): string {
  const w = data.watched;
  const what = data.created ? 'Now watching' : 'Already watching (settings updated)';
  const record = w.record_s === null ? 'no record set' : `record ${clockTime(w.record_s)}`;
  return `${what} ${w.segment_name ?? w.segment_id} [${w.segment_id}]: alerts from a peak tailwind of ${windFigure(w.threshold_kmh)}, ${record}. ${data.watchlist_size} segment(s) watched.`;
}
