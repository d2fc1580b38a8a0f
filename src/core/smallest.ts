/**
 * The first `k` items of `items` in `compare` order, exactly what a stable
 * `[...items].sort(compare).slice(0, k)` gives, without sorting them all.
 *
 * A catalog query asks for 10 segments (a few dozen at most) out of the
 * thousands within 25 km of a place in a large catalog; sorting every
 * candidate was most of a 1,000,000-segment `near` under load, while keeping
 * a sorted list of the best `k` so far costs one comparison for most
 * candidates. Written here rather than taken from a heap library: a heap
 * pops in an order that is not stable for equal items, and the answer must
 * stay byte-identical to the sort's.
 */
export function smallestSorted<T>(items: Iterable<T>, k: number, compare: (a: T, b: T) => number): T[] {
  const kept: T[] = [];
  const size = Math.floor(k);
  if (!(size >= 1)) return kept;
  for (const item of items) {
    if (kept.length === size) {
      // An item equal to the last kept one comes after it in a stable sort: out.
      if (compare(item, kept[size - 1] as T) >= 0) continue;
      kept.pop();
    }
    // Insert after every kept item that is not greater (stability).
    let low = 0;
    let high = kept.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (compare(kept[mid] as T, item) <= 0) low = mid + 1;
      else high = mid;
    }
    kept.splice(low, 0, item);
  }
  return kept;
}
