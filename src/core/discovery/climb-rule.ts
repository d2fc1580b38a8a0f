/**
 * The climb rule of segment discovery: which stretches of a road's elevation
 * profile are climbs. Pure arithmetic over arrays, no geometry: the caller
 * measures the distances along the road and samples the heights (a DEM such
 * as Copernicus GLO-90 or SRTM 3″), and reverses the profile for the other
 * direction ({@link reverseProfile}).
 *
 * Written here rather than taken from a library: the published climb
 * detectors (Garmin ClimbPro, Strava, the cycling GPX tools) are closed or
 * built into apps, and the rule is a few loops that must say exactly what
 * they accept.
 */

/**
 * A road's elevation profile: cumulative distance along the road, metres,
 * non-decreasing (from 0 as the caller measures it), and the height at each
 * sample, metres. Both arrays have one entry per sample.
 */
export interface Profile {
  readonly distanceM: readonly number[];
  readonly elevationM: readonly number[];
}

/** What a stretch of profile must reach to be a climb; see {@link CLIMB_RULE} for the defaults and why. */
export interface ClimbRule {
  /** Shortest climb, metres along the road. */
  readonly minLengthM: number;
  /** Least net rise (top minus bottom), metres. */
  readonly minGainM: number;
  /** Least average grade, net rise over length, percent. */
  readonly minAverageGradePct: number;
  /** A descent inside a climb smaller than this does not end it, however little it has gained. Metres. */
  readonly dipToleranceM: number;
  /** A descent smaller than this share of the height a climb has gained so far does not end it either. */
  readonly dipShare: number;
  /** …up to this many metres: a descent this big ends a climb whatever it has gained. */
  readonly maxDipM: number;
  /** Width of the moving average the profile is smoothed with before anything is measured, metres. */
  readonly smoothingM: number;
}

/**
 * The defaults:
 * - 1,000 m and 50 m net rise at 3 %: shorter or lower rises are ridden in
 *   momentum and are not where a rider looks for (or fears) the wind; 3 % is
 *   where a road stops feeling flat (the lowest grade the climb
 *   categorisations of the big tours and of bike computers start at).
 * - Dips in proportion to the climb: a descent ends a climb only when it is
 *   at least 10 m and at least a fifth of the height gained so far (capped
 *   at 100 m). A short drop (a bridge, a village square) never ends a climb;
 *   after 430 m of climbing, the 33 m the road to Coll d'Ordino loses past
 *   the Collet de Montaup does not either, as no guide splits it there. Bike
 *   computers merge climbs across short descents the same way. 10 m is above
 *   the vertical noise that survives smoothing, so noise alone never joins
 *   or splits climbs, and a descent of 100 m or more is a real one whatever
 *   came before.
 * - 150 m smoothing: GLO-90 and SRTM 3″ heights carry several metres of noise
 *   per 90 m cell (and step at cell edges), so grades over shorter spans are
 *   noise; averaging over about two cells keeps a 1 km climb's shape while
 *   the noise of its grade drops to a fraction of a percent.
 */
export const CLIMB_RULE: ClimbRule = {
  minLengthM: 1_000,
  minGainM: 50,
  minAverageGradePct: 3,
  dipToleranceM: 10,
  dipShare: 0.2,
  maxDipM: 100,
  smoothingM: 150,
};

/**
 * Shortest run a maximum grade is taken over, metres. Road signs quote a
 * steepest 100 m, but a 90 m elevation model cannot resolve one on a
 * mountain road: across a hairpin, two samples 100 m apart along the road
 * read the hillside's slope, not the road's. Over 100 m the Andorra seed's
 * climbs read 20–25 % (Col d'Ordino from Ordino 22 %, published about 10 %);
 * over 500 m they read 8–16 % (Col d'Ordino 10.6 %), which agrees with the
 * published figures, so the figure given is the steepest 500 m.
 */
