/**
 * Every query parameter the API reads, with its bounds and wording. Declared
 * once here (pure data, no zod) so the zod schemas, the problem hints, the
 * OpenAPI document and the browser calculator all say the same thing.
 */
export const PARAMETERS = {
  wind_speed_kmh: {
    label: 'Wind speed',
    min: 0,
    max: 300,
    unit: 'km/h',
    example: 20,
    description: 'Wind speed in km/h (the 10 m meteorological wind).',
  },
  wind_direction_deg: {
    label: 'Wind direction',
    min: 0,
    max: 360,
    unit: 'degrees',
    example: 250,
    description: 'Direction the wind comes FROM, in degrees (0 = north, 90 = east).',
  },
  segment_bearing_deg: {
    label: 'Segment bearing',
    min: 0,
    max: 360,
    unit: 'degrees',
    example: 80,
    description: 'Direction of travel in degrees (0 = north, 90 = east).',
  },
  start_lat: {
    label: 'Start latitude',
    min: -90,
    max: 90,
    unit: 'degrees',
    example: 45.0565,
    description: 'Segment start latitude in decimal degrees (WGS 84).',
  },
  start_lon: {
    label: 'Start longitude',
    min: -180,
    max: 180,
    unit: 'degrees',
    example: 6.0307,
    description: 'Segment start longitude in decimal degrees (WGS 84).',
  },
  end_lat: {
    label: 'End latitude',
    min: -90,
    max: 90,
    unit: 'degrees',
    example: 45.0922,
    description: 'Segment end latitude in decimal degrees (WGS 84).',
  },
  end_lon: {
    label: 'End longitude',
    min: -180,
    max: 180,
    unit: 'degrees',
    example: 6.0703,
    description: 'Segment end longitude in decimal degrees (WGS 84).',
  },
} as const;

export type ParameterName = keyof typeof PARAMETERS;

/** The four coordinates, in the order a missing one is reported. */
export const COORDINATE_PARAMETERS = ['start_lat', 'start_lon', 'end_lat', 'end_lon'] as const;

/**
 * The sentence that tells a caller how to send a parameter right; used as the
 * problem `hint` and as the calculator's inline message, so they never drift.
 */
export function rangeHint(name: ParameterName): string {
  const { min, max, unit, example } = PARAMETERS[name];
  return `Send ${name} as a number from ${min} to ${max} (${unit}), for example ${name}=${example}.`;
}

/**
 * Strict decimal grammar: optional minus, digits with an optional fraction,
 * optional exponent. Rejects what `Number()` would quietly accept: empty
 * strings, spaces, hex, `Infinity`, `NaN`, binary and octal forms.
 */
const DECIMAL = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** Reads a decimal number, or returns `undefined` when the text is not one. */
export function parseDecimal(text: string): number | undefined {
  if (!DECIMAL.test(text)) return undefined;
  const value = Number(text);
  return Number.isFinite(value) ? value : undefined;
}

/** A field read for the calculator: its number, or the API's hint for it. */
export type FieldReading =
  { readonly value: number } | { readonly problem: 'invalid_parameter'; readonly hint: string } | undefined;

/**
 * Reads one form field the way the API reads the query parameter of the
 * same name: blank is "not sent", a strict decimal within the bounds is a
 * value, anything else is invalid with the same hint the API would give.
 */
export function readField(name: ParameterName, text: string): FieldReading {
  if (text === '') return undefined;
  const value = parseDecimal(text);
  const { min, max } = PARAMETERS[name];
  if (value === undefined || value < min || value > max) {
    return { problem: 'invalid_parameter', hint: rangeHint(name) };
  }
  return { value };
}
