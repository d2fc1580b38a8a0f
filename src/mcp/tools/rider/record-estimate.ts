import {
  DEFAULT_POWER_PARAMS,
  FORECAST_WIND_HEIGHT_M,
  recordGain,
  type RecordGain,
  RIDER_WIND_HEIGHT_M,
  ROUGHNESS_LENGTH_M,
} from '../../../core/power-model.ts';
import { gradedRecordGain, type GradedLeg } from '../../../core/graded-ride.ts';
import { routeLegs } from '../../../core/route/route-geometry.ts';
import { isOwnSegment } from '../../../data/segments/owned-segment.ts';
import type { Segment } from '../../../data/segments/types.ts';
import type { z } from 'zod';
import { legsOf } from '../../../data/segments/segment-geometry.ts';
import type { TailwindWindowSchema } from '../../schemas/common.ts';
import type { EstimateStatusSchema, PowerModelInfo, RecordEstimateSchema } from '../../schemas/rider.ts';

type WindowOut = z.infer<typeof TailwindWindowSchema>;

export interface RecordEstimateOut {
  readonly estimate: z.infer<typeof RecordEstimateSchema> | null;
  readonly status: z.infer<typeof EstimateStatusSchema>;
}

const p = DEFAULT_POWER_PARAMS;

/** The model as every answer states it: the numbers the estimates used, and what they leave out. */
export const POWER_MODEL_INFO: PowerModelInfo = {
  name: 'Martin et al. 1998 steady-state',
  reference:
    'Martin, Milliken, Cobb, McFadden & Coggan (1998), Validation of a mathematical model for road cycling power, J. Appl. Biomech. 14(3):276–291',
  cda_m2: p.cdaM2,
  crr: p.crr,
  mass_kg: p.massKg,
  air_density_kg_m3: p.airDensityKgM3,
  drivetrain_efficiency: p.drivetrainEfficiency,
  wind_height_factor: Math.round(p.windHeightFactor * 1000) / 1000,
  assumptions: [
    'The same model rider for everyone: the values above, not a personal profile.',
    'power_w is backed out of the record as if it had been ridden at one steady speed in still air on the average grade.',
    'estimated_s re-rides the segment at that power in the wind of best_window.peak, held for the whole ride; each leg of the route gets its own along-track wind.',
    `The 10 m forecast wind is scaled to ${RIDER_WIND_HEIGHT_M} m with a log wind profile (roughness ${ROUGHNESS_LENGTH_M} m, reference ${FORECAST_WIND_HEIGHT_M} m, open country, no shelter).`,
    "On a rider's own segment whose file has elevations, the grade is taken stretch by stretch (up to 64 stretches) instead of the average, both to back out power_w and to re-ride it.",
    'Left out: crosswind yaw on drag, gusts, drafting, bends and braking, wheel bearings and acceleration.',
  ],
};

/**
 * The legs with their own grades, for a rider's own segment whose file had
 * elevations; undefined for catalog segments (they carry one average grade).
 */
function gradedLegsOf(segment: Segment): readonly GradedLeg[] | undefined {
  if (!isOwnSegment(segment) || segment.elevationsM.every((ele) => ele === null)) return undefined;
  const points = segment.polyline.map((p, i) => {
    const ele = segment.elevationsM[i];
    return ele === null || ele === undefined ? p : { ...p, ele };
  });
  return routeLegs(points).legs;
}

/**
 * What the best window does to the rider's record: the record re-ridden at
 * the power it implies, in the window's peak-hour wind as shown in the answer
 * (so anyone can redo the sum). No record, no window, or a record slower than
 * freewheeling (no pedal power to back out) gives no estimate and says why.
 */
export function estimateRecord(
  segment: Segment,
  recordS: number | null,
  window: WindowOut | null,
): RecordEstimateOut {
  if (recordS === null) return { estimate: null, status: 'no_record' };
  if (!window) return { estimate: null, status: 'no_window' };
  const ride = { distanceM: segment.distanceM, recordS, averageGradePct: segment.averageGradePct };
  const wind = {
    legs: legsOf(segment),
    windSpeedKmh: window.peak.wind_speed_kmh,
    windDirectionDeg: window.peak.wind_direction_deg,
  };
  const graded = gradedLegsOf(segment);
  let gain: RecordGain;
  try {
    gain = graded
      ? gradedRecordGain({
          legs: graded,
          recordS,
          averageGradePct: segment.averageGradePct,
          windSpeedKmh: wind.windSpeedKmh,
          windDirectionDeg: wind.windDirectionDeg,
        })
      : recordGain({ ...ride, wind });
  } catch (error) {
    // Both throw a RangeError for a record no faster than freewheeling: no power to back out.
    if (error instanceof RangeError) return { estimate: null, status: 'record_too_slow' };
    throw error;
  }
  return {
    estimate: {
      record_s: recordS,
      estimated_s: gain.estimatedS,
      gain_s: gain.gainS,
      power_w: gain.powerW,
      wind_at: window.peak.time,
    },
    status: 'estimated',
  };
}