export const MAX_GRADE_RUN_M = 500;

/**
 * One climb, as indices into the profile given to {@link findClimbs} and its
 * figures measured on the smoothed profile. Figures are unrounded, so
 * `averageGradePct` is exactly `netRiseM / lengthM * 100`; the caller rounds
 * for display (metres to 1 m, grades to 0.1 %). The smoothing rounds a
 * climb's foot and top, so its net rise is short of a sharp-cornered ramp's
 * by about grade × smoothing / 4 (2 m for 150 m at 6 %), well under the
 * DEM's own error.
 */
export interface ClimbSpan {
  /** Index of the climb's foot. */
  readonly startIndex: number;
  /** Index of the climb's top. */
  readonly endIndex: number;
  /** Distance from foot to top along the road, metres. */
  readonly lengthM: number;
  /** Total ascent within the span (every rise counted, dips not subtracted), metres. */
  readonly gainM: number;
  /** Top minus foot, metres. */
  readonly netRiseM: number;
  /** `netRiseM / lengthM * 100`. */
  readonly averageGradePct: number;
  /** Steepest average grade over any run of max(100 m, smoothing) within the span (the span's average when it is shorter). */
  readonly maxGradePct: number;
}

function at(values: readonly number[], index: number): number {
  return values[index] ?? Number.NaN;
}

/** Throws a RangeError naming what is wrong with a profile; the caller's data, so a clear message. */
function checkProfile(profile: Profile): void {
  const { distanceM, elevationM } = profile;
  if (distanceM.length !== elevationM.length) {
    throw new RangeError(
      `A profile needs one elevation per distance: got ${distanceM.length} distances and ${elevationM.length} elevations.`,
    );
  }
  for (let i = 0; i < distanceM.length; i++) {
    if (!Number.isFinite(at(distanceM, i)) || !Number.isFinite(at(elevationM, i))) {
      throw new RangeError(
        `A profile's distances and elevations must be finite numbers (sample ${i} is not).`,
      );
    }
    if (i > 0 && at(distanceM, i) < at(distanceM, i - 1)) {
      throw new RangeError(
        `A profile's distances must not decrease (sample ${i} is before sample ${i - 1}).`,
      );
    }
  }
}

function checkRule(rule: ClimbRule): void {
  for (const [name, value] of Object.entries(rule)) {
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      throw new RangeError(
        `The climb rule's ${name} must be a finite number of at least 0 (got ${String(value)}).`,
      );
    }
  }
}

/** Largest index whose distance is at most `x` (0 when `x` is before the start). */
function sampleAtOrBefore(distanceM: readonly number[], x: number): number {
  let low = 0;
  let high = distanceM.length - 1;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (at(distanceM, mid) <= x) low = mid;
    else high = mid - 1;
  }
  return low;
}

/** Height at distance `x`, the profile taken as straight lines between samples. */
function heightAt(profile: Profile, x: number): number {
  const { distanceM, elevationM } = profile;
  const k = sampleAtOrBefore(distanceM, x);
  if (k >= distanceM.length - 1) return at(elevationM, k);
  const d0 = at(distanceM, k);
  const d1 = at(distanceM, k + 1);
  if (d1 <= d0) return at(elevationM, k + 1);
  const t = Math.min(1, Math.max(0, (x - d0) / (d1 - d0)));
  return at(elevationM, k) + t * (at(elevationM, k + 1) - at(elevationM, k));
}

/**
 * Smooths a profile with a moving average over `windowM` metres of road,
 * weighted by distance: the mean of the profile (straight lines between
 * samples) over a window centred on each sample, so uneven sampling does not
 * tilt it. Near the ends the window shrinks symmetrically to fit, so both
 * endpoints keep their own height and a straight ramp comes out unchanged
 * (a lopsided window would pull a summit at the profile's end down). Same
 * distances, same length; `windowM` 0 returns the heights as they are.
 */
