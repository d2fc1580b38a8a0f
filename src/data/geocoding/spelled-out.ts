/**
 * Letters that a name written without them spells out in more than one way:
 * German umlauts as "ae", "oe", "ue" (DIN 5007-2: "Muenchen", "Zuerich",
 * "Tuebingen"), and the Spanish "ñ" as "nn", the double n it abbreviates,
 * which older English names keep ("Corunna" for A Coruña). Folding
 * (`foldName`) only drops the marks ("munchen", "coruna"); the gazetteer
 * also keeps the spelled-out form of each name that has these letters, so a
 * rider typing either finds the place.
 */
const SPELLED_OUT: Readonly<Record<string, string>> = {
  ä: 'ae',
  ö: 'oe',
  ü: 'ue',
  Ä: 'Ae',
  Ö: 'Oe',
  Ü: 'Ue',
  ñ: 'nn',
  Ñ: 'Nn',
};
const LETTERS = /[äöüÄÖÜñÑ]/g;
/** The letters, or the combining diaeresis and tilde of a decomposed name: a quick test before normalizing. */
const MAYBE = /[äöüÄÖÜñÑ]|\u0308|\u0303/;

/** `name` with its umlauts and "ñ" spelled out, or null when it has none. */
export function spelledOut(name: string): string | null {
  if (!MAYBE.test(name)) return null;
  const composed = name.normalize('NFC');
  const spelled = composed.replace(LETTERS, (letter) => SPELLED_OUT[letter] ?? letter);
  return spelled === composed ? null : spelled;
}
