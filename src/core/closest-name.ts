/**
 * Edit distance (Levenshtein) between two short names. Written here rather
 * than taken from a package: a dozen lines over lists of a few argument
 * names, in the pure core that both the REST and the MCP surfaces use.
 */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution);
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/**
 * The known name a caller most likely meant by `given`, or undefined when
 * none is close: a name that starts with it or that it starts with
 * (`record` → `record_s`, `wind_speed` → `wind_speed_kmh`), else one within
 * a third of its length in edits (typos such as `segmnet_id`). Case and
 * hyphens are not told apart.
 */
export function closestName(given: string, known: readonly string[]): string | undefined {
  const norm = (name: string) => name.toLowerCase().replaceAll('-', '_');
  const g = norm(given);
  if (g.length < 2) return undefined;
  let best: { name: string; score: number } | undefined;
  for (const name of known) {
    const k = norm(name);
    const prefix = k.startsWith(g) || g.startsWith(k);
    const distance = editDistance(g, k);
    const near = distance <= Math.max(1, Math.floor(Math.max(g.length, k.length) / 3));
    if (!prefix && !near) continue;
    const score = prefix ? Math.abs(k.length - g.length) / 100 : distance;
    if (best === undefined || score < best.score) best = { name, score };
  }
  return best?.name;
}
