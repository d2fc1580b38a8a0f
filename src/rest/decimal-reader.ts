/**
 * The query reader's number, read in place: what `parseDecimal`
 * (`src/core/parameters.ts`, the API's one grammar of a number) answers for
 * `text.slice(start, end)`, without cutting that slice out or running the
 * grammar's regular expression on it. Together they were a third of the
 * compiled query reader's time on a new URL (decision 0036).
 *
 * A number of at most 15 digits and no exponent, the form every client
 * sends, is worked out from its digits: the digits as an integer (exact below
 * 2^53) divided by a power of ten (exact up to 10^22) is the correctly rounded
 * value, which is what `Number` gives. Anything longer, or with an exponent,
 * is checked here and left to `Number`. `tests/unit/decimal-reader.test.ts`
 * holds it equal to `parseDecimal` on generated text.
 */
const POWERS_OF_TEN = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];
const FAST_DIGITS = 15;

const digitAt = (text: string, index: number): number => text.charCodeAt(index) - 0x30;
const isDigit = (value: number): boolean => value >= 0 && value <= 9;

/** `parseDecimal(text.slice(start, end))`, read in place. */
export function readDecimal(text: string, start: number, end: number): number | undefined {
  let i = start;
  const negative = i < end && text.charCodeAt(i) === 0x2d;
  if (negative) i += 1;
  let digits = 0;
  let fraction = 0;
  let mantissa = 0;
  for (let d = digitAt(text, i); i < end && isDigit(d); d = digitAt(text, ++i)) {
    mantissa = mantissa * 10 + d;
    digits += 1;
  }
  if (i < end && text.charCodeAt(i) === 0x2e) {
    for (let d = digitAt(text, ++i); i < end && isDigit(d); d = digitAt(text, ++i)) {
      mantissa = mantissa * 10 + d;
      fraction += 1;
    }
  }
  // "", "-", "." and "-." have no digit.
  if (digits + fraction === 0) return undefined;
  if (i < end) return exponentForm(text, start, i, end);
  if (digits + fraction > FAST_DIGITS) return finite(Number(text.slice(start, end)));
  const magnitude = fraction === 0 ? mantissa : mantissa / (POWERS_OF_TEN[fraction] ?? Number.NaN);
  return negative ? -magnitude : magnitude;
}

/** A number whose digits end at `at`: valid only as `e`/`E`, an optional sign and digits to `end`. */
function exponentForm(text: string, start: number, at: number, end: number): number | undefined {
  const e = text.charCodeAt(at);
  if (e !== 0x65 && e !== 0x45) return undefined;
  let i = at + 1;
  const sign = text.charCodeAt(i);
  if (i < end && (sign === 0x2b || sign === 0x2d)) i += 1;
  if (i >= end) return undefined;
  for (; i < end; i += 1) if (!isDigit(digitAt(text, i))) return undefined;
  return finite(Number(text.slice(start, end)));
}

const finite = (value: number): number | undefined => (Number.isFinite(value) ? value : undefined);
