import * as z from 'zod';
import { isRuleProblem, resolveDirection, samePointProblem, type RuleProblem } from '../../core/direction.ts';
import { PARAMETERS, type ParameterName } from '../../core/parameters.ts';

/** Extra data a cross-field rule attaches to its zod issue. */
export type RuleIssueParams = Pick<RuleProblem, 'code' | 'hint'>;

function numberParameter(name: ParameterName) {
  const { min, max, description, example } = PARAMETERS[name];
  return z.number().min(min).max(max).meta({ description, example });
}

function addRuleIssue(ctx: z.RefinementCtx, problem: RuleProblem): void {
  ctx.addIssue({
    code: 'custom',
    path: [problem.parameter],
    message: problem.detail,
    params: { code: problem.code, hint: problem.hint } satisfies RuleIssueParams,
  });
}

const coordinates = {
  start_lat: numberParameter('start_lat'),
  start_lon: numberParameter('start_lon'),
  end_lat: numberParameter('end_lat'),
  end_lon: numberParameter('end_lon'),
};

/** Query of `GET /v1/bearing`: all four coordinates, two distinct points. */
export const BearingQuerySchema = z.object(coordinates).superRefine((query, ctx) => {
  const problem = samePointProblem(
    { lat: query.start_lat, lon: query.start_lon },
    { lat: query.end_lat, lon: query.end_lon },
  );
  if (problem) addRuleIssue(ctx, problem);
});

/**
 * Query of `GET /v1/tailwind`. Each field is validated here; which of the
 * bearing and the coordinates gives the direction is the core's rule
 * (`resolveDirection`), shared with the browser calculator.
 */
export const TailwindQuerySchema = z
  .object({
    wind_speed_kmh: numberParameter('wind_speed_kmh'),
    wind_direction_deg: numberParameter('wind_direction_deg'),
    segment_bearing_deg: numberParameter('segment_bearing_deg').optional(),
    start_lat: coordinates.start_lat.optional(),
    start_lon: coordinates.start_lon.optional(),
    end_lat: coordinates.end_lat.optional(),
    end_lon: coordinates.end_lon.optional(),
  })
  .superRefine((query, ctx) => {
    const direction = resolveDirection(query);
    if (isRuleProblem(direction)) addRuleIssue(ctx, direction);
  });
