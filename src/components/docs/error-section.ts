import type { AnyProblemCode } from '../../core/problems.ts';

/** One code's section in the error reference on /docs (`ErrorReference.astro`). */
export interface ErrorSection {
  readonly code: AnyProblemCode;
  readonly status: number;
  readonly title: string;
  readonly cause: string;
  readonly fix: string;
  /** The request that gets this answer, in words. */
  readonly request: string;
  /** The problem document answered, as pretty-printed JSON. */
  readonly body: string;
}
