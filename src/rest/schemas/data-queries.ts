import * as z from 'zod';
import type { RuleIssueParams } from '../query-rules.ts';

/**
 * Queries of the data endpoints (`/v1/wind`, `/v1/segments`) and the `{id}` of
 * `/v1/segments/{id}`. Their bounds are those of the MCP tool
 * `find_tailwind_segments` (radius 1–100 km, default 25; limit 1–25, default 10),
 * in the REST API's units (km rather than metres), so both surfaces answer the
 * same questions. `limit` bounds the whole REST list, the nearest beyond the
 * radius too; the tool lists up to three of those whatever its limit, then cuts
 * its answer to its byte budget (decision 0035).
 */

export const DEFAULT_RADIUS_KM = 25;
export const MAX_RADIUS_KM = 100;
export const DEFAULT_LIMIT = 10;
export const MAX_LIMIT = 25;
export const MAX_PLACE_CHARS = 120;

const latitude = z
  .number()
  .min(-90, 'lat must be from -90 to 90')
  .max(90, 'lat must be from -90 to 90')
  .meta({ description: 'Latitude in decimal degrees (WGS 84).', example: 45.0565 });

const longitude = z
  .number()
  .min(-180, 'lon must be from -180 to 180')
  .max(180, 'lon must be from -180 to 180')
  .meta({ description: 'Longitude in decimal degrees (WGS 84).', example: 6.0307 });

/** Query of `GET /v1/wind`: one point; the answer is the forecast cell holding it. */
export const WindQuerySchema = z.object({ lat: latitude, lon: longitude });

/** Query of `GET /v1/segments`: a place name or a point (one of the two), a radius and a count. */
export const SegmentsNearQuerySchema = z
  .object({
    place: z
      .string()
      .trim()
      .min(1, 'place must not be empty')
      .max(MAX_PLACE_CHARS, `place is at most ${MAX_PLACE_CHARS} characters`)
      .optional()
      .meta({
        description:
          'Town, region, island, lake or segment name; "Boulder, CO" or "Paris, US" picks one of a shared name. ' +
          'Instead of lat and lon.',
        example: 'Bourg-d’Oisans',
      }),
    lat: latitude.optional().meta({ description: 'Instead of place: latitude (WGS 84), with lon.' }),
    lon: longitude.optional().meta({ description: 'Instead of place: longitude (WGS 84), with lat.' }),
    radius_km: z
      .number()
      .min(1, 'radius_km must be from 1 to 100')
      .max(MAX_RADIUS_KM, `radius_km must be from 1 to ${MAX_RADIUS_KM}`)
      .default(DEFAULT_RADIUS_KM)
      .meta({ description: `Search radius, km (1–${MAX_RADIUS_KM}, default ${DEFAULT_RADIUS_KM}).` }),
    limit: z
      .int('limit must be a whole number')
      .min(1, `limit must be from 1 to ${MAX_LIMIT}`)
      .max(MAX_LIMIT, `limit must be from 1 to ${MAX_LIMIT}`)
      .default(DEFAULT_LIMIT)
      .meta({
        description:
          `Most segments to list (1–${MAX_LIMIT}, default ${DEFAULT_LIMIT}), within the radius or, with none ` +
          'there, of the nearest beyond it.',
      }),
  })
  .superRefine((query, ctx) => {
    if ((query.lat === undefined) !== (query.lon === undefined)) {
      const missing = query.lat === undefined ? 'lat' : 'lon';
      const params: RuleIssueParams = { code: 'missing_parameter', hint: 'Send lat and lon together.' };
      ctx.addIssue({
        code: 'custom',
        path: [missing],
        message: `${missing} is required with the other coordinate.`,
        params,
      });
    } else if (query.place === undefined && query.lat === undefined) {
      const params: RuleIssueParams = {
        code: 'missing_parameter',
        hint: 'Send place (a town, region or segment name), or lat and lon.',
      };
      ctx.addIssue({ code: 'custom', path: ['place'], message: 'Give place, or lat and lon.', params });
    } else if (query.place !== undefined && query.lat !== undefined) {
      const params: RuleIssueParams = {
        code: 'invalid_parameter',
        hint: 'Send place or lat and lon, not both: drop one of them.',
      };
      ctx.addIssue({ code: 'custom', path: ['place'], message: 'place was sent with lat and lon.', params });
    }
  });

/** Most characters of a segment id: as the MCP tools bound it. */
export const MAX_SEGMENT_ID_CHARS = 100;

/** The `{id}` of `/v1/segments/{id}`: a catalog slug, lower-case letters, digits and hyphens. */
export const SegmentIdSchema = z
  .string()
  .min(1, 'id must not be empty')
  .max(MAX_SEGMENT_ID_CHARS, `id is at most ${MAX_SEGMENT_ID_CHARS} characters`)
  .regex(/^[a-z0-9][a-z0-9-]*$/, 'id is a lower-case slug such as "fr-alpe-d-huez"')
  .meta({ description: 'Catalog segment id, from `/v1/segments`.', example: 'fr-alpe-d-huez' });

export type WindQuery = z.output<typeof WindQuerySchema>;
export type SegmentsNearQuery = z.output<typeof SegmentsNearQuerySchema>;
