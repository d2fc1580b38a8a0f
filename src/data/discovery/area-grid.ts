import type { LatLon } from '../../core/bearing.ts';
import type { BBox } from '../../core/discovery/osm-types.ts';

/**
 * Discovery works in fixed tiles of a quarter degree (about 28 × 20 km at
 * 45°): small enough that one Overpass query stays well under its public
 * instances' size and time limits, large enough that a 25 km search touches
 * at most nine. Fixed tiles give every instance the same area keys, so one
 * lock and one stored row stand for one area everywhere.
 */
export const AREA_DEG = 0.25;

const tileOf = (degrees: number) => Math.floor(degrees / AREA_DEG);

/** `a<row>_<col>`, e.g. `a170_6` for the tile whose south-west corner is 42.5° N, 1.5° E. */
export function areaKey(row: number, col: number): string {
  return `a${row}_${col}`;
}

/** The tile's edges. */
export function areaBBox(key: string): BBox {
  const match = /^a(-?\d+)_(-?\d+)$/.exec(key);
  if (!match) throw new Error(`Not an area key: ${key}`);
  const south = Number(match[1]) * AREA_DEG;
  const west = Number(match[2]) * AREA_DEG;
  return { south, west, north: south + AREA_DEG, east: west + AREA_DEG };
}

/**
 * The tiles a search of `radiusM` around `point` touches (its bounding box
 * on the sphere), wrapping at the antimeridian and stopping at the poles.
 */
export function areaKeysAround(point: LatLon, radiusM: number): string[] {
  const dLat = radiusM / 111_195;
  const cos = Math.max(Math.cos((point.lat * Math.PI) / 180), 0.01);
  const dLon = Math.min(180, dLat / cos);
  const columns = Math.round(360 / AREA_DEG);
  const keys = new Set<string>();
  for (
    let row = tileOf(Math.max(-90, point.lat - dLat));
    row <= tileOf(Math.min(89.999, point.lat + dLat));
    row++
  ) {
    for (let c = tileOf(point.lon - dLon); c <= tileOf(point.lon + dLon); c++) {
      // Columns wrap so that 180.1° E is the tile of -179.9°.
      const wrapped = ((((c + columns / 2) % columns) + columns) % columns) - columns / 2;
      keys.add(areaKey(row, wrapped));
    }
  }
  return [...keys];
}
