import type { z } from 'zod';
import type { TailwindWindowSchema } from '../schemas/common.ts';
import type { BriefWindowSchema } from '../schemas/find.ts';

type WindowOut = z.infer<typeof TailwindWindowSchema>;
type BriefWindowOut = z.infer<typeof BriefWindowSchema>;

/** Brief forms of frozen windows, shared like the windows themselves (see `windReport`). */
const briefs = new WeakMap<WindowOut, BriefWindowOut>();

/**
 * A window as a list shows it (`BriefWindowSchema`): its UTC times, the peak
 * and mean tailwind, the temperatures and the flags. A frozen window
 * (one every answer of the forecast hour shares) gets one frozen brief form,
 * so a list does not rebuild it per call.
 */
export function briefWindow(window: WindowOut | null): BriefWindowOut | null {
  if (!window) return null;
  const known = briefs.get(window);
  if (known) return known;
  const brief: BriefWindowOut = {
    start: window.start,
    end: window.end,
    peak_tailwind_kmh: window.peak.tailwind_kmh,
    mean_tailwind_kmh: window.mean_tailwind_kmh,
    min_temperature_c: window.weather.min_temperature_c,
    max_temperature_c: window.weather.max_temperature_c,
    flags: window.flags,
  };
  if (!Object.isFrozen(window)) return brief;
  briefs.set(window, Object.freeze(brief));
  return brief;
}
