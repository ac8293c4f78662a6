// Small statistics and formatting helpers for the benchmark report.

/** Nearest-rank percentile of a list of numbers (p in 0..100); undefined for an empty list. */
export function percentile(values, p) {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(sorted.length, rank) - 1];
}

/** Median (mean of the two middle values for an even count), min and max. */
export function spread(values) {
  const clean = values.filter((v) => typeof v === 'number' && Number.isFinite(v));
  if (clean.length === 0) return { median: undefined, min: undefined, max: undefined, n: 0 };
  const sorted = [...clean].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  return { median, min: sorted[0], max: sorted[sorted.length - 1], n: sorted.length };
}

export function round(value, digits = 2) {
  if (value === undefined || value === null || !Number.isFinite(value)) return value;
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/** A number for a table cell: adaptive precision, `—` when absent. */
export function fmt(value, unit = '') {
  if (value === undefined || value === null || Number.isNaN(value)) return '—';
  const abs = Math.abs(value);
  const text =
    abs >= 100
      ? value.toFixed(0)
      : abs >= 10
        ? value.toFixed(1)
        : abs >= 1
          ? value.toFixed(2)
          : value.toFixed(3);
  return `${text}${unit}`;
}

/** Renders rows (arrays of strings) as an aligned plain-text table with a header rule. */
export function textTable(header, rows) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i] ?? '').length)));
  const line = (cells) =>
    cells
      .map((c, i) => String(c ?? '').padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/** The same rows as a Markdown table. */
export function markdownTable(header, rows) {
  return [
    `| ${header.join(' | ')} |`,
    `|${header.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');
}
