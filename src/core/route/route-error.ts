/**
 * What is wrong with a route a rider sent. The codes are stable: pages and
 * tools may switch on them; the message is for the rider and may change.
 */
export type RouteInputErrorCode =
  /** The file is larger than {@link MAX_ROUTE_BYTES}. */
  | 'too_large'
  /** More points than {@link MAX_ROUTE_POINTS}. */
  | 'too_many_points'
  /** Longer than {@link MAX_ROUTE_LENGTH_M}. */
  | 'too_long'
  /** Text that is not GPX at all (no `<gpx>` element). */
  | 'not_gpx'
  /** A DOCTYPE or ENTITY declaration, refused rather than expanded or misread. */
  | 'xml_entities'
  /** GPX whose markup breaks off (a tag, comment or CDATA section never closed). */
  | 'malformed_xml'
  /** A value that is not GeoJSON, or GeoJSON of the wrong kind. */
  | 'not_geojson'
  /** A MultiLineString or a collection with several lines: which one to ride is ambiguous. */
  | 'several_lines'
  /** No points at all. */
  | 'no_points'
  /** One point: no direction of travel. */
  | 'one_point'
  /** Several points, all at the same place. */
  | 'zero_length'
  /** A latitude or longitude missing, not a number or out of range. */
  | 'bad_coordinate'
  /** A loop or out-and-back given as a segment: it has no one direction (refused by own segments only). */
  | 'closed_route';

/** Where in the input the problem is, when it can be said. */
export interface RouteInputLocation {
  /** 1-based line of the GPX file. */
  readonly line?: number;
  /** 1-based number of the point in the input (before duplicates are dropped). */
  readonly point?: number;
}

/** The one error every route reader throws; `code` says what, `message` says it to the rider. */
export class RouteInputError extends Error {
  readonly code: RouteInputErrorCode;
  readonly line: number | undefined;
  readonly point: number | undefined;

  constructor(code: RouteInputErrorCode, message: string, location: RouteInputLocation = {}) {
    super(message);
    this.name = 'RouteInputError';
    this.code = code;
    this.line = location.line;
    this.point = location.point;
  }
}

/**
 * A route error's message as a sentence, ending in one full stop: some
 * messages end with a clause ("no track or route points"), others with a
 * sentence of their own ("… Split it into shorter segments."), and adding a
 * stop to every one left the loop refusal with two.
 */
export function asSentence(message: string): string {
  const trimmed = message.trimEnd();
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}
