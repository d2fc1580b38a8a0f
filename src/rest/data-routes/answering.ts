import { admitCall } from '../../service/call-allowance.ts';
import { ServiceError } from '../../service/service-error.ts';
import type { RestData } from '../data-port.ts';
import { serviceProblem } from '../data-problems.ts';

/**
 * A data route's answer, taken from the client's allowance first (`admitCall`,
 * one request each; the input was read before, so a bad parameter costs
 * none), with the use cases' one error family, a refused allowance among
 * them, turned into the REST API's problems (`serviceProblem`), in this one
 * place for every route; anything else passes as it is (an internal error).
 * Loaded with the routes, never with a calculation.
 */
export function answering<In extends [unknown, RestData, ...unknown[]], Out>(
  answer: (...input: In) => Promise<Out>,
): (client: string, ...input: In) => Promise<Out> {
  return async (client, ...input) => {
    try {
      await admitCall(input[1].limiter, client);
      return await answer(...input);
    } catch (error) {
      throw error instanceof ServiceError ? serviceProblem(error) : error;
    }
  };
}
