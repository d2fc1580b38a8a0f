import { ServiceError } from '../../service/service-error.ts';
import { serviceProblem } from '../data-problems.ts';

/**
 * A data route's answer with the use cases' one error family turned into
 * the REST API's problems (`serviceProblem`), in this one place for every
 * route; anything else passes as it is (an internal error). Loaded with the
 * routes, never with a calculation.
 */
export function answering<In extends unknown[], Out>(
  answer: (...input: In) => Promise<Out>,
): (...input: In) => Promise<Out> {
  return async (...input) => {
    try {
      return await answer(...input);
    } catch (error) {
      throw error instanceof ServiceError ? serviceProblem(error) : error;
    }
  };
}
