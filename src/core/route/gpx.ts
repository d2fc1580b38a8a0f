import { RouteInputError } from './route-error.ts';
import {
  checkPointCount,
  finishRoute,
  routeCoordinate,
  routeElevation,
  type ParsedRoute,
  type RoutePoint,
} from './route-input.ts';
import { MAX_ROUTE_BYTES, MAX_ROUTE_POINTS } from './route-limits.ts';

/** The UTF-8 size of a text, measured only when its length leaves the answer open. */
function exceedsBytes(text: string, limit: number): boolean {
  if (text.length > limit) return true; // every UTF-16 unit is at least one UTF-8 byte
  if (text.length * 3 <= limit) return false; // and at most three
  return new TextEncoder().encode(text).length > limit;
}

/** Refuses a route file over {@link MAX_ROUTE_BYTES}, naming both sizes. */
export function checkRouteSize(text: string, what: string): void {
  if (exceedsBytes(text, MAX_ROUTE_BYTES))
    throw new RouteInputError(
      'too_large',
      `${what} is larger than the ${MAX_ROUTE_BYTES / 1024 / 1024} MB a route may be (${(text.length / 1024 / 1024).toFixed(1)} M characters). Simplify the track or export it without sensor extensions.`,
    );
}

const PREDEFINED_ENTITIES: Readonly<Record<string, string>> = {
  lt: '<',
  gt: '>',
  amp: '&',
  quot: '"',
  apos: "'",
};

/** Replaces XML's five predefined entities and character references; any other `&name;` is left as written. */
function decodeText(text: string): string {
  return text
    .replace(/&(#x[0-9a-fA-F]{1,6}|#[0-9]{1,7}|[A-Za-z]{2,4});/g, (whole, ref: string) => {
      if (ref.startsWith('#')) {
        const code = ref[1] === 'x' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
        return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff)
          ? String.fromCodePoint(code)
          : whole;
      }
      return PREDEFINED_ENTITIES[ref] ?? whole;
    })
    .trim();
}

const TAG_NAME = /^\/?\s*(?:[\w.-]+:)?([\w.-]+)/;
const LAT_ATTRIBUTE = /\slat\s*=\s*(?:"([^"]*)"|'([^']*)')/;
const LON_ATTRIBUTE = /\slon\s*=\s*(?:"([^"]*)"|'([^']*)')/;

type PointKind = 'trkpt' | 'rtept';

interface OpenPoint {
  readonly kind: PointKind;
  readonly lat: number;
  readonly lon: number;
  ele?: number;
}

function attributeValue(pattern: RegExp, inner: string): string | undefined {
  const match = pattern.exec(inner);
  return match === null ? undefined : (match[1] ?? match[2]);
}

/**
 * Reads the points of a GPX file without an XML library: one pass over the
 * text, tag by tag, with `indexOf` (linear in the file's size whatever it
 * holds, so no crafted file can make it backtrack). GPX points are flat
 * (`<trkpt lat lon>` with an optional `<ele>` child), so this covers every
 * GPX 1.0/1.1 file from route planners and bike computers without a
 * dependency in the server bundle or the browser. Entity expansion is
 * impossible by construction: only XML's five predefined entities and
 * character references are decoded. A DOCTYPE or ENTITY declaration is
 * refused with `xml_entities` rather than silently skipped, because a file
 * that declares entities means its text to be read through them.
 *
 * Track points win over route points; the segments of a multi-segment track
 * (and several tracks) are joined in order. The name is that of the track or
 * route holding the first point, else the file's metadata name.
 */
