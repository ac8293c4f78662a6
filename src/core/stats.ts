/**
 * Usage statistics from audit records, for `meshlens stats`: pure functions over rows already read, so the
 * figures are testable to the digit and never depend on the clock except through `parseSince`'s `now`.
 */

/** What the computation needs of an audit row (the store's `AuditRow` satisfies it). */
export interface StatsRow {
  readonly time: string;
  readonly session: string;
  readonly operation: string;
  readonly status: string;
  readonly elapsedMs: number;
  readonly filesRead: readonly string[];
}

/** Fewer calls than this and a 95th percentile is one of the slowest few samples, not a percentile. */
export const P95_MIN_CALLS = 20;
export const TOP_FILES = 10;
/** Statuses counted as errors: the call did not produce its answer. */
export const ERROR_STATUSES: ReadonlySet<string> = new Set(['error', 'invalid', 'refused']);

export interface OperationStats {
  readonly operation: string;
  readonly calls: number;
  readonly errors: number;
  /** errors / calls, rounded to 4 decimals. */
  readonly error_rate: number;
  readonly p50_ms: number;
  /** `"-"` below {@link P95_MIN_CALLS} calls. */
  /** Null below the number of calls a 95th percentile needs. */
  readonly p95_ms: number | null;
}

export interface SessionStats {
  readonly session: string;
  readonly calls: number;
  readonly errors: number;
  readonly error_rate: number;
  readonly first: string;
  readonly last: string;
}

export interface FileStats {
  readonly path: string;
  /** Calls whose answer included the file. */
  readonly calls: number;
}

export interface UsageStats {
  readonly calls: number;
  readonly errors: number;
  readonly error_rate: number;
  /** Most calls first, then by name. */
  readonly operations: readonly OperationStats[];
  /** Earliest first, then by id. */
  readonly sessions: readonly SessionStats[];
  /** Top {@link TOP_FILES}: most calls first, then by path. */
  readonly top_files: readonly FileStats[];
}

export type SinceResult =
  | { readonly kind: 'all' }
  | { readonly kind: 'window'; readonly sinceMs: number }
  | { readonly kind: 'invalid'; readonly message: string };

const UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/**
 * `<N>s|m|h|d` or `all`. Only ASCII digits and units are accepted: `\d` and `toLowerCase` would let other
 * scripts' digits or letters through, and a non-ASCII unit must be a plain error, not a crash.
 */
export function parseSince(value: string, now: number): SinceResult {
  if (value === 'all') return { kind: 'all' };
  const match = /^([0-9]{1,12})([smhd])$/.exec(value);
  const amount = match ? Number(match[1]) : 0;
  const unit = match?.[2] as keyof typeof UNIT_MS | undefined;
  if (!unit || amount <= 0) {
    return {
      kind: 'invalid',
      message: `invalid --since ${JSON.stringify(value)}: use a positive whole number with s, m, h or d (e.g. 30m, 24h, 7d), or all`,
    };
  }
  // Clamped at the epoch: a window reaching before 1970 is simply everything.
  return { kind: 'window', sinceMs: Math.max(0, now - amount * UNIT_MS[unit]) };
}

/** The nearest-rank percentile: the smallest sample with at least p % of the samples at or below it. */
export function nearestRank(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1] ?? 0;
}

const rate = (errors: number, calls: number): number =>
  calls === 0 ? 0 : Math.round((errors / calls) * 10_000) / 10_000;
const byName = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export function computeStats(rows: readonly StatsRow[]): UsageStats {
  const perOperation = new Map<string, { errors: number; latencies: number[] }>();
  const perSession = new Map<string, { calls: number; errors: number; first: string; last: string }>();
  const perFile = new Map<string, number>();
  let errors = 0;
  for (const row of rows) {
    const failed = ERROR_STATUSES.has(row.status);
    if (failed) errors++;
    const op = perOperation.get(row.operation) ?? { errors: 0, latencies: [] };
    op.latencies.push(row.elapsedMs);
    if (failed) op.errors++;
    perOperation.set(row.operation, op);
    const session = perSession.get(row.session) ?? { calls: 0, errors: 0, first: row.time, last: row.time };
    session.calls++;
    if (failed) session.errors++;
    if (row.time < session.first) session.first = row.time;
    if (row.time > session.last) session.last = row.time;
    perSession.set(row.session, session);
    // A file listed twice in one answer was still returned by one call.
    for (const file of new Set(row.filesRead)) perFile.set(file, (perFile.get(file) ?? 0) + 1);
  }
  const operations = [...perOperation].map(([operation, op]): OperationStats => {
    const sorted = [...op.latencies].sort((a, b) => a - b);
    const calls = sorted.length;
    return {
      operation,
      calls,
      errors: op.errors,
      error_rate: rate(op.errors, calls),
      p50_ms: nearestRank(sorted, 50),
      p95_ms: calls >= P95_MIN_CALLS ? nearestRank(sorted, 95) : null,
    };
  });
  operations.sort((a, b) => b.calls - a.calls || byName(a.operation, b.operation));
  const sessions = [...perSession]
    .map(([session, s]): SessionStats => ({
      session,
      calls: s.calls,
      errors: s.errors,
      error_rate: rate(s.errors, s.calls),
      first: s.first,
      last: s.last,
    }))
    .sort((a, b) => byName(a.first, b.first) || byName(a.session, b.session));
  const top_files = [...perFile]
    .map(([path, calls]) => ({ path, calls }))
    .sort((a, b) => b.calls - a.calls || byName(a.path, b.path))
    .slice(0, TOP_FILES);
  return {
    calls: rows.length,
    errors,
    error_rate: rate(errors, rows.length),
    operations,
    sessions,
    top_files,
  };
}
