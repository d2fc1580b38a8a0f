import { parseGeoJsonLine } from '../../core/route/geojson-line.ts';
import { parseGpx } from '../../core/route/gpx.ts';
import { RouteInputError } from '../../core/route/route-error.ts';
import { parsePointList, type ParsedRoute } from '../../core/route/route-input.ts';
import { ToolError } from '../tool.ts';

/** A route as a tool receives it: exactly one of the three forms. */
export interface RouteArguments {
  readonly gpx?: string | undefined;
  readonly geojson?: string | undefined;
  readonly points?:
    | readonly {
        readonly latitude: number;
        readonly longitude: number;
        readonly elevation_m?: number | undefined;
      }[]
    | undefined;
}

/**
 * Reads the route of a tool call, turning every `RouteInputError` into a
 * tool error with its message (which names the problem and, when known,
 * the line or point). The seam for any tool that takes a route.
 */
export function readRouteArguments(input: RouteArguments): ParsedRoute {
  const given = (['gpx', 'geojson', 'points'] as const).filter((key) => input[key] !== undefined);
  if (given.length !== 1)
    throw new ToolError(
      given.length === 0
        ? 'Give the route as one of gpx (GPX text), geojson (GeoJSON text) or points (a list of { latitude, longitude }).'
        : `Give the route once: ${given.join(' and ')} were both given; keep one.`,
    );
  try {
    if (input.gpx !== undefined) return parseGpx(input.gpx);
    if (input.geojson !== undefined) return parseGeoJsonLine(input.geojson);
    return parsePointList(
      (input.points ?? []).map((p) => ({ lat: p.latitude, lon: p.longitude, ele: p.elevation_m })),
    );
  } catch (error) {
    if (error instanceof RouteInputError) throw new ToolError(`${error.message} [${error.code}]`);
    throw error;
  }
}