export function parseGpx(text: string): ParsedRoute {
  checkRouteSize(text, 'The GPX file');
  const lineAt = (offset: number): number => {
    let line = 1;
    for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++;
    return line;
  };
  const start = text.search(/\S/);
  if (start === -1) throw new RouteInputError('not_gpx', 'The GPX file is empty');
  if (text[start] !== '<' && text.charCodeAt(start) !== 0xfeff)
    throw new RouteInputError(
      'not_gpx',
      `Not a GPX file: no <gpx> element${text[start] === '{' || text[start] === '[' ? ' (the text looks like JSON; GeoJSON is read separately)' : ''}`,
    );

  const points: Record<PointKind, { point: OpenPoint; offset: number }[]> = { trkpt: [], rtept: [] };
  /** Names by container: index 0 of `trk` is the first track's name. */
  const names: Record<'trk' | 'rte' | 'metadata', (string | undefined)[]> = {
    trk: [],
    rte: [],
    metadata: [],
  };
  const count: Record<'trk' | 'rte' | 'metadata', number> = { trk: -1, rte: -1, metadata: -1 };
  const firstContainer: Record<PointKind, number> = { trkpt: -1, rtept: -1 };
  const stack: string[] = [];
  let sawGpx = false;
  let current: { point: OpenPoint; offset: number } | undefined;
  let capture: { field: 'ele' | 'trk' | 'rte' | 'metadata'; text: string } | undefined;

  const closed = (what: string, from: number, end: number): number => {
    if (end === -1)
      throw new RouteInputError(
        'malformed_xml',
        `The GPX file breaks off: ${what} opened on line ${lineAt(from)} is never closed`,
        {
          line: lineAt(from),
        },
      );
    return end;
  };

  let pos = 0;
  while (pos < text.length) {
    const lt = text.indexOf('<', pos);
    if (capture !== undefined) capture.text += text.slice(pos, lt === -1 ? text.length : lt);
    if (lt === -1) break;
    if (text.startsWith('<!--', lt)) {
      pos = closed('a comment', lt, text.indexOf('-->', lt + 4)) + 3;
      continue;
    }
    if (text.startsWith('<![CDATA[', lt)) {
      const end = closed('a CDATA section', lt, text.indexOf(']]>', lt + 9));
      if (capture !== undefined) capture.text += text.slice(lt + 9, end).replace(/&/g, '&amp;');
      pos = end + 3;
      continue;
    }
    if (text.startsWith('<!', lt)) {
      const declaration = /^<!\s*([A-Za-z]*)/.exec(text.slice(lt, lt + 20))?.[1]?.toUpperCase() ?? '';
      const line = lineAt(lt);
      if (declaration === 'DOCTYPE' || declaration === 'ENTITY')
        throw new RouteInputError(
          'xml_entities',
          `The GPX file declares ${declaration === 'DOCTYPE' ? 'a DOCTYPE' : 'an ENTITY'} on line ${line}. GPX needs no DTD, and entity declarations are refused because they can hide or multiply the file's content; export the file again or delete the <!${declaration} …> block.`,
          { line },
        );
      throw new RouteInputError(
        'malformed_xml',
        `The GPX file has an unknown <!${declaration}> declaration on line ${line}`,
        {
          line,
        },
      );
    }
    if (text.startsWith('<?', lt)) {
      pos = closed('a processing instruction', lt, text.indexOf('?>', lt + 2)) + 2;
      continue;
    }
    const gt = closed('a tag', lt, text.indexOf('>', lt + 1));
    pos = gt + 1;
    const inner = text.slice(lt + 1, gt);
    const name = TAG_NAME.exec(inner)?.[1];
    if (name === undefined) continue; // a stray "<" in text; GPX writers escape it, readers shrug
    if (inner.startsWith('/')) {
      const at = stack.lastIndexOf(name);
      if (at !== -1) stack.length = at;
      if (capture !== undefined && (name === 'ele' || name === 'name')) {
        const value = decodeText(capture.text);
        if (capture.field === 'ele') {
          const ele = routeElevation(value);
          if (current !== undefined && ele !== undefined) current.point.ele = ele;
        } else {
          const list = names[capture.field];
          const index = count[capture.field];
          if (list[index] === undefined && value !== '') list[index] = value;
        }
        capture = undefined;
      }
      if ((name === 'trkpt' || name === 'rtept') && current !== undefined) {
        points[current.point.kind].push(current);
        current = undefined;
      }
      continue;
    }
    const selfClosing = inner.endsWith('/');
    const parent = stack.at(-1);
    if (name === 'gpx') sawGpx = true;
    if (name === 'trk' || name === 'rte' || name === 'metadata') count[name]++;
    if (name === 'trkpt' || name === 'rtept') {
      // A point left open (its end tag missing) still counts, once.
      if (current !== undefined) points[current.point.kind].push(current);
      const list = points[name];
      const number = list.length + 1;
      if (number > MAX_ROUTE_POINTS) checkPointCount(number, 'The GPX file');
      const line = (): number => lineAt(lt);
      const read = (axis: 'lat' | 'lon'): number => {
        const raw = attributeValue(axis === 'lat' ? LAT_ATTRIBUTE : LON_ATTRIBUTE, inner);
        try {
          return routeCoordinate(raw, axis, `GPX ${name} ${number}`, { point: number }, 'attribute');
        } catch {
          // Counting lines is linear in the offset: done only for the message.
          return routeCoordinate(
            raw,
            axis,
            `GPX ${name} ${number}`,
            { point: number, line: line() },
            'attribute',
          );
        }
      };
      const point: OpenPoint = { kind: name, lat: read('lat'), lon: read('lon') };
      if (firstContainer[name] === -1) firstContainer[name] = count[name === 'trkpt' ? 'trk' : 'rte'];
      current = { point, offset: lt };
      if (selfClosing) {
        list.push(current);
        current = undefined;
      }
    } else if (!selfClosing && name === 'ele' && current !== undefined) {
      capture = { field: 'ele', text: '' };
    } else if (
      !selfClosing &&
      name === 'name' &&
      current === undefined &&
      (parent === 'trk' || parent === 'rte' || parent === 'metadata')
    ) {
      capture = { field: parent, text: '' };
    }
    if (!selfClosing) stack.push(name);
  }

  if (!sawGpx) throw new RouteInputError('not_gpx', 'Not a GPX file: no <gpx> element');
  if (current !== undefined) points[current.point.kind].push(current);
  const kind: PointKind = points.trkpt.length > 0 ? 'trkpt' : 'rtept';
  const chosen = points[kind];
  if (chosen.length === 0)
    throw new RouteInputError(
      'no_points',
      'The GPX file has no track or route points (<trkpt> or <rtept>); waypoints alone are not a route',
    );
  const container = kind === 'trkpt' ? 'trk' : 'rte';
  const name = names[container][firstContainer[kind]] ?? names.metadata[0];
  const route: RoutePoint[] = chosen.map(({ point: { lat, lon, ele } }) =>
    ele === undefined ? { lat, lon } : { lat, lon, ele },
  );
  return finishRoute(route, 'The GPX file', name);
}
