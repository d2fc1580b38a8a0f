/**
 * The mechanism of the composition root (`app.ts`): a part is a function of
 * the graph, built once per graph when first asked for, and most parts are
 * lazy values that load their code with `import()` on first use.
 */
import type { Settings } from './settings.ts';

export type Lazy<T> = () => Promise<T>;
export type Part<T> = (graph: Graph) => T;

/** A value built once, on first use; a failed build is forgotten so the next call retries. */
export function lazy<T>(build: () => Promise<T>): Lazy<T> {
  let pending: Promise<T> | undefined;
  return () =>
    (pending ??= build().catch((error: unknown) => ((pending = undefined), Promise.reject(error))));
}

/** One graph per settings: each part is built once, when something first asks for it. */
export class Graph {
  readonly #built = new Map<Part<unknown>, unknown>();
  readonly settings: Settings;

  constructor(settings: Settings) {
    this.settings = settings;
  }

  get<T>(part: Part<T>): T {
    if (!this.#built.has(part)) this.#built.set(part, part(this));
    return this.#built.get(part) as T;
  }

  /** The values of several lazy parts, built side by side. */
  need<const P extends readonly Part<Lazy<unknown>>[]>(
    ...parts: P
  ): Promise<{ -readonly [K in keyof P]: P[K] extends Part<Lazy<infer T>> ? T : never }> {
    return Promise.all(parts.map((part) => this.get(part)())) as never;
  }
}
