/**
 * One tailwind alert in words, shared by the email and the push
 * notification so both say the same thing: the segment, the window on the
 * segment's own clock ("Sat 28 Nov 08:00–10:00 CET"), the strongest
 * tailwind, and the chance where the watch asked for one. Names arrive as
 * the catalog or the rider wrote them; each channel escapes them for its own
 * format (`alert-mail.ts`).
 */
import { localIso, localSpan } from '../core/local-time.ts';
import { isOwnSegmentId } from '../core/rider-rules.ts';
import type { AlertRecord } from '../store/repositories/alerts.ts';

/** Longest segment name put in a subject or a notification title. */
const NAME_MAX = 80;

export interface AlertWords {
  readonly segmentName: string;
  /** "Tailwind on Alpe d'Huez". */
  readonly title: string;
  /** "Sat 28 Nov 08:00–10:00 CET". */
  readonly when: string;
  /** "up to 18.5 km/h of tailwind" (and the chance). */
  readonly strength: string;
  readonly timeZone: string;
  readonly windowStartLocal: string;
  readonly windowEndLocal: string;
  /** The segment's page, or the settings page for a rider's own segment (which has no public page). */
  readonly link: string;
}

function shortened(name: string): string {
  const one = name.replace(/\s+/g, ' ').trim();
  return one.length > NAME_MAX ? `${one.slice(0, NAME_MAX - 1)}…` : one;
}

export function alertWords(
  alert: AlertRecord,
  segment: { readonly name: string; readonly timeZone: string } | undefined,
  origin: string,
): AlertWords {
  const timeZone = segment?.timeZone ?? 'UTC';
  const segmentName = shortened(segment?.name ?? alert.segmentId);
  const chance =
    alert.chancePct == null ? '' : ` (${alert.chancePct}% of forecast runs reach your threshold)`;
  const link = isOwnSegmentId(alert.segmentId)
    ? `${origin}/settings`
    : `${origin}/segments/${encodeURIComponent(alert.segmentId)}`;
  return {
    segmentName,
    title: `Tailwind on ${segmentName}`,
    when: localSpan(alert.windowStart, alert.windowEnd, timeZone),
    strength: `up to ${alert.peakTailwindKmh.toFixed(1)} km/h of tailwind${chance}`,
    timeZone,
    windowStartLocal: localIso(alert.windowStart, timeZone),
    windowEndLocal: localIso(alert.windowEnd, timeZone),
    link,
  };
}
