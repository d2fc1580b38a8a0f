/**
 * One forecast hour: the 10 m wind and 2 m temperature at the start of the
 * hour (UTC), and the precipitation expected DURING the hour that starts
 * then (what a rider setting out at `time` gets). Declared here, in core,
 * because the window maths is its lowest reader; the forecast sources fill
 * it, and every figure they hand out has passed their `validateHours`
 * (src/data/forecast/validate.ts): no impossible value reaches a caller.
 */
export interface WindHour {
  /** Unix seconds, on the hour. */
  readonly time: number;
  readonly speedKmh: number;
  /** Direction the wind blows FROM, degrees. */
  readonly directionDeg: number;
  /** Null when the provider has no gust value for the hour. */
  readonly gustsKmh: number | null;
  /** Air temperature at 2 m, °C; null when the provider has none. */
  readonly temperatureC: number | null;
  /** Rain, showers and snow (water equivalent) during the hour, mm; null when unknown. */
  readonly precipitationMm: number | null;
  /** Chance of more than 0.1 mm during the hour, percent; null when unknown. */
  readonly precipitationProbabilityPct: number | null;
}
