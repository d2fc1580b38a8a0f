import { boundedEditDistance } from '../../core/edit-distance.ts';

/** A search key within the allowed number of edits of a misspelt query. */
export interface NearKey {
  readonly key: string;
  readonly distance: number;
}

/**
 * Finds keys a few edits away from a query by scanning every key, with two
 * cheap filters in typed arrays before the edit distance runs: the length
 * difference, and a 32-bit "which letters occur" mask. One edit changes at
 * most two bits of that mask, so keys whose mask differs in more than
 * 2 × max bits cannot be close. A full scan (rather than prefix buckets) also
 * finds typos in the first letters ("Rrenoble").
 */
export function createFuzzyKeys(keys: readonly string[]): (query: string, max: number) => NearKey[] {
  const lengths = new Uint16Array(keys.length);
  const masks = new Int32Array(keys.length);
  keys.forEach((key, index) => {
    lengths[index] = Math.min(key.length, 0xffff);
    masks[index] = letterMask(key);
  });
  return (query, max) => {
    const length = query.length;
    const mask = letterMask(query);
    const near: NearKey[] = [];
    for (let index = 0; index < keys.length; index++) {
      if (Math.abs((lengths[index] ?? 0) - length) > max) continue;
      if (bitCount((masks[index] ?? 0) ^ mask) > 2 * max) continue;
      const key = keys[index] ?? '';
      const distance = boundedEditDistance(query, key, max);
      if (distance <= max) near.push({ key, distance });
    }
    return near;
  };
}

/** Bits 0–25 for a–z, 26 digits, 27 space, 28–31 any other letter (by code). */
function letterMask(text: string): number {
  let mask = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code >= 97 && code <= 122) mask |= 1 << (code - 97);
    else if (code >= 48 && code <= 57) mask |= 1 << 26;
    else if (code === 32) mask |= 1 << 27;
    else mask |= 1 << (28 + (code % 4));
  }
  return mask;
}

function bitCount(value: number): number {
  let v = value - ((value >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}
