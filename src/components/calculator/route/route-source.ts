import { parseDecimal } from '../../../core/parameters.ts';
import { parseGeoJsonLine } from '../../../core/route/geojson-line.ts';
import { checkRouteSize, parseGpx } from '../../../core/route/gpx.ts';
import { RouteInputError } from '../../../core/route/route-error.ts';
import { parsePointList, type ParsedRoute } from '../../../core/route/route-input.ts';

/**
 * The pasted-points form: one `latitude, longitude` pair per line (a comma,
 * semicolon, tab or spaces between them), blank lines and `#` comments
 * skipped. Only the splitting is done here; each number is read with the
 * API's strict decimal grammar and the list goes to the core's point reader,
 * so ranges, duplicates and one-point lists get the same messages as a file.
 */
function readPointLines(text: string): ParsedRoute {
  const points: { lat: number; lon: number }[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.replace(/#.*/, '').trim();
    if (line === '') return;
    const parts = line.split(/\s*[,;\t]\s*|\s+/);
    const [lat, lon] = parts.map((part) => parseDecimal(part));
    if (parts.length !== 2 || lat === undefined || lon === undefined)
      throw new RouteInputError(
        'bad_coordinate',
        `Line ${index + 1} is not a "latitude, longitude" pair: "${line.slice(0, 60)}"`,
        { line: index + 1 },
      );
    points.push({ lat, lon });
  });
  return parsePointList(points);
}

/**
 * Reads a route from text of any kind the page accepts, telling the kinds
 * apart by their first character: `<` is GPX, `{` GeoJSON, `[` a JSON list
 * of `{ lat, lon }` points, anything else pasted coordinate lines. A byte
 * order mark and leading blank space are ignored.
 */
export function readRouteText(text: string): ParsedRoute {
  checkRouteSize(text, 'The route');
  const start = text.replace(/^\uFEFF/, '').trimStart();
  if (start === '') throw new RouteInputError('no_points', 'The route is empty: there is nothing to read');
  if (start.startsWith('<')) return parseGpx(start);
  if (start.startsWith('{')) return parseGeoJsonLine(start);
  if (start.startsWith('[')) {
    let list: unknown;
    try {
      list = JSON.parse(start);
    } catch (error) {
      throw new RouteInputError(
        'not_geojson',
        `The point list is not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    return parsePointList(list);
  }
  return readPointLines(start);
}
