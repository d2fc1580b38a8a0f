import { boundedEditDistance } from './edit-distance.ts';

/**
 * The known name a caller most likely meant by `given`, or undefined when
 * none is close: a name that starts with it or that it starts with
 * (`record` → `record_s`, `wind_speed` → `wind_speed_kmh`), else one within
 * a third of its length in edits, a swap of two neighbours counting as one
 * (typos such as `segmnet_id`, the distance of `edit-distance.ts`). Case and
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
    const allowed = Math.max(1, Math.floor(Math.max(g.length, k.length) / 3));
    const distance = boundedEditDistance(g, k, allowed);
    const near = distance <= allowed;
    if (!prefix && !near) continue;
    const score = prefix ? Math.abs(k.length - g.length) / 100 : distance;
    if (best === undefined || score < best.score) best = { name, score };
  }
  return best?.name;
}
