/**
 * Folds a place or segment name to the form lookups compare: accents and other
 * combining marks removed, lower case, and every run of punctuation or spaces
 * turned into one space. So "Le Bourg-d'Oisans", "le bourg d oisans" and
 * "LE BOURG D'OISANS" meet, and "Zürich" matches "zurich".
 */
export function foldName(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/ß/g, 'ss')
    .replace(/[Łł]/g, 'l')
    .replace(/[Øø]/g, 'o')
    .replace(/[Ææ]/g, 'ae')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}
