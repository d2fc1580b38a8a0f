import * as z from 'zod';
import { PROBLEM_CODES, type ProblemCode } from '../../core/problems.ts';

const codes = Object.keys(PROBLEM_CODES) as [ProblemCode, ...ProblemCode[]];

/** RFC 9457 problem details, extended with `code`, `hint` and `parameter`. */
export const ProblemSchema = z
  .object({
    type: z.url().meta({ description: '`{docs_url}#error-<code with hyphens>`.' }),
    title: z.string(),
    status: z.int().min(400).max(599).meta({ description: 'Equals the HTTP status.' }),
    detail: z.string().meta({ description: 'What went wrong with this request.' }),
    instance: z.string().optional().meta({ description: 'The request path.' }),
    code: z.enum(codes),
    hint: z.string().meta({ description: 'How to resolve it.' }),
    parameter: z.string().optional().meta({ description: 'The offending query or path parameter.' }),
    suggestions: z
      .array(z.string())
      .optional()
      .meta({ description: 'place_not_found only: place names close to the one sent, best first.' }),
  })
  .meta({
    id: 'Problem',
    example: {
      type: 'https://wind-on-segment.example/docs#error-missing-parameter',
      title: 'Missing Parameter',
      status: 400,
      detail: 'The query parameter wind_speed_kmh is required.',
      instance: '/v1/tailwind',
      code: 'missing_parameter',
      hint: 'Send wind_speed_kmh as a number from 0 to 300 (km/h), for example wind_speed_kmh=20.',
      parameter: 'wind_speed_kmh',
    },
  });

export type Problem = z.output<typeof ProblemSchema>;
