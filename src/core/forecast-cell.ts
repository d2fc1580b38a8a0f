import { normalizeDegrees } from './angles.ts';
import type { LatLon } from './bearing.ts';
import { roundHalfAway } from './round.ts';

/**
 * The forecast's grid in degrees: points in one cell share one forecast.
 * 0.05° (≈ 5.5 km north–south, less east–west) is finer than the 2–11 km
 * cells of the models Open-Meteo blends near most places, so snapping rarely
 * changes which model cell answers, yet riders in one valley share an entry.
 * In core because the browser snaps a route's samples to the same cells
 * before it asks for their wind: it sends cell centres, never the route.
 */
export const FORECAST_GRID_DEG = 0.05;

/** A grid cell: its key and the centre asked upstream. */
export interface Cell {
  readonly key: string;
  readonly center: LatLon;
}

/**
 * The cell a point falls in, on a grid of `gridDeg` degrees; longitude is
 * folded to [-180, 180), so 190° and -170° (and 180° and -180°) share a cell.
 */
export function forecastCell(point: LatLon, gridDeg: number = FORECAST_GRID_DEG): Cell {
  const cellsAround = Math.round(360 / gridDeg);
  const latIndex = Math.round(point.lat / gridDeg);
  const rawLonIndex = Math.round((normalizeDegrees(point.lon + 180) - 180) / gridDeg);
  const lonIndex = rawLonIndex * 2 >= cellsAround ? rawLonIndex - cellsAround : rawLonIndex;
  const center = { lat: roundHalfAway(latIndex * gridDeg, 4), lon: roundHalfAway(lonIndex * gridDeg, 4) };
  return { key: `${latIndex}:${lonIndex}`, center };
}
