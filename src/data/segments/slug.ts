import { foldName } from '../names.ts';

/** Longest id the catalog accepts (`SegmentPropertiesSchema`). */
const MAX_ID_LENGTH = 100;

/**
 * A catalog id from a name: `fr` + "Col d'Ornon" → `fr-col-d-ornon`. Only
 * ASCII letters and digits survive, so a name in another script leaves
 * little: callers that may meet one add something unique (an OSM way id).
 */
export function slugify(country: string, name: string): string {
  return `${country.toLowerCase()}-${foldName(name)}`
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, MAX_ID_LENGTH)
    .replace(/^-+|-+$/g, '');
}