export function smoothProfile(profile: Profile, windowM: number): Profile {
  checkProfile(profile);
  if (!Number.isFinite(windowM) || windowM < 0) {
    throw new RangeError(
      `The smoothing window must be a finite number of metres, at least 0 (got ${windowM}).`,
    );
  }
  const { distanceM, elevationM } = profile;
  const n = distanceM.length;
  // integral[k]: area under the profile from the first sample to sample k.
  const integral = [0];
  for (let k = 1; k < n; k++) {
    const width = at(distanceM, k) - at(distanceM, k - 1);
    integral.push(at(integral, k - 1) + (width * (at(elevationM, k - 1) + at(elevationM, k))) / 2);
  }
  const areaTo = (x: number): number => {
    const k = sampleAtOrBefore(distanceM, x);
    return at(integral, k) + ((x - at(distanceM, k)) * (at(elevationM, k) + heightAt(profile, x))) / 2;
  };
  const first = at(distanceM, 0);
  const last = at(distanceM, n - 1);
  const smoothed = distanceM.map((d, i) => {
    const half = Math.min(windowM / 2, d - first, last - d);
    if (!(half > 0)) return at(elevationM, i);
    return (areaTo(d + half) - areaTo(d - half)) / (2 * half);
  });
  return { distanceM: [...distanceM], elevationM: smoothed };
}

/**
 * The same road ridden the other way: samples in reverse order, distances
 * measured from the other end (so again from 0 and non-decreasing). Climbs
 * found on it are the descents of the original; index `i` of the reversed
 * profile is index `length - 1 - i` of the original.
 */
export function reverseProfile(profile: Profile): Profile {
  checkProfile(profile);
  const { distanceM, elevationM } = profile;
  const last = at(distanceM, distanceM.length - 1);
  return {
    distanceM: distanceM.map((_, i) => last - at(distanceM, distanceM.length - 1 - i)),
    elevationM: [...elevationM].reverse(),
  };
}

/**
 * Maximal ascents as [foot, top] index pairs, by hysteresis: an ascent runs
 * from a low to the highest point reached before the road drops by the dip
 * tolerance (and by more than nothing, so a flat step never ends one), and
 * the next starts at the lowest point reached before the road rises by it
 * again. The last ascent may end at the profile's end (a summit road).
 */
function ascents(elevationM: readonly number[], rule: ClimbRule): [number, number][] {
  const found: [number, number][] = [];
  const tolerance = (gained: number) =>
    Math.max(rule.dipToleranceM, Math.min(rule.maxDipM, rule.dipShare * gained));
  const ends = (from: number, to: number, gained: number): boolean =>
    from - to > 0 && from - to >= tolerance(gained);
  let low = 0;
  let high = 0;
  let climbing = true;
  for (let i = 1; i < elevationM.length; i++) {
    const e = at(elevationM, i);
    if (climbing) {
      if (e > at(elevationM, high)) high = i;
      else if (ends(at(elevationM, high), e, at(elevationM, high) - at(elevationM, low))) {
        found.push([low, high]);
        climbing = false;
        low = i;
      }
    } else if (e <= at(elevationM, low)) low = i;
    else if (ends(e, at(elevationM, low), 0)) {
      climbing = true;
      high = i;
    }
  }
  if (climbing) found.push([low, high]);
  return found.filter(([foot, top]) => top > foot);
}

/**
 * Measures span [s, e] of a smoothed profile: the one definition of a
 * segment's length, gain, grades and steepest run, for climbs and for the
 * flat and rolling stretches alike.
 */
