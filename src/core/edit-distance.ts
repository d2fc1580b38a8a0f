/**
 * The service's one edit distance, for every "did you mean": place names in
 * the gazetteer, argument names at both surfaces (`closest-name.ts`) and
 * unknown `WOS_*` settings.
 *
 * Optimal-string-alignment distance (Levenshtein plus swapping two neighbours,
 * so "grenobel" is one edit from "grenoble"), capped: as soon as no alignment
 * can stay within `max`, it stops and returns `max + 1`. The cap is what makes
 * scanning a few hundred thousand gazetteer keys per suggestion affordable.
 * Written here rather than taken from npm: the Levenshtein packages
 * (fastest-levenshtein, leven) count a swap as two edits and have no cap, and
 * the Damerau ones allocate a matrix per call.
 */
export function boundedEditDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  if (a === b) return 0;
  const width = b.length + 1;
  ensureRows(width);
  let before = rowA;
  let previous = rowB;
  let current = rowC;
  for (let j = 0; j < width; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    let rowMin = i;
    const ai = a.charCodeAt(i - 1);
    for (let j = 1; j < width; j++) {
      const bj = b.charCodeAt(j - 1);
      const cost = ai === bj ? 0 : 1;
      let value = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && ai === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === bj) {
        value = Math.min(value, (before[j - 2] ?? 0) + 1);
      }
      current[j] = value;
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > max) return max + 1;
    [before, previous, current] = [previous, current, before];
  }
  const distance = previous[b.length] ?? max + 1;
  return distance > max ? max + 1 : distance;
}

// Three reusable rows: suggestions call this in a tight loop, so no allocation per call.
let rowA = new Int32Array(64);
let rowB = new Int32Array(64);
let rowC = new Int32Array(64);

function ensureRows(width: number): void {
  if (rowA.length >= width) return;
  rowA = new Int32Array(width * 2);
  rowB = new Int32Array(width * 2);
  rowC = new Int32Array(width * 2);
}
