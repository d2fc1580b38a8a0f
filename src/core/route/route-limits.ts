/**
 * Largest route file read, in bytes (UTF-8): 5 MiB. A GPX exported from a
 * route planner for a 200 km ride is well under 2 MB; a ten-hour ride
 * recorded every second with sensor extensions is about 5 MB. Anything
 * bigger is refused before a single tag is read, so a hostile 10 MB file
 * costs one length check.
 */
export const MAX_ROUTE_BYTES = 5 * 1024 * 1024;

/**
 * Most points a route may have: 50,000, a ten-hour ride recorded every
 * second with room to spare. Counted before duplicates are dropped.
 */
export const MAX_ROUTE_POINTS = 50_000;

/**
 * Longest route: 1,000 km. The forecast reaches three days ahead; at a
 * touring pace that is about as far as one start time can ride.
 */
export const MAX_ROUTE_LENGTH_M = 1_000_000;

/** Coordinates are kept to 5 decimals (about 1 m), finer than any consumer-GPS fix. */
export const ROUTE_COORDINATE_DECIMALS = 5;
