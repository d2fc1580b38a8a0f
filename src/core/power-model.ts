import { roundHalfAway } from './round.ts';
import { rawSegmentWind, type Leg } from './segment-wind.ts';

/**
 * Steady-state road cycling power after Martin, Milliken, Cobb, McFadden &
 * Coggan (1998), "Validation of a mathematical model for road cycling power",
 * J. Appl. Biomech. 14(3):276–291. We keep its aerodynamic, rolling and
 * gravity terms and its drivetrain efficiency, and leave out the wheel-bearing
 * term (a few watts), wheel inertia and the kinetic-energy change: a record is
 * judged as one constant speed, so there is no acceleration to model.
 */

/** Standard gravity, m/s² (3rd CGPM, 1901). */
export const GRAVITY_MS2 = 9.80665;
/** Air density at sea level and 15 °C in the ICAO/ISO 2533 standard atmosphere, kg/m³. */
export const SEA_LEVEL_AIR_DENSITY = 1.225;
/** Drag area of a road rider on the hoods, m², within the range reviewed by Debraux et al. (2011), Sports Biomech. 10(3):197–218. */
export const DEFAULT_CDA_M2 = 0.32;
/** Rolling resistance of road tyres on good asphalt (Wilson, Bicycling Science); Martin et al. measured 0.0032 on a very smooth road. */
export const DEFAULT_CRR = 0.005;
/** Rider, bike and kit, kg: a 75 kg rider on a 10 kg bike with bottles. */
export const DEFAULT_MASS_KG = 85;
/** Chain-drive efficiency used by Martin et al. (1998). */
export const DEFAULT_DRIVETRAIN_EFFICIENCY = 0.976;
/** Forecast winds (Open-Meteo `wind_speed_10m`) are measured 10 m above ground. */
export const FORECAST_WIND_HEIGHT_M = 10;
/** Height at which the wind is taken to act on the rider; 1.0 m would give a factor of 0.60. */
export const RIDER_WIND_HEIGHT_M = 1.5;
/** Roughness length of open country with few obstacles (Davenport–Wieringa class "open", WMO-No. 8). */
export const ROUGHNESS_LENGTH_M = 0.03;

/**
 * Neutral log wind profile u(z) = u_ref·ln(z/z0)/ln(z_ref/z0): the share of the
 * 10 m forecast wind a rider feels, since the wind slows near the ground.
 */
export function windHeightFactor(
  heightM = RIDER_WIND_HEIGHT_M,
  roughnessM = ROUGHNESS_LENGTH_M,
  referenceHeightM = FORECAST_WIND_HEIGHT_M,
): number {
  if (!(roughnessM > 0 && heightM > roughnessM && referenceHeightM > roughnessM)) {
    throw new RangeError('wind heights must be above a positive roughness length');
  }
  return Math.log(heightM / roughnessM) / Math.log(referenceHeightM / roughnessM);
}

/** ln(1.5/0.03)/ln(10/0.03) ≈ 0.673. */
export const WIND_HEIGHT_FACTOR = windHeightFactor();

/**
 * ISA troposphere density, ρ0·(1 − L·h/T0)^(g·M/(R·L) − 1), so a high climb can
 * use the thinner air it is ridden in (about 1.02 kg/m³ at 1850 m).
 */
export function airDensityAtElevation(elevationM: number): number {
  if (!(elevationM >= -500 && elevationM <= 11_000)) {
    throw new RangeError(`elevation must be between -500 and 11000 m, got ${elevationM}`);
  }
  const lapse = 0.0065;
  const t0 = 288.15;
  const exponent = (GRAVITY_MS2 * 0.0289644) / (8.3144598 * lapse) - 1;
  return SEA_LEVEL_AIR_DENSITY * (1 - (lapse * elevationM) / t0) ** exponent;
}

/** Everything the model needs besides the ride; any of it can be overridden per call. */
export interface PowerModelParams {
  readonly cdaM2: number;
  readonly crr: number;
  readonly massKg: number;
  readonly airDensityKgM3: number;
  readonly drivetrainEfficiency: number;
  /** Multiplies the 10 m wind to get the wind at the rider. */
  readonly windHeightFactor: number;
}

/** The documented defaults above, so a rider with no profile still gets an estimate. */
export const DEFAULT_POWER_PARAMS: PowerModelParams = {
  cdaM2: DEFAULT_CDA_M2,
  crr: DEFAULT_CRR,
  massKg: DEFAULT_MASS_KG,
  airDensityKgM3: SEA_LEVEL_AIR_DENSITY,
  drivetrainEfficiency: DEFAULT_DRIVETRAIN_EFFICIENCY,
  windHeightFactor: WIND_HEIGHT_FACTOR,
};

