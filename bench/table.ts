/**
 * The one table printer of the measurement scripts (`npm run bench`, `npm run size`): plain
 * text, each column as wide as its widest cell, numbers right-aligned, so a table reads the same
 * in a terminal, a CI log and a pasted issue comment.
 */
export function table(
  headers: readonly string[],
  rows: readonly (readonly string[])[],
  /** Indexes of the columns to right-align (numbers). */
  right: readonly number[] = [],
): string {
  const widths = headers.map((header, i) =>
    Math.max(header.length, ...rows.map((row) => (row[i] ?? '').length)),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, i) => (right.includes(i) ? cell.padStart(widths[i] ?? 0) : cell.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(headers), widths.map((width) => '-'.repeat(width)).join('  '), ...rows.map(line)].join('\n');
}
