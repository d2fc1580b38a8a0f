/**
 * What a query schema checks beyond each field's bounds, as plain functions, and the plan a query
 * schema is read by: zod-free, so the REST function answers a valid plain query from a plan
 * generated at build time (`sync-queries.ts`) without loading zod (decision 0045). The schemas in
 * `schemas/query-schemas.ts` run these same rules as their refinements and record the plans.
 */
import {
  isRuleProblem,
  resolveDirection,
  samePointProblem,
  type DirectionFields,
  type RuleProblem,
} from '../core/direction.ts';

/** Extra data a cross-field rule attaches to its zod issue. */
export type RuleIssueParams = Pick<RuleProblem, 'code' | 'hint'>;

/** A cross-field rule of a query: the problem it finds in fields already valid one by one, if any. */
export type QueryRule<T> = (query: T) => RuleProblem | undefined;

/** One field of a query as `numberParameter` declared it: its name, bounds and whether it must be sent. */
export interface PlanField {
  readonly name: string;
  readonly min: number;
  readonly max: number;
  readonly required: boolean;
}

/**
 * What a query schema checks, as data, for a per-request reader compiled from it
 * (`compiled-query.ts`): its fields in order, each a bounded number, and its one cross-field rule,
 * the very function the schema's refinement calls.
 */
export interface QueryPlan {
  readonly fields: readonly PlanField[];
  readonly rule: QueryRule<Record<string, number | undefined>>;
}

/** `/v1/tailwind`: which of the bearing and the coordinates gives the direction is the core's rule. */
export const tailwindRule: QueryRule<DirectionFields> = (query) => {
  const direction = resolveDirection(query);
  return isRuleProblem(direction) ? direction : undefined;
};

interface Coordinates {
  readonly start_lat: number;
  readonly start_lon: number;
  readonly end_lat: number;
  readonly end_lon: number;
}

/** `/v1/bearing`: two distinct points. */
export const bearingRule: QueryRule<Coordinates> = (query) =>
  samePointProblem(
    { lat: query.start_lat, lon: query.start_lon },
    { lat: query.end_lat, lon: query.end_lon },
  );

/** Every rule a query schema runs, by the name a plan generated at build time refers to it by. */
export const QUERY_RULES = { tailwind: tailwindRule, bearing: bearingRule } as const;
