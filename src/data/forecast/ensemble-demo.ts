import { normalizeDegrees } from '../../core/angles.ts';
import type { LatLon } from '../../core/bearing.ts';
import type { EnsembleSample } from '../../core/ensemble-chance.ts';
import { roundHalfAway } from '../../core/round.ts';
import { demoWindAt } from './demo.ts';
import {
  DEMO_ENSEMBLE_MODEL,
  ENSEMBLE_FETCH_HOURS,
  type EnsembleSeries,
  type EnsembleSource,
} from './ensemble-types.ts';
import { type Clock, hourStart } from './types.ts';

/** As many members as the default real model, so the demo exercises the same sizes. */
export const DEMO_ENSEMBLE_MEMBERS = 51;

/** The demo "runs" every 6 hours, like the real models; leads are counted from the run. */
export const DEMO_RUN_EVERY_S = 6 * 3600;

const TAU = 2 * Math.PI;

/** A fixed phase per member and purpose in [0, 2π): no randomness, the same on every machine. */
const phase = (member: number, salt: number): number =>
  (((member * 2654435761 + salt * 40503) >>> 0) % 6283) / 1000;

/**
 * A fixed draw per member and purpose, roughly standard normal (mean 0,
 * standard deviation 1, within ±3): the sum of three hashed uniforms,
 * centred and scaled. Enough for synthetic members; no randomness.
 */
const draw = (member: number, salt: number): number => {
  const u = (k: number) => phase(member, salt * 3 + k) / 6.283;
  return (u(0) + u(1) + u(2) - 1.5) * 2;
};

/** The demo's spread at a lead of `leadH` hours: 0 at the run, 1 three days on, still growing after. */
const growthAt = (leadH: number): number => leadH / 72;

/**
 * How far apart the demo members drift, one standard deviation, at the run
 * (`…0`) and added per three days of lead (`…Per3d`). Shaped on the spread
 * of ECMWF's ensemble in changeable mid-latitude weather (the demo's winds
 * turn and swing as in a busy autumn week): systems arriving an hour early
 * or late on day 1 and about six hours by day 3 (the demo's wind veers
 * about 18°/h, so timing alone moves the direction by tens of degrees),
 * plus a steady turn of a few degrees growing to about 35°, and a speed
 * off by ±5 % growing to about ±30 %. So a strong day-1 window stays
 * likely and a day-3 one is often "about even": what riders meet in a real
 * ensemble, where three days out the members often disagree.
 */
export const DEMO_SPREAD = {
  timingH0: 0.4,
  timingHPer3d: 6,
  directionDeg0: 4,
  directionDegPer3d: 35,
  speedShare0: 0.05,
  speedSharePer3d: 0.3,
} as const;

/**
 * Member `member`'s wind at `point` and `time` for a run started at `runAt`:
 * member 0 (the control) is exactly the demo forecast; each other member is
 * the demo forecast at a shifted time (its systems early or late), turned
 * by an angle and scaled in speed, each a fixed draw for the member (so a
 * member is one coherent run, not noise hour to hour) with a slow wobble,
 * scaled by a spread that GROWS WITH LEAD TIME like a real ensemble's
 * ({@link DEMO_SPREAD}). Pure and deterministic.
 */
export function demoMemberWindAt(
  point: LatLon,
  time: number,
  runAt: number,
  member: number,
): { speedKmh: number; directionDeg: number } {
  if (member === 0) {
    const control = demoWindAt(point, time);
    return { speedKmh: control.speedKmh, directionDeg: control.directionDeg };
  }
  const growth = growthAt(Math.max(0, (time - runAt) / 3600));
  const hours = time / 3600;
  // A member's error is mostly steady (its own draw) with a slow wobble around it.
  const error = (salt: number, period: number) =>
    draw(member, salt) * 0.85 +
    0.3 * Math.sin((TAU * hours) / period + phase(member, salt) + 0.02 * point.lat);
  const s = DEMO_SPREAD;
  const shiftH = error(1, 41) * (s.timingH0 + s.timingHPer3d * growth);
  const shifted = demoWindAt(point, time + Math.round(shiftH * 3600));
  const veer = error(2, 53) * (s.directionDeg0 + s.directionDegPer3d * growth);
  const share = error(3, 47) * (s.speedShare0 + s.speedSharePer3d * growth);
  const speedKmh = Math.max(0, shifted.speedKmh * Math.exp(share));
  return {
    speedKmh: roundHalfAway(speedKmh, 1),
    directionDeg: Math.round(normalizeDegrees(shifted.directionDeg + veer)) % 360,
  };
}

/**
 * An offline ensemble for demos and tests: 51 synthetic members around the
 * demo forecast, the same for the same point and run. It is SYNTHETIC
 * weather: every probability built on it carries `source: "demo"`.
 */
export function createDemoEnsemble(options: { readonly clock?: Clock } = {}): EnsembleSource {
  const clock = options.clock ?? Date.now;
  const runOf = () => Math.floor(clock() / 1000 / DEMO_RUN_EVERY_S) * DEMO_RUN_EVERY_S;
  return {
    id: 'demo',
    model: DEMO_ENSEMBLE_MODEL,
    members: DEMO_ENSEMBLE_MEMBERS,
    currentRun: async () => runOf(),
    hourly: async (points) => {
      const runAt = runOf();
      const from = hourStart(clock());
      return points.map((point): EnsembleSeries => ({
        point,
        model: DEMO_ENSEMBLE_MODEL,
        members: DEMO_ENSEMBLE_MEMBERS,
        runAt,
        fetchedAt: Math.floor(clock() / 1000),
        stale: false,
        hours: Array.from({ length: ENSEMBLE_FETCH_HOURS }, (_, i): EnsembleSample => {
          const time = from + i * 3600;
          const winds = Array.from({ length: DEMO_ENSEMBLE_MEMBERS }, (_, m) =>
            demoMemberWindAt(point, time, runAt, m),
          );
          return {
            time,
            speedKmh: winds.map((w) => w.speedKmh),
            directionDeg: winds.map((w) => w.directionDeg),
          };
        }),
        unusableHours: 0,
      }));
    },
  };
}