export function measureSpan(smooth: Profile, s: number, e: number, rule: ClimbRule = CLIMB_RULE): ClimbSpan {
  const { distanceM, elevationM } = smooth;
  const lengthM = at(distanceM, e) - at(distanceM, s);
  const netRiseM = at(elevationM, e) - at(elevationM, s);
  let gainM = 0;
  for (let k = s + 1; k <= e; k++) gainM += Math.max(0, at(elevationM, k) - at(elevationM, k - 1));
  const averageGradePct = lengthM > 0 ? (netRiseM / lengthM) * 100 : 0;
  // The rise over a run of fixed length is piecewise linear in where the run
  // starts, with corners where either end passes a sample, so its maximum is
  // found among the runs that start or end at a sample.
  const run = Math.max(MAX_GRADE_RUN_M, rule.smoothingM);
  let maxGradePct = averageGradePct;
  if (lengthM > run) {
    maxGradePct = -Infinity;
    const from = at(distanceM, s);
    const to = at(distanceM, e);
    for (let k = s; k <= e; k++) {
      const d = at(distanceM, k);
      if (d + run <= to) maxGradePct = Math.max(maxGradePct, heightAt(smooth, d + run) - at(elevationM, k));
      if (d - run >= from) maxGradePct = Math.max(maxGradePct, at(elevationM, k) - heightAt(smooth, d - run));
    }
    maxGradePct = (maxGradePct / run) * 100;
  }
  return { startIndex: s, endIndex: e, lengthM, gainM, netRiseM, averageGradePct, maxGradePct };
}

function meetsRule(span: ClimbSpan, rule: ClimbRule): boolean {
  return (
    span.lengthM >= rule.minLengthM &&
    span.lengthM > 0 &&
    span.netRiseM >= rule.minGainM &&
    span.averageGradePct >= rule.minAverageGradePct
  );
}

/** A trimmed run-out may gain at most this many metres, or this share of the climb's rise (see `trim`). */
export const TOP_RUN_OUT_M = 10;
export const TOP_RUN_OUT_SHARE = 0.03;

/**
 * Trims an ascent's flat lead-in and run-out. With `t` half the ascent's
 * average grade (from its lowest point to its top), the foot is where the
 * height above a line of grade `t` is lowest and the top, after it, where it
 * is highest: along a lead-in or run-out flatter than `t` that height falls
 * away from the climb, along the climb it rises, so both ends land where
 * the road's grade crosses `t`. For a straight ramp that is exactly its ends,
 * because the symmetric smoothing window rounds each corner evenly and the
 * smoothed grade passes half the ramp's grade at the corner itself. Being a
 * whole-span extreme rather than a local test, it is not stopped by a bump
 * of noise in a flat, and a gentle approach to a steep climb is left out.
 * The top is cut back only over a run-out that gains next to nothing
 * ({@link TOP_RUN_OUT_M}, {@link TOP_RUN_OUT_SHARE}): a climb ends at its
 * highest point, even when the last kilometres to it are gentler.
 */
function trim(smooth: Profile, foot: number, top: number): [number, number] {
  const { distanceM, elevationM } = smooth;
  let lowest = foot;
  for (let k = foot; k <= top; k++) if (at(elevationM, k) <= at(elevationM, lowest)) lowest = k;
  const length = at(distanceM, top) - at(distanceM, lowest);
  if (length <= 0) return [lowest, top];
  const t = (at(elevationM, top) - at(elevationM, lowest)) / length / 2;
  const above = (k: number): number => at(elevationM, k) - t * at(distanceM, k);
  let s = foot;
  for (let k = foot; k <= top; k++) if (above(k) <= above(s)) s = k;
  let e = s;
  for (let k = s; k <= top; k++) if (above(k) > above(e)) e = k;
  // The top is the highest point: a run-out that still climbs to it (past a dip, up a last false
  // flat) is part of the climb. Only a run-out that gains next to nothing is cut.
  const runOut = at(elevationM, top) - at(elevationM, e);
  if (runOut > Math.max(TOP_RUN_OUT_M, TOP_RUN_OUT_SHARE * (at(elevationM, top) - at(elevationM, s))))
    e = top;
  return [s, e];
}

