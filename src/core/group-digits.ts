/**
 * An integer with its thousands grouped by commas, as `toLocaleString('en')`
 * writes it ("50,000"). Text built when a module loads (a tool's schema
 * description) uses this instead: a process's first `toLocaleString` loads
 * ICU's number formatting, about 5–15 ms of a cold serverless start.
 */
export function groupDigits(value: number): string {
  if (!Number.isSafeInteger(value)) return value.toLocaleString('en');
  const digits = String(Math.abs(value));
  const grouped = digits.replace(/\B(?=(\d{3})+$)/g, ',');
  return value < 0 ? `-${grouped}` : grouped;
}
