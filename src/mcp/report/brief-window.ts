import type { z } from 'zod';
import { derivation, derivedResults } from '../../data/forecast/derived-results.ts';
import type { TailwindWindowSchema } from '../schemas/common.ts';
import type { BriefWindowSchema } from '../schemas/find.ts';

type WindowOut = z.infer<typeof TailwindWindowSchema>;
type BriefWindowOut = z.infer<typeof BriefWindowSchema>;

/** A window's brief form: remembered with a remembered window (see `windReport`). */
const BRIEF = derivation<BriefWindowOut>('brief window');

/**
 * A window as a list shows it (`BriefWindowSchema`): its UTC times, the peak
 * and mean tailwind, the temperatures and the flags. A window every answer
 * of the hour set shares gets one frozen brief form (`derived-results.ts`),
 * so a list does not rebuild it per call.
 */
export function briefWindow(window: WindowOut | null): BriefWindowOut | null {
  return window && derivedResults.fromValue(window, BRIEF, briefOf, null);
}

function briefOf(window: WindowOut): BriefWindowOut {
  return Object.freeze({
    start: window.start,
    end: window.end,
    peak_tailwind_kmh: window.peak.tailwind_kmh,
    mean_tailwind_kmh: window.mean_tailwind_kmh,
    min_temperature_c: window.weather.min_temperature_c,
    max_temperature_c: window.weather.max_temperature_c,
    flags: window.flags,
  });
}
