import type KDBush from 'kdbush';

/**
 * Every point of a kdbush index within a great-circle radius, the same set
 * geokdbush's `around(index, lon, lat, Infinity, radiusKm)` returns, found
 * without allocating per node or per point. `around` keeps a priority queue
 * of an object for every kd-tree node and every point it reaches, so that it
 * can hand them back nearest first; a catalog query then re-orders them by
 * popularity anyway. Over a 1,000,000-segment catalog that queue was a fifth
 * of everything `/mcp` allocated under load (about 160 KB per
 * find_tailwind_segments call), and the garbage is what grows the server's
 * heap. Here the tree is walked depth first with a reusable stack, pruned
 * with geokdbush's own lower bound for a box, and points are tested with its
 * own haversine formula and sphere, so the set is exactly the same (a
 * property test compares both); only the order differs (tree order).
 */

/** geokdbush's sphere, in km. */
const EARTH_RADIUS_KM = 6371;
const RAD = Math.PI / 180;
/** Values per stacked node: left, right, axis, minLng, minLat, maxLng, maxLat. */
const FRAME = 7;

function haverSin(theta: number): number {
  const s = Math.sin(theta / 2);
  return s * s;
}

function haverSinDistPartial(haverSinDLng: number, cosLat1: number, lat1: number, lat2: number): number {
  return cosLat1 * Math.cos(lat2 * RAD) * haverSinDLng + haverSin((lat1 - lat2) * RAD);
}

function haverSinDist(lng1: number, lat1: number, lng2: number, lat2: number, cosLat1: number): number {
  return haverSinDistPartial(haverSin((lng1 - lng2) * RAD), cosLat1, lat1, lat2);
}

function vertexLat(lat: number, haverSinDLng: number): number {
  const cosDLng = 1 - 2 * haverSinDLng;
  if (cosDLng <= 0) return lat > 0 ? 90 : -90;
  return Math.atan(Math.tan(lat * RAD) / cosDLng) / RAD;
}

/** geokdbush's lower bound of the distance from a point to anything inside a box. */
function boxDist(
  lng: number,
  lat: number,
  cosLat: number,
  minLng: number,
  minLat: number,
  maxLng: number,
  maxLat: number,
): number {
  if (lng >= minLng && lng <= maxLng) {
    if (lat < minLat) return haverSin((lat - minLat) * RAD);
    if (lat > maxLat) return haverSin((lat - maxLat) * RAD);
    return 0;
  }
  const haverSinDLng = Math.min(haverSin((lng - minLng) * RAD), haverSin((lng - maxLng) * RAD));
  const extremumLat = vertexLat(lat, haverSinDLng);
  if (extremumLat > minLat && extremumLat < maxLat)
    return haverSinDistPartial(haverSinDLng, cosLat, lat, extremumLat);
  return Math.min(
    haverSinDistPartial(haverSinDLng, cosLat, lat, minLat),
    haverSinDistPartial(haverSinDLng, cosLat, lat, maxLat),
  );
}

/** A reusable radius search over one index: `collect` fills `slots` and returns how many it found. */
export interface RadiusSearch {
  /**
   * Tree slots (positions in `index.ids` and, times two, `index.coords`) of
   * every point within `radiusKm` of (lng, lat); valid until the next call.
   */
  readonly slots: () => Uint32Array;
  collect(lng: number, lat: number, radiusKm: number): number;
}

/**
 * A radius search over `index`, with its own stack and result buffer, both
 * grown as needed and kept: a query allocates nothing. One search serves
 * one caller at a time (queries are synchronous).
 */
export function radiusSearch(index: KDBush): RadiusSearch {
  const { ids, coords, nodeSize } = index;
  let stack = new Float64Array(64 * FRAME);
  let found = new Uint32Array(1024);
  let count = 0;
  const keep = (slot: number) => {
    if (count === found.length) {
      const grown = new Uint32Array(found.length * 2);
      grown.set(found);
      found = grown;
    }
    found[count++] = slot;
  };
  let top = 0;
  const push = (
    left: number,
    right: number,
    axis: number,
    minLng: number,
    minLat: number,
    maxLng: number,
    maxLat: number,
  ) => {
    if (top + FRAME > stack.length) {
      const grown = new Float64Array(stack.length * 2);
      grown.set(stack);
      stack = grown;
    }
    stack[top] = left;
    stack[top + 1] = right;
    stack[top + 2] = axis;
    stack[top + 3] = minLng;
    stack[top + 4] = minLat;
    stack[top + 5] = maxLng;
    stack[top + 6] = maxLat;
    top += FRAME;
  };
  return {
    slots: () => found,
    collect(lng, lat, radiusKm) {
      count = 0;
      if (ids.length === 0) return 0;
      const maxHaverSinDist = haverSin(radiusKm / EARTH_RADIUS_KM);
      const cosLat = Math.cos(lat * RAD);
      top = 0;
      push(0, ids.length - 1, 0, -180, -90, 180, 90);
      while (top > 0) {
        top -= FRAME;
        const left = stack[top] ?? 0;
        const right = stack[top + 1] ?? 0;
        const axis = stack[top + 2] ?? 0;
        const minLng = stack[top + 3] ?? 0;
        const minLat = stack[top + 4] ?? 0;
        const maxLng = stack[top + 5] ?? 0;
        const maxLat = stack[top + 6] ?? 0;
        if (right - left <= nodeSize) {
          for (let i = left; i <= right; i++)
            if (haverSinDist(lng, lat, coords[2 * i] ?? 0, coords[2 * i + 1] ?? 0, cosLat) <= maxHaverSinDist)
              keep(i);
          continue;
        }
        const m = (left + right) >> 1;
        const midLng = coords[2 * m] ?? 0;
        const midLat = coords[2 * m + 1] ?? 0;
        if (haverSinDist(lng, lat, midLng, midLat, cosLat) <= maxHaverSinDist) keep(m);
        const next = 1 - axis;
        // Children whose box lies wholly beyond the radius are skipped, as `around` never reaches them.
        const leftMaxLng = axis === 0 ? midLng : maxLng;
        const leftMaxLat = axis === 1 ? midLat : maxLat;
        if (boxDist(lng, lat, cosLat, minLng, minLat, leftMaxLng, leftMaxLat) <= maxHaverSinDist)
          push(left, m - 1, next, minLng, minLat, leftMaxLng, leftMaxLat);
        const rightMinLng = axis === 0 ? midLng : minLng;
        const rightMinLat = axis === 1 ? midLat : minLat;
        if (boxDist(lng, lat, cosLat, rightMinLng, rightMinLat, maxLng, maxLat) <= maxHaverSinDist)
          push(m + 1, right, next, rightMinLng, rightMinLat, maxLng, maxLat);
      }
      return count;
    },
  };
}
