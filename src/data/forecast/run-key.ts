/**
 * Keys that stand for a frozen run of forecast hours.
 *
 * What is derived from a run (a segment's wind, remembered in
 * `segment-window.ts`) is remembered by the run's key, not by the array: the
 * forecast cache keeps its hours packed and materialises the hour objects
 * only while a caller holds them, so the same run (one cache entry from one
 * UTC hour on) may be handed out as another array later, under the same key.
 * Remembering by key lets a remembered answer outlive the hour objects it
 * was computed from, which would otherwise be held by every remembered
 * segment (decision 0018). A run without a key is its own key.
 */
const keys = new WeakMap<readonly object[], object>();

/** Gives `run` (frozen) the key of every run with the same hours; returns it. */
export function keyRun<T extends readonly object[]>(run: T, key: object): T {
  keys.set(run, key);
  return run;
}

/** The key standing for `run`'s hours, or undefined when only the array itself stands for them. */
export function runKeyOf(run: readonly object[]): object | undefined {
  return keys.get(run);
}
