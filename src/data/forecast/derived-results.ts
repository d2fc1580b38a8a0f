/**
 * The one place where results derived from forecast hours are remembered.
 *
 * Working out the same segments' winds, best windows and their answer forms
 * again for every call was most of a `find_tailwind_segments` call under
 * load (decision 0006); they depend only on the segment and the hours, so
 * they are remembered per subject (a segment) for one hour set, by its name
 * (`hour-set.ts`), and dropped when the subject is judged on another. What
 * is derived is named by a {@link Derivation}, declared where it is
 * derived. A result derived from a remembered value (a window's brief form,
 * its summary line) is remembered with that value for as long as it lives;
 * from any other value (a window with a Pro chance, made per call) it is
 * computed afresh. Whether a result may be shared is decided here, by what
 * this cache holds, not by how the value looks.
 */
import { LRUCache } from 'lru-cache';
import type { HourSetId } from './hour-set.ts';

/** One kind of result derived from a subject's hours or from a remembered value; `T` is its type. */
export interface Derivation<T> {
  readonly name: string;
  /** The results of this derivation from remembered values, by value. */
  readonly fromValue: WeakMap<object, { readonly result: T }>;
}

/** Names a derivation; call once per kind of result, at module level where it is derived. */
export function derivation<T>(name: string): Derivation<T> {
  return { name, fromValue: new WeakMap() };
}

/**
 * Subjects remembered: enough for the ten segments of 200 different places.
 * A segment's remembered wind holds its timeline packed, about 7.5 KB, and
 * its answer forms a few hundred bytes (decisions 0018, 0019).
 */
export const REMEMBERED_SUBJECTS = 2048;

interface SubjectEntry {
  readonly hourSet: HourSetId;
  readonly results: Map<Derivation<unknown>, unknown>;
}

/**
 * How a result is computed: a function of the subject (or value) and one
 * argument, so a call that finds the result remembered allocates nothing
 * (no closure per call: `find_tailwind_segments` asks for several results
 * per segment and call).
 */
export type Compute<S, A, T> = (subject: S, arg: A) => T;

export interface DerivedResults {
  /**
   * `derivation` of `subject` on the hour set `hourSet`: computed once and
   * remembered while the subject is judged on that hour set; computed afresh
   * for hours with no name (null).
   */
  onHours<S extends object, A, T>(
    subject: S,
    hourSet: HourSetId | null,
    derivation: Derivation<T>,
    compute: Compute<S, A, T>,
    arg: A,
  ): T;
  /** `derivation` of a value: remembered with it when this cache holds the value, computed afresh otherwise. */
  fromValue<V extends object, A, T>(
    value: V,
    derivation: Derivation<T>,
    compute: Compute<V, A, T>,
    arg: A,
  ): T;
  /**
   * Holds a value derived from no forecast hours but shared the same way
   * (a place's days of daylight, remembered for the hour by their owner), so
   * what {@link fromValue} derives from it is remembered with it.
   */
  hold<T extends object>(value: T): T;
}

export function createDerivedResults(maxSubjects: number = REMEMBERED_SUBJECTS): DerivedResults {
  const subjects = new LRUCache<object, SubjectEntry>({ max: maxSubjects });
  const held = new WeakSet<object>();
  const hold = <T>(value: T): T => {
    if (typeof value === 'object' && value !== null) held.add(value);
    return value;
  };
  return {
    onHours(subject, hourSet, derivation, compute, arg) {
      if (hourSet === null) return compute(subject, arg);
      let entry = subjects.get(subject);
      if (entry?.hourSet !== hourSet) {
        entry = { hourSet, results: new Map() };
        subjects.set(subject, entry);
      }
      const { results } = entry;
      if (results.has(derivation)) return results.get(derivation) as ReturnType<typeof compute>;
      const result = hold(compute(subject, arg));
      results.set(derivation, result);
      return result;
    },
    fromValue(value, derivation, compute, arg) {
      if (!held.has(value)) return compute(value, arg);
      const known = derivation.fromValue.get(value);
      if (known) return known.result;
      const result = hold(compute(value, arg));
      derivation.fromValue.set(value, { result });
      return result;
    },
    hold,
  };
}

/** The process's derived results: the tools, the REST answers and the alert job share them. */
export const derivedResults: DerivedResults = createDerivedResults();
