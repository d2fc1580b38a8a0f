import * as z from 'zod';
import type { RuleProblem } from '../../core/direction.ts';
import { PARAMETERS, type ParameterName } from '../../core/parameters.ts';
import {
  bearingRule,
  tailwindRule,
  type PlanField,
  type QueryPlan,
  type QueryRule,
  type RuleIssueParams,
} from '../query-rules.ts';

/**
 * The number schemas `numberParameter` made, so a plan is only derived from fields whose whole
 * check is the bounds read back from them: a field with any other check (`.int()`, a refinement)
 * is a different schema instance, and its query gets no plan (it is always validated by zod).
 */
const PLAIN_NUMBERS = new WeakSet<z.ZodNumber>();
const PLANS = new WeakMap<z.ZodObject, QueryPlan>();

function numberParameter(name: ParameterName) {
  const { min, max, description, example } = PARAMETERS[name];
  const schema = z.number().min(min).max(max).meta({ description, example });
  PLAIN_NUMBERS.add(schema);
  return schema;
}

function addRuleIssue(ctx: z.RefinementCtx, problem: RuleProblem): void {
  ctx.addIssue({
    code: 'custom',
    path: [problem.parameter],
    message: problem.detail,
    params: { code: problem.code, hint: problem.hint } satisfies RuleIssueParams,
  });
}

/** A plan field from a schema field, or undefined when it is not a (possibly optional) plain number. */
function planField(name: string, field: z.ZodType): PlanField | undefined {
  const required = !(field instanceof z.ZodOptional);
  const inner: unknown = field instanceof z.ZodOptional ? field.unwrap() : field;
  if (!(inner instanceof z.ZodNumber) || !PLAIN_NUMBERS.has(inner)) return undefined;
  const { minValue, maxValue } = inner;
  if (minValue === null || maxValue === null) return undefined;
  return { name, min: minValue, max: maxValue, required };
}

/**
 * A query schema: an object of number parameters and one cross-field rule, which runs as its
 * refinement (when every field is valid on its own) and is recorded with the fields as the
 * schema's plan.
 */
function queryObject<S extends z.core.$ZodLooseShape>(shape: S, rule: QueryRule<z.output<z.ZodObject<S>>>) {
  const schema = z.object(shape).superRefine((query, ctx) => {
    const problem = rule(query);
    if (problem) addRuleIssue(ctx, problem);
  });
  const fields = Object.entries(schema.shape).map(([name, field]) => planField(name, field as z.ZodType));
  if (fields.every((field) => field !== undefined)) {
    PLANS.set(schema, { fields, rule: rule as QueryPlan['rule'] });
  }
  return schema;
}

/** The plan of a query schema made here, or undefined (then only zod validates it). */
export function queryPlan(schema: z.ZodObject): QueryPlan | undefined {
  return PLANS.get(schema);
}

const coordinates = {
  start_lat: numberParameter('start_lat'),
  start_lon: numberParameter('start_lon'),
  end_lat: numberParameter('end_lat'),
  end_lon: numberParameter('end_lon'),
};

/** Query of `GET /v1/bearing`: all four coordinates, two distinct points. */
export const BearingQuerySchema = queryObject(coordinates, bearingRule);

/**
 * Query of `GET /v1/tailwind`. Each field is validated here; which of the
 * bearing and the coordinates gives the direction is the core's rule
 * (`resolveDirection`), shared with the browser calculator.
 */
export const TailwindQuerySchema = queryObject(
  {
    wind_speed_kmh: numberParameter('wind_speed_kmh'),
    wind_direction_deg: numberParameter('wind_direction_deg'),
    segment_bearing_deg: numberParameter('segment_bearing_deg').optional(),
    start_lat: coordinates.start_lat.optional(),
    start_lon: coordinates.start_lon.optional(),
    end_lat: coordinates.end_lat.optional(),
    end_lon: coordinates.end_lon.optional(),
  },
  tailwindRule,
);

/** A valid `/v1/bearing` query, as its schema reads it. */
export type BearingQuery = z.output<typeof BearingQuerySchema>;

/** A valid `/v1/tailwind` query, as its schema reads it. */
export type TailwindQuery = z.output<typeof TailwindQuerySchema>;
