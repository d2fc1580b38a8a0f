import type { LatLon } from '../../src/core/bearing.ts';

const rad = Math.PI / 180;
const mod = (x: number, m: number): number => ((x % m) + m) % m;

/**
 * The sun's geometric altitude (degrees, no refraction) at `unixS` seen from
 * `point`, by the Astronomical Almanac's low-precision formulae (about 0.01°
 * from 1950 to 2050). An oracle independent of suncalc, which the code under
 * test uses: if the two disagree on whether an hour is light, a test fails.
 */
export function solarAltitudeDeg(point: LatLon, unixS: number): number {
  const n = unixS / 86_400 + 2_440_587.5 - 2_451_545.0;
  const meanLongitude = mod(280.46 + 0.9856474 * n, 360);
  const anomaly = mod(357.528 + 0.9856003 * n, 360) * rad;
  const lambda = (meanLongitude + 1.915 * Math.sin(anomaly) + 0.02 * Math.sin(2 * anomaly)) * rad;
  const obliquity = (23.439 - 0.0000004 * n) * rad;
  const rightAscension = Math.atan2(Math.cos(obliquity) * Math.sin(lambda), Math.cos(lambda));
  const declination = Math.asin(Math.sin(obliquity) * Math.sin(lambda));
  const siderealDeg = mod(280.46061837 + 360.98564736629 * n, 360);
  const hourAngle = (siderealDeg + point.lon) * rad - rightAscension;
  const lat = point.lat * rad;
  const sinAlt =
    Math.sin(lat) * Math.sin(declination) + Math.cos(lat) * Math.cos(declination) * Math.cos(hourAngle);
  return Math.asin(Math.max(-1, Math.min(1, sinAlt))) / rad;
}

/** Civil twilight: the sun's centre 6° below the horizon. */
export const CIVIL_TWILIGHT_DEG = -6;

/** Rounding only: the code keeps a margin of its own, so the oracle may hold it to −6° itself. */
export const TWILIGHT_TOLERANCE_DEG = 0.01;

/** The lowest sun in `[startS, endS]`, sampled every 5 minutes and at both ends. */
export function lowestSunDeg(point: LatLon, startS: number, endS: number): number {
  let lowest = Infinity;
  for (let t = startS; t < endS; t += 300) lowest = Math.min(lowest, solarAltitudeDeg(point, t));
  return Math.min(lowest, solarAltitudeDeg(point, endS));
}