/**
 * Within [s, e], the span between two samples that meets the rule with the
 * greatest net rise (the longest among equals), or null. Used only when an
 * ascent as a whole fails the rule, typically a long gentle approach or a
 * plateau diluting a steep ramp's average: the ramp is still a climb.
 * Quadratic in the ascent's samples (spans that cannot rise enough are
 * skipped): about a second for an unbroken 100 km rise sampled every 20 m,
 * milliseconds for the few kilometres of a real climb.
 */
function bestWithin(smooth: Profile, s: number, e: number, rule: ClimbRule): [number, number] | null {
  const { distanceM, elevationM } = smooth;
  // highestAfter[k - s]: the highest point from k to e, the most any span starting at k can rise.
  const highestAfter = new Array<number>(e - s + 1).fill(-Infinity);
  for (let k = e; k >= s; k--)
    highestAfter[k - s] = Math.max(at(elevationM, k), highestAfter[k - s + 1] ?? -Infinity);
  let best: [number, number] | null = null;
  let bestRise = -Infinity;
  let bestLength = -Infinity;
  for (let i = s; i < e; i++) {
    const reach = at(highestAfter, i - s) - at(elevationM, i);
    if (reach < rule.minGainM || reach < bestRise) continue;
    const first = sampleAtOrBefore(distanceM, at(distanceM, i) + rule.minLengthM);
    for (let j = Math.max(i + 1, first); j <= e; j++) {
      const length = at(distanceM, j) - at(distanceM, i);
      const rise = at(elevationM, j) - at(elevationM, i);
      if (length <= 0 || length < rule.minLengthM || rise < rule.minGainM) continue;
      if ((rise / length) * 100 < rule.minAverageGradePct) continue;
      if (rise > bestRise || (rise === bestRise && length > bestLength)) {
        best = [i, j];
        bestRise = rise;
        bestLength = length;
      }
    }
  }
  return best;
}

/**
 * The climbs of a profile, in the direction it is given, foot to top, in
 * ascending order and not overlapping (one may start where the previous
 * ends). The profile is smoothed over `rule.smoothingM`; each maximal ascent
 * (dips under the tolerance do not end one) is trimmed to where the road
 * starts to rise and where it tops out, and kept when it meets the rule. An
 * ascent that fails as a whole is searched for the part that meets the rule
 * with the most net rise, and what lies before and after that part is
 * searched again, so a plateau or a long gentle approach does not hide the
 * ramps beside it. A profile ending at a top (a summit road, a dead end)
 * ends a climb like any top. Throws a RangeError for a malformed profile or
 * rule.
 */
export function findClimbs(profile: Profile, rule: ClimbRule = CLIMB_RULE): ClimbSpan[] {
  checkProfile(profile);
  checkRule(rule);
  if (profile.distanceM.length < 2) return [];
  const smooth = smoothProfile(profile, rule.smoothingM);
  const climbs: ClimbSpan[] = [];
  const resolve = (foot: number, top: number): void => {
    if (top <= foot) return;
    const [s, e] = trim(smooth, foot, top);
    const whole = measureSpan(smooth, s, e, rule);
    if (meetsRule(whole, rule)) {
      // What the trim cut off either end is looked at again: a ramp before a long flat lead-in is a climb too.
      if (s > foot && s < top) resolve(foot, s);
      climbs.push(whole);
      if (e > foot && e < top) resolve(e, top);
      return;
    }
    const part = bestWithin(smooth, foot, top, rule);
    if (part === null) return;
    const [i, j] = part;
    resolve(foot, i);
    const [ps, pe] = trim(smooth, i, j);
    const climb = measureSpan(smooth, ps, pe, rule);
    if (meetsRule(climb, rule)) climbs.push(climb);
    resolve(j, top);
  };
  for (const [foot, top] of ascents(smooth.elevationM, rule)) resolve(foot, top);
  return climbs;
}
