/**
 * Where the road nodes of a whole country lie, in typed arrays: 8 bytes of id
 * and 8 of location per node, where a `Map` of objects takes about ten times
 * that and V8 stops a `Map` at 2²⁴ entries (Spain has more road nodes). Ids
 * are collected in pages (no copy as they grow, no limit below a continent),
 * then sorted once; locations are stored as OSM stores them, in 10⁻⁷ degrees
 * (Int32), beside the sorted ids, and found by binary search. A node id is a
 * float64: OSM ids passed 2³² in 2021 and stay far below 2⁵³.
 *
 * Hand-written because what the field uses for this (osmium's sparse and
 * dense location stores) is C++; no kept npm package offers a sorted
 * id → location array.
 */

/** Ids per page while collecting: 4 M ids, 32 MB. */
const PAGE = 1 << 22;
/** A location not (yet) known: no coordinate in 10⁻⁷ degrees is this small. */
const UNKNOWN = -2147483648;

/** Node ids as ways name them, duplicates and all, until `sorted()`. */
export class NodeIdCollector {
  private readonly pages: Float64Array[] = [];
  private current = new Float64Array(PAGE);
  private used = 0;

  get count(): number {
    return this.pages.length * PAGE + this.used;
  }

  push(id: number): void {
    if (this.used === PAGE) {
      this.pages.push(this.current);
      this.current = new Float64Array(PAGE);
      this.used = 0;
    }
    this.current[this.used++] = id;
  }

  /** The distinct ids, ascending. The collector is emptied. */
  sorted(): Float64Array {
    const all = new Float64Array(this.count);
    let at = 0;
    for (const page of this.pages) {
      all.set(page, at);
      at += PAGE;
    }
    all.set(this.current.subarray(0, this.used), at);
    this.pages.length = 0;
    this.current = new Float64Array(0);
    this.used = 0;
    all.sort();
    let out = 0;
    for (let k = 0; k < all.length; k++) {
      const id = all[k] as number;
      if (k === 0 || id !== all[k - 1]) all[out++] = id;
    }
    return all.subarray(0, out);
  }
}

/** Locations of a fixed, sorted set of node ids. */
export class NodeLocations {
  private readonly ids: Float64Array;
  private readonly lat: Int32Array;
  private readonly lon: Int32Array;
  /** Where the last `set` found its id: files sorted by id are filled in one forward sweep. */
  private hint = 0;
  private filled = 0;

  constructor(sortedIds: Float64Array) {
    this.ids = sortedIds;
    this.lat = new Int32Array(sortedIds.length).fill(UNKNOWN);
    this.lon = new Int32Array(sortedIds.length);
  }

  /** Ids held (wanted), located or not. */
  get size(): number {
    return this.ids.length;
  }

  /** Ids whose location has been set. */
  get located(): number {
    return this.filled;
  }

  /** Bytes the index holds. */
  get bytes(): number {
    return this.ids.byteLength + this.lat.byteLength + this.lon.byteLength;
  }

  /** Records a node's location when its id is held; ignores any other id. */
  set(id: number, lat: number, lon: number): void {
    const at = this.find(id);
    if (at < 0) return;
    if (this.lat[at] === UNKNOWN) this.filled++;
    this.lat[at] = Math.round(lat * 1e7);
    this.lon[at] = Math.round(lon * 1e7);
  }

  /** The slot of a held, located id, else -1. */
  indexOf(id: number): number {
    const at = this.find(id);
    return at >= 0 && this.lat[at] !== UNKNOWN ? at : -1;
  }

  latAt(index: number): number {
    return (this.lat[index] as number) / 1e7;
  }

  lonAt(index: number): number {
    return (this.lon[index] as number) / 1e7;
  }

  /** Calls `visit` with every located node's coordinates. */
  forEachLocated(visit: (lat: number, lon: number) => void): void {
    for (let i = 0; i < this.ids.length; i++) {
      const lat = this.lat[i] as number;
      if (lat !== UNKNOWN) visit(lat / 1e7, (this.lon[i] as number) / 1e7);
    }
  }

  private find(id: number): number {
    const ids = this.ids;
    const n = ids.length;
    if (n === 0) return -1;
    // Sorted input: the next id is usually at or just after the last one found.
    let low = this.hint;
    if ((ids[low] as number) <= id) {
      let step = 1;
      let high = low + 1;
      while (high < n && (ids[high] as number) <= id) {
        low = high;
        step *= 2;
        high = low + step;
      }
      high = Math.min(high, n - 1);
      return this.search(id, low, high);
    }
    return this.search(id, 0, low);
  }

  private search(id: number, from: number, to: number): number {
    let low = from;
    let high = to;
    while (low <= high) {
      const mid = (low + high) >>> 1;
      const value = this.ids[mid] as number;
      if (value === id) {
        this.hint = mid;
        return mid;
      }
      if (value < id) low = mid + 1;
      else high = mid - 1;
    }
    return -1;
  }
}