function finite(name: string, value: number): number {
  if (!Number.isFinite(value)) throw new RangeError(`${name} must be a finite number, got ${value}`);
  return value;
}

function resolve(params: Partial<PowerModelParams> = {}): PowerModelParams {
  const p = { ...DEFAULT_POWER_PARAMS, ...params };
  const positive = ['cdaM2', 'massKg', 'airDensityKgM3', 'drivetrainEfficiency'] as const;
  for (const key of positive) if (!(finite(key, p[key]) > 0)) throw new RangeError(`${key} must be > 0`);
  if (p.drivetrainEfficiency > 1) throw new RangeError('drivetrainEfficiency must be at most 1');
  if (finite('crr', p.crr) < 0) throw new RangeError('crr must be >= 0');
  if (finite('windHeightFactor', p.windHeightFactor) < 0)
    throw new RangeError('windHeightFactor must be >= 0');
  return p;
}

/** Resisting force at ground speed v, N; it only grows with v, which the solver relies on. */
function resistingForce(v: number, headwindMs: number, gradeFraction: number, p: PowerModelParams): number {
  const theta = Math.atan(gradeFraction);
  const air = v + headwindMs; // air speed along the direction of travel (Martin's V_A)
  const drag = 0.5 * p.airDensityKgM3 * p.cdaM2 * air * Math.abs(air); // negative when the wind outruns the rider
  return drag + p.massKg * GRAVITY_MS2 * (p.crr * Math.cos(theta) + Math.sin(theta));
}

export interface PowerForSpeedInput {
  readonly groundSpeedMs: number;
  /** Along-track wind at rider height, m/s; positive = against the rider. */
  readonly headwindMs: number;
  readonly gradeFraction: number;
  readonly params?: Partial<PowerModelParams>;
}

/**
 * Pedal power (W) to hold a steady speed: (drag + rolling + gravity)·v / η.
 * Negative means the rider would have to brake.
 */
export function powerForSpeed({
  groundSpeedMs,
  headwindMs,
  gradeFraction,
  params,
}: PowerForSpeedInput): number {
  const p = resolve(params);
  if (!(finite('groundSpeedMs', groundSpeedMs) >= 0)) throw new RangeError('groundSpeedMs must be >= 0');
  const force = resistingForce(
    groundSpeedMs,
    finite('headwindMs', headwindMs),
    finite('gradeFraction', gradeFraction),
    p,
  );
  return (force * groundSpeedMs) / p.drivetrainEfficiency;
}

/** Smallest v in (lo, hi] with `above(v)`, for a predicate that flips once from false to true. */
function bisect(lo: number, hi: number, above: (v: number) => boolean): number {
  for (let i = 0; i < 200 && hi - lo > 1e-9; i++) {
    const mid = (lo + hi) / 2;
    if (above(mid)) hi = mid;
    else lo = mid;
  }
  return hi;
}

/**
 * Ground speed (m/s) at a pedal power. The resisting force only grows with
 * speed, so above the freewheel speed (where it turns positive) power =
 * force·v is strictly increasing and bisection finds its one root to 1e-9 m/s.
 * Zero power gives the freewheel speed: 0 on the flat, the rolling speed on a
 * descent or in a tailwind stronger than the rolling resistance.
 */
export function speedForPower(
  powerW: number,
  headwindMs: number,
  gradeFraction: number,
  params?: Partial<PowerModelParams>,
): number {
  const p = resolve(params);
  if (!(finite('powerW', powerW) >= 0)) throw new RangeError(`powerW must be >= 0, got ${powerW}`);
  finite('headwindMs', headwindMs);
  finite('gradeFraction', gradeFraction);
  const force = (v: number): number => resistingForce(v, headwindMs, gradeFraction, p);
  const wheelPower = powerW * p.drivetrainEfficiency;
  let hi = 1;
  while (force(hi) <= 0) hi *= 2;
  const freewheel = force(0) >= 0 ? 0 : bisect(0, hi, (v) => force(v) >= 0);
  if (wheelPower === 0) return freewheel;
  hi = Math.max(1, 2 * freewheel);
  while (force(hi) * hi < wheelPower) hi *= 2;
  return bisect(freewheel, hi, (v) => force(v) * v >= wheelPower);
}

export interface RecordInput {
  readonly distanceM: number;
  readonly recordS: number;
  readonly averageGradePct: number;
  readonly params?: Partial<PowerModelParams>;
}

