import { checkRouteSize } from './gpx.ts';
import { RouteInputError } from './route-error.ts';
import {
  checkPointCount,
  finishRoute,
  routeCoordinate,
  routeElevation,
  type ParsedRoute,
} from './route-input.ts';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const notGeoJson = (message: string): RouteInputError => new RouteInputError('not_geojson', message);

/** The one LineString of a geometry, Feature or FeatureCollection, with the feature's name. */
function findLine(value: Json): { coordinates: unknown; name?: string } {
  switch (value['type']) {
    case 'LineString':
      return { coordinates: value['coordinates'] };
    case 'MultiLineString':
      throw new RouteInputError(
        'several_lines',
        'The GeoJSON is a MultiLineString; send the ride as one LineString (join its parts in riding order), so the direction of travel is unambiguous',
      );
    case 'Feature': {
      const geometry = value['geometry'];
      if (!isObject(geometry)) throw new RouteInputError('no_points', 'The GeoJSON Feature has no geometry');
      if (geometry['type'] !== 'LineString' && geometry['type'] !== 'MultiLineString')
        throw notGeoJson(
          `The GeoJSON Feature's geometry is a ${String(geometry['type'])}; a route is a LineString`,
        );
      const line = findLine(geometry);
      const properties = value['properties'];
      const name =
        isObject(properties) && typeof properties['name'] === 'string' ? properties['name'].trim() : '';
      return name === '' ? line : { ...line, name };
    }
    case 'FeatureCollection': {
      const features = value['features'];
      if (!Array.isArray(features)) throw notGeoJson('The GeoJSON FeatureCollection has no "features" list');
      const lines = features.filter(
        (f: unknown) =>
          isObject(f) &&
          isObject(f['geometry']) &&
          (f['geometry']['type'] === 'LineString' || f['geometry']['type'] === 'MultiLineString'),
      );
      if (lines.length === 0)
        throw new RouteInputError('no_points', 'The GeoJSON FeatureCollection holds no LineString feature');
      if (lines.length > 1)
        throw new RouteInputError(
          'several_lines',
          `The GeoJSON FeatureCollection holds ${lines.length} line features; send exactly one (the ride, in riding order)`,
        );
      return findLine(lines[0] as Json);
    }
    default:
      throw notGeoJson(
        `The GeoJSON "type" is ${JSON.stringify(value['type'])?.slice(0, 40) ?? 'missing'}; a route is a LineString, a Feature of one, or a FeatureCollection holding one`,
      );
  }
}

/**
 * Reads a route from GeoJSON: a LineString, a Feature of one, or a
 * FeatureCollection with exactly one line feature (points and polygons
 * beside it, e.g. markers a planner exported, are ignored). A
 * MultiLineString is refused rather than joined: its parts need not be in
 * riding order or touch, and a wrong join would invert the wind on whole
 * stretches. Positions are `[lon, lat]` or `[lon, lat, ele]`. A string is
 * parsed as JSON first (size-checked like a GPX file).
 */
export function parseGeoJsonLine(value: unknown): ParsedRoute {
  let json = value;
  if (typeof value === 'string') {
    checkRouteSize(value, 'The GeoJSON');
    try {
      json = JSON.parse(value);
    } catch (error) {
      throw notGeoJson(
        `The GeoJSON is not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
  if (!isObject(json)) throw notGeoJson('The GeoJSON must be an object with a "type"');
  const { coordinates, name } = findLine(json);
  if (!Array.isArray(coordinates)) throw notGeoJson('The GeoJSON LineString has no "coordinates" list');
  checkPointCount(coordinates.length, 'The GeoJSON line');
  const points = coordinates.map((position: unknown, index) => {
    const label = `GeoJSON position ${index + 1}`;
    const location = { point: index + 1 };
    if (!Array.isArray(position) || position.length < 2)
      throw new RouteInputError('bad_coordinate', `${label} is not a [lon, lat] pair`, location);
    const point = {
      lon: routeCoordinate(position[0], 'lon', label, location),
      lat: routeCoordinate(position[1], 'lat', label, location),
    };
    const ele = routeElevation(position[2]);
    return ele === undefined ? point : { ...point, ele };
  });
  return finishRoute(points, 'The GeoJSON line', name);
}
