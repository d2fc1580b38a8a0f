/** A tool-call point, as get_route_wind takes it. */
export interface ToolPoint {
  readonly latitude: number;
  readonly longitude: number;
}

const KM_PER_DEG_LAT = 111.195;

/**
 * A 100 km ride from Grenoble: 50 km east, then 50 km north-east, with a
 * gentle 300 m wiggle every 2 km like a valley road, a point every
 * `stepKm` (0.5 → 201 points). Shared by the route tool's tests and bench.
 */
export function hundredKmPoints(stepKm = 0.5): ToolPoint[] {
  const count = Math.round(100 / stepKm);
  const cosLat = Math.cos((45.19 * Math.PI) / 180);
  return Array.from({ length: count + 1 }, (_, i) => {
    const km = i * stepKm;
    const wiggle = 0.3 * Math.sin((km * Math.PI) / 2) * (i === 0 || i === count ? 0 : 1);
    const east = Math.min(km, 50) + Math.max(0, km - 50) * Math.SQRT1_2;
    const north = Math.max(0, km - 50) * Math.SQRT1_2 + wiggle;
    return {
      latitude: Math.round((45.19 + north / KM_PER_DEG_LAT) * 1e6) / 1e6,
      longitude: Math.round((5.72 + east / (KM_PER_DEG_LAT * cosLat)) * 1e6) / 1e6,
    };
  });
}
