import { normalizeDegrees } from '../../core/angles.ts';
import type { LatLon } from '../../core/bearing.ts';
import type { EnsembleSample } from '../../core/ensemble-chance.ts';
import { roundHalfAway } from '../../core/round.ts';
import { demoWindAt } from './demo.ts';
import { DEMO_ENSEMBLE_MODEL, type EnsembleSeries, type EnsembleSource } from './ensemble-types.ts';
import { ENSEMBLE_FETCH_HOURS } from './open-meteo-ensemble.ts';
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
 * Member `member`'s wind at `point` and `time` for a run started at `runAt`:
 * member 0 (the control) is exactly the demo forecast; the others perturb
 * its speed by a smooth share and veer its direction by a smooth angle, each
 * a sinusoid in time with its own period and phase, scaled by a spread that
 * GROWS WITH LEAD TIME like a real ensemble's: about ±5 % and ±6° at the run,
 * ±45 % and ±50° three days on. Pure and deterministic.
 */
export function demoMemberWindAt(
  point: LatLon,
  time: number,
  runAt: number,
  member: number,
): { speedKmh: number; directionDeg: number } {
  const control = demoWindAt(point, time);
  if (member === 0) return { speedKmh: control.speedKmh, directionDeg: control.directionDeg };
  const leadH = Math.max(0, (time - runAt) / 3600);
  const hours = time / 3600;
  const speedSpread = 0.05 + 0.0055 * leadH;
  const directionSpread = 6 + 0.6 * leadH;
  const wobble = (salt: number, period: number) =>
    Math.sin((TAU * hours) / period + phase(member, salt) + 0.02 * point.lat) * 0.7 +
    Math.sin(phase(member, salt + 1)) * 0.3;
  const speedKmh = Math.max(0, control.speedKmh * (1 + speedSpread * wobble(1, 19 + (member % 7))));
  const veer = directionSpread * wobble(3, 23 + (member % 5));
  return {
    speedKmh: roundHalfAway(speedKmh, 1),
    directionDeg: Math.round(normalizeDegrees(control.directionDeg + veer)) % 360,
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
