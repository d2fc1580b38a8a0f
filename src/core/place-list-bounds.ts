/**
 * How long a list about a place may grow beyond the segments a caller asks
 * for: the other places of its name and the nearest segments beyond the
 * radius. The place search and the segment search (`src/service`) apply them;
 * both surfaces' schemas state them (the REST schemas load no data code, so
 * the numbers live here, below everything).
 */

/** How many catalog segments beyond the radius an empty answer lists (fewer when asked for fewer). */
export const NEAREST_BEYOND_RADIUS = 3;

/**
 * How far "nearest beyond the radius" reaches: 300 km, a long day's drive
 * there and back for a ride. A segment further away is no advice for a
 * ride from the place (Haleakalā is not "near" Tokyo); the answer then says
 * so and gives the headings only.
 */
export const RIDE_REACH_M = 300_000;

/**
 * How many other places of the name an answer lists: five when the first is
 * ambiguous (the rider should be asked which), three when it is clearly
 * meant (a "did you mean" for the rest, at about 0.15 KB each: "Paris"
 * would otherwise push the MCP tool's headings answer past its 8 KB budget).
 */
export const MAX_ALTERNATIVES = { ambiguous: 5, clear: 3 } as const;
