/**
 * The colour scale of the along-track wind. Diverging red (against you) to
 * blue (with you) around a grey calm band: ColorBrewer's RdBu, chosen over
 * red–green so the two ends stay apart for the commonest colour-vision
 * deficiencies; each band also has words in the legend, and arrows carry the
 * direction, so colour is never the only cue. The same colours are used over
 * the basemap and in the fallback drawing, so the legend fits both.
 */

export interface WindBand {
  /** Lowest signed tailwind (km/h) in the band, inclusive; `-Infinity` for the first. */
  readonly from: number;
  readonly colour: string;
  /** The legend's words for the band. */
  readonly label: string;
}

/** The bands in increasing order of tailwind; the calm band is ±5 km/h (about a third of a breeze you notice on a bike). */
export const WIND_BANDS: readonly WindBand[] = [
  { from: Number.NEGATIVE_INFINITY, colour: '#b2182b', label: 'Headwind above 15 km/h' },
  { from: -15, colour: '#ef8a62', label: 'Headwind 5–15 km/h' },
  { from: -5, colour: '#8a8f99', label: 'Within 5 km/h of calm' },
  { from: 5, colour: '#4393c3', label: 'Tailwind 5–15 km/h' },
  { from: 15, colour: '#2166ac', label: 'Tailwind above 15 km/h' },
];

/** The colour of a line with no wind values: the calm band's grey would claim a calm it does not know. */
export const UNKNOWN_WIND_COLOUR = '#5b3f9e';

/** The band a signed tailwind (km/h) falls in; a value on a boundary belongs to the band above it. */
export function windBand(signedTailwindKmh: number): WindBand {
  let band = WIND_BANDS[0] as WindBand;
  for (const candidate of WIND_BANDS) if (signedTailwindKmh >= candidate.from) band = candidate;
  return band;
}

/** The colour of one part of a line; a missing or non-finite value gets the unknown colour. */
export function windColour(signedTailwindKmh: number | undefined): string {
  return signedTailwindKmh === undefined || !Number.isFinite(signedTailwindKmh)
    ? UNKNOWN_WIND_COLOUR
    : windBand(signedTailwindKmh).colour;
}
