import { localDateTime } from '../../core/local-time.ts';
import type { LatLon } from '../../core/bearing.ts';
import {
  chanceWord,
  windowSpread,
  type EnsembleSample,
  type TailwindSpread,
} from '../../core/ensemble-chance.ts';
import type { Leg } from '../../core/segment-wind.ts';
import { isoTime } from '../../core/time.ts';
import { ForecastError } from '../../data/forecast/types.ts';
import type { EnsembleSeries } from '../../data/forecast/ensemble-types.ts';
import type { z } from 'zod';
import type { ToolContext } from '../context.ts';
import type { ChanceSchema, EnsembleInfoSchema } from '../schemas/common.ts';

type ChanceOut = z.infer<typeof ChanceSchema>;
type EnsembleInfo = z.infer<typeof EnsembleInfoSchema>;

/** The answer's ensemble object and, per point asked, its hours (null = none there). */
export interface PointsEnsemble {
  readonly info: EnsembleInfo;
  readonly hours: readonly (readonly EnsembleSample[] | null)[];
  readonly thresholdKmh: number | null;
}

const SPREAD = "p10–p90 = the members' spread of the mean tailwind.";
const READING = `Chances are uncalibrated: read 80% as "likely", not 4 in 5; ${SPREAD}`;
const DEMO = 'Synthetic DEMO members, not real weather: tell the user.';

/**
 * The ensemble for some points, for one answer: never throws. No ensemble
 * configured → null (the answer has no chance fields at all); the ensemble
 * service failing → an info object whose note says so and no hours, so every
 * window's chance is null: absent, never guessed, and the deterministic
 * answer stands.
 */
export async function ensembleForPoints(
  context: ToolContext,
  points: readonly LatLon[],
  thresholdKmh: number | null,
): Promise<PointsEnsemble | null> {
  const ensemble = context.ensemble;
  if (!ensemble) return null;
  const base = { source: ensemble.id, model: ensemble.model, min_tailwind_kmh: thresholdKmh };
  let series: readonly (EnsembleSeries | null)[];
  try {
    series = await ensemble.hourly(points);
  } catch (error) {
    if (!(error instanceof ForecastError)) throw error;
    const note = `${error.message} No chance of a tailwind in this answer; the forecast above stands.`;
    return {
      info: { ...base, members: ensemble.members, run_at: null, stale: false, note },
      hours: points.map(() => null),
      thresholdKmh,
    };
  }
  const present = series.filter((s): s is EnsembleSeries => s !== null);
  const first = present[0];
  const runs = present.map((s) => s.runAt).filter((r): r is number => r !== null);
  const stale = present.some((s) => s.stale);
  const note = [
    READING,
    ensemble.id === 'demo' ? DEMO : null,
    stale ? 'The ensemble service failed; these members are from an earlier run.' : null,
  ];
  return {
    info: {
      ...base,
      members: first?.members ?? ensemble.members,
      run_at: runs.length > 0 ? isoTime(Math.min(...runs)) : null,
      stale,
      note: note.filter((n) => n !== null).join(' '),
    },
    hours: series.map((s) => s?.hours ?? null),
    thresholdKmh,
  };
}

/** A spread in output shape. */
export function chanceOut(spread: TailwindSpread | null): ChanceOut {
  if (!spread) return null;
  return {
    pct: Math.round(spread.chance * 100),
    words: chanceWord(spread.chance),
    p10_kmh: spread.p10Kmh,
    p50_kmh: spread.p50Kmh,
    p90_kmh: spread.p90Kmh,
  };
}

/**
 * A window with its chance, as a NEW object: the window may be the frozen
 * one every answer of the hour shares (`windReport`).
 */
export function withChance<W extends { readonly start: string; readonly end: string }>(
  window: W | null,
  legs: readonly Leg[],
  hours: readonly EnsembleSample[] | null,
  thresholdKmh: number,
): (W & { chance: ChanceOut }) | null {
  if (!window) return null;
  const span = { start: Date.parse(window.start) / 1000, end: Date.parse(window.end) / 1000 };
  return { ...window, chance: chanceOut(hours && windowSpread(legs, hours, span, thresholdKmh)) };
}

/** "; 78% of ensemble members (likely) give ≥ 5 km/h mean tailwind, spread 2.1 to 14 km/h". */
export function chanceText(chance: ChanceOut | undefined): string {
  if (chance === undefined) return '';
  if (chance === null) return '; tailwind chance: none (ensemble members missing)';
  return (
    `; tailwind chance ${chance.pct}% (${chance.words}), members' mean tailwind ${chance.p10_kmh} to ` +
    `${chance.p90_kmh} km/h at 10 m (p10–p90)`
  );
}

/**
 * "; tailwind chance 78% (likely)": a list item's chance, the figure that
 * decides; the members' spread stays in the data (and in get_segment's text).
 */
export function chanceBrief(chance: ChanceOut | undefined): string {
  if (chance === undefined) return '';
  if (chance === null) return '; tailwind chance: none (ensemble members missing)';
  return `; tailwind chance ${chance.pct}% (${chance.words})`;
}

/**
 * The answer's one line on where its chances come from and how to read them;
 * without `spread` (a list, whose text gives no p10–p90), the note's words
 * on the spread are left to the data.
 */
export function ensembleLine(info: EnsembleInfo | undefined, { spread = true } = {}): string {
  if (info === undefined) return '';
  if (info === null) return '';
  const note = spread ? info.note : info.note.replace(`; ${SPREAD}`, '.');
  // The model run is the forecaster's clock, not the rider's: said in UTC, in the one time format.
  const run = info.run_at ? ` (run ${localDateTime(Date.parse(info.run_at) / 1000, 'UTC')})` : '';
  if (info.min_tailwind_kmh === null)
    return `\nChances from ${info.members} ${info.model} members${run}: ${note}`;
  return (
    `\nTailwind chance: the share of ${info.members} ${info.model} members${run} with a mean tailwind of ` +
    `≥ ${info.min_tailwind_kmh} km/h at 10 m over the window. ${note}`
  );
}