/**
 * The rider's mean pedal power, backed out of their record as if it had been
 * ridden at one constant speed on the average grade in still air: the only
 * reading of a bare time and distance that needs no power meter.
 */
export function powerFromRecord({ distanceM, recordS, averageGradePct, params }: RecordInput): number {
  if (!(finite('distanceM', distanceM) > 0)) throw new RangeError(`distanceM must be > 0, got ${distanceM}`);
  if (!(finite('recordS', recordS) > 0)) throw new RangeError(`recordS must be > 0, got ${recordS}`);
  const gradeFraction = finite('averageGradePct', averageGradePct) / 100;
  const powerW = powerForSpeed({
    groundSpeedMs: distanceM / recordS,
    headwindMs: 0,
    gradeFraction,
    ...(params && { params }),
  });
  if (!(powerW > 0)) {
    throw new RangeError(
      `a record of ${recordS} s over ${distanceM} m at ${averageGradePct}% is no faster than freewheeling: no pedal power can be backed out`,
    );
  }
  return powerW;
}

/** The 10 m wind: per leg from the forecast, or one along-track mean (positive = tailwind). */
export type ModelWind =
  | { readonly legs: readonly Leg[]; readonly windSpeedKmh: number; readonly windDirectionDeg: number }
  | { readonly effectiveTailwindKmh: number };

export interface EstimateInput {
  readonly distanceM: number;
  readonly averageGradePct: number;
  readonly wind: ModelWind;
  readonly powerW: number;
  readonly params?: Partial<PowerModelParams>;
}

/** Legs as (share of distance, 10 m tailwind km/h); shares are divided by their sum so they add to 1. */
function windPieces(wind: ModelWind): { share: number; tailwindKmh: number }[] {
  if (!('legs' in wind))
    return [{ share: 1, tailwindKmh: finite('effectiveTailwindKmh', wind.effectiveTailwindKmh) }];
  const speed = finite('windSpeedKmh', wind.windSpeedKmh);
  const direction = finite('windDirectionDeg', wind.windDirectionDeg);
  const total = wind.legs.reduce((sum, leg) => sum + leg.weight, 0);
  if (
    wind.legs.length === 0 ||
    !wind.legs.every((leg) => leg.weight > 0 && Number.isFinite(leg.bearingDeg)) ||
    !(total > 0 && total < Infinity)
  ) {
    throw new RangeError('legs must be non-empty, with finite bearings and positive finite weights');
  }
  return wind.legs.map((leg) => ({
    share: leg.weight / total,
    tailwindKmh: rawSegmentWind([{ bearingDeg: leg.bearingDeg, weight: 1 }], speed, direction).alongKmh,
  }));
}

/**
 * Time (s) to ride the segment at constant power. Each leg is ridden at its
 * own speed with its own along-track wind, because drag is not linear in the
 * wind: a hairpin into the wind costs more than the one with it gives back, so
 * the mean wind would flatter a winding climb. Legs carry no grade of their
 * own, so every leg uses the average grade. As in Martin et al., only the
 * along-track air speed enters the drag; the crosswind's yaw effect on CdA is
 * ignored.
 */
export function estimateTime({ distanceM, averageGradePct, wind, powerW, params }: EstimateInput): number {
  const p = resolve(params);
  if (!(finite('distanceM', distanceM) > 0)) throw new RangeError(`distanceM must be > 0, got ${distanceM}`);
  if (!(finite('powerW', powerW) > 0)) throw new RangeError(`powerW must be > 0, got ${powerW}`);
  const gradeFraction = finite('averageGradePct', averageGradePct) / 100;
  return windPieces(wind).reduce((seconds, piece) => {
    const headwindMs = (-piece.tailwindKmh / 3.6) * p.windHeightFactor;
    return seconds + (piece.share * distanceM) / speedForPower(powerW, headwindMs, gradeFraction, p);
  }, 0);
}

export interface RecordGain {
  readonly estimatedS: number;
  readonly recordS: number;
  /** Positive = faster than the record. */
  readonly gainS: number;
  readonly powerW: number;
}

/**
 * The record re-ridden at the same power in the given wind. Rounded as shown
 * (0.1 s, whole watts); the gain is taken from the rounded estimate so that
 * estimate + gain = record on screen.
 */
export function recordGain(input: RecordInput & { readonly wind: ModelWind }): RecordGain {
  const powerW = powerFromRecord(input);
  const estimatedS = roundHalfAway(estimateTime({ ...input, powerW }), 1);
  return {
    estimatedS,
    recordS: input.recordS,
    gainS: roundHalfAway(input.recordS - estimatedS, 1),
    powerW: Math.round(powerW),
  };
}
