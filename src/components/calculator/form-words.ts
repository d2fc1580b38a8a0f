import { PARAMETERS, type ParameterName } from '../../core/parameters.ts';
import type { ProblemCode } from '../../core/problems.ts';

/**
 * What the calculator tells a rider about a field, in the form's own words:
 * the field's label and unit as the page shows them, never the API's
 * parameter names (`wind_speed_kmh`) or query syntax (`name=20`), which are
 * the API's hint and only mean something to a caller of `/v1/tailwind`.
 */
export function fieldMessage(name: ParameterName): string {
  const { label, min, max, unit, example } = PARAMETERS[name];
  return `Enter the ${label.toLowerCase()} in ${unit}: a number from ${min} to ${max}, for example ${example}.`;
}

/** The rule the API states as "segment_bearing_deg or four coordinates", for a rider. */
const EITHER_DIRECTION =
  'Enter the segment bearing, or the start and end latitude and longitude of the segment.';

/**
 * The calculator's message for a broken direction rule (`resolveDirection`):
 * the same problem the API answers, said in the form's words.
 */
export function ruleMessage(code: ProblemCode, parameter: ParameterName): string {
  if (code === 'invalid_parameter') {
    // The one rule that refuses values within their bounds: the end is the start.
    return 'The start and end are the same point, so they give no direction. Change the end, or enter the segment bearing instead.';
  }
  if (parameter === 'segment_bearing_deg') return `The direction of travel is missing. ${EITHER_DIRECTION}`;
  return `${fieldMessage(parameter)} All four coordinates are needed, or clear them and enter the segment bearing instead.`;
}
