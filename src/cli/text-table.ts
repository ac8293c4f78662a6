/** Numbers, percentages and the "-" placeholder line up on the right; everything else on the left. */
const NUMERIC = /^(?:-?[0-9][0-9,.]*%?|-)$/;

/** A plain-text table for the terminal: two spaces between columns, no trailing spaces. */
export function renderTable(
  header: readonly string[],
  rows: readonly (readonly (string | number)[])[],
): string[] {
  const cells = [header, ...rows.map((row) => row.map(String))];
  const right = header.map(
    (_, i) => rows.length > 0 && rows.every((row) => NUMERIC.test(String(row[i] ?? ''))),
  );
  const widths = header.map((_, i) => Math.max(...cells.map((row) => [...(row[i] ?? '')].length)));
  return cells.map((row) =>
    row
      .map((cell, i) => (right[i] ? cell.padStart(widths[i] ?? 0) : cell.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd(),
  );
}
