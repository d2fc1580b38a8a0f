/**
 * The readers the settings share for a variable's text: each returns the value
 * or `undefined` for text it refuses, which `settingField` turns into a
 * refusal naming the variable. Written here rather than with zod's coercions
 * because a blank value must mean "the default" and a refusal must quote the
 * operator's own text.
 */

/** A whole number within `[min, max]`. */
export function wholeNumber(min: number, max: number) {
  return (text: string): number | undefined => {
    const value = Number(text);
    return Number.isInteger(value) && value >= min && value <= max ? value : undefined;
  };
}

export function positiveNumber(text: string): number | undefined {
  const value = Number(text);
  return Number.isFinite(value) && value > 0 ? value : undefined;
}

/** Exactly one of the given words. */
export function oneOf<const T extends string>(...choices: T[]) {
  return (text: string): T | undefined => choices.find((choice) => choice === text);
}

/** An http(s) URL without its trailing slash, as the link builders join paths onto it. */
export function httpUrl(text: string): string | undefined {
  const url = URL.parse(text);
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) return undefined;
  return text.endsWith('/') ? text.slice(0, -1) : text;
}

/** A comma-separated list, blanks dropped. */
export const list = (text: string): readonly string[] =>
  text
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

/** `1`/`true` or `0`/`false`, in any case. */
export const flag = (text: string): boolean | undefined =>
  ({ '1': true, true: true, '0': false, false: false })[text.toLowerCase()];

/** Any non-blank text, taken as it is. */
export const anyText = (text: string): string => text;
