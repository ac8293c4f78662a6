// The code-mode rows of the benchmark: `grep_code` beside `rg` on the same patterns (side by side, warm), and
// `outline_file` latency on the files that declare the search queries.
import { spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { percentile, round, spread } from './stats.mjs';

/** Regular expressions an agent greps for besides plain names; the last has no literal (a full scan). */
export const GREP_REGEXES = [
  'func \\(\\w+ \\*\\w+\\) Schedule\\w+',
  'class \\w+Projector\\b',
  'filterLonger\\(',
  'log\\.(Printf|Println)',
  'total \\+= len\\(\\w+\\)',
  '(?:TODO|FIXME|XXX)',
  'import',
  '\\d{5,}',
];

/** The patterns: the plan's first distinct query names (as the rg baseline uses), then the regexes. */
export function grepPatterns(plan, names = 12) {
  const symbols = [...new Set(plan.queries.map((q) => q.query))].slice(0, names);
  return [
    ...symbols.map((p) => ({ pattern: p, kind: 'name' })),
    ...GREP_REGEXES.map((p) => ({ pattern: p, kind: 'regex' })),
  ];
}

/** Matching lines `rg` prints for a pattern with smart case, the same case rule `grep_code` applies. */
function runRg(ws, pattern) {
  const t = performance.now();
  // stdout is a pipe, not /dev/null: ripgrep stops at the first match when it writes to /dev/null.
  const r = spawnSync('rg', ['-n', '-S', '--no-heading', '--', pattern, ws], {
    stdio: ['ignore', 'pipe', 'ignore'],
    maxBuffer: 1 << 28,
  });
  const ms = performance.now() - t;
  const out = r.stdout ?? new Uint8Array(0);
  let lines = 0;
  for (let i = 0; i < out.length; i++) if (out[i] === 10) lines++;
  return { ms, lines };
}

const mean = (values) => {
  const clean = values.filter((v) => Number.isFinite(v));
  return clean.length === 0 ? undefined : clean.reduce((a, b) => a + b, 0) / clean.length;
};

const grepTotal = (text) => {
  const m = /_(at least )?(\d+) matching line\(s\)/.exec(text);
  return m ? Number(m[2]) : undefined;
};

/**
 * Each pattern through `grep_code` and `rg`, alternating, after one warm-up round of both; `rounds` timed
 * rounds. `rg` is skipped when it is not installed.
 */
export async function grepRows(
  call,
  session,
  ws,
  plan,
  { rounds = 3, rg = true, cpu = () => undefined } = {},
) {
  const patterns = grepPatterns(plan);
  const first = await call(session, 'grep_code', { pattern: patterns[0].pattern, limit: 20 });
  const rows = patterns.map((p) => ({ ...p, grepMs: [], rgMs: [] }));
  for (const row of rows) {
    await call(session, 'grep_code', { pattern: row.pattern, limit: 20 });
    if (rg) runRg(ws, row.pattern);
  }
  for (let round_ = 0; round_ < rounds; round_++) {
    for (const row of rows) {
      const before = cpu();
      const r = await call(session, 'grep_code', { pattern: row.pattern, limit: 20 });
      row.grepMs.push(r.ms);
      (row.cpuMs ??= []).push(cpu() - before);
      row.grepLines = grepTotal(r.text);
      row.error = r.isError ? r.text.slice(0, 200) : undefined;
      if (rg) {
        const b = runRg(ws, row.pattern);
        row.rgMs.push(b.ms);
        row.rgLines = b.lines;
      }
    }
  }
  const all = (pick) => rows.flatMap(pick);
  const grepAll = all((r) => r.grepMs);
  const rgAll = all((r) => r.rgMs);
  return {
    first_ms: first.ms,
    p50_ms: percentile(grepAll, 50),
    p95_ms: percentile(grepAll, 95),
    rg_p50_ms: rg ? percentile(rgAll, 50) : undefined,
    rg_p95_ms: rg ? percentile(rgAll, 95) : undefined,
    // /proc counts CPU in 10 ms ticks: only a mean over many calls means something.
    server_cpu_ms_per_call: mean(all((r) => r.cpuMs)),
    by_kind: Object.fromEntries(
      ['name', 'regex'].map((kind) => {
        const of = rows.filter((r) => r.kind === kind);
        return [
          kind,
          {
            server_cpu_ms_per_call: mean(of.flatMap((r) => r.cpuMs)),
            p50_ms: percentile(
              of.flatMap((r) => r.grepMs),
              50,
            ),
            rg_p50_ms: rg
              ? percentile(
                  of.flatMap((r) => r.rgMs),
                  50,
                )
              : undefined,
          },
        ];
      }),
    ),
    patterns: rows.map((r) => ({
      pattern: r.pattern,
      kind: r.kind,
      grep_ms: round(spread(r.grepMs).median, 2),
      server_cpu_ms: round(mean(r.cpuMs), 2),
      rg_ms: rg ? round(spread(r.rgMs).median, 2) : undefined,
      grep_lines: r.grepLines,
      rg_lines: r.rgLines,
      ...(r.error ? { error: r.error } : {}),
    })),
  };
}

const nextOffset = (text) => {
  const m = /More: `offset: (\d+)`/.exec(text);
  return m ? Number(m[1]) : undefined;
};

/**
 * `outline_file` on the files declaring the plan's queries; correct when the outline names the query, on its
 * first page or a later one (a large file's outline is paged). Only the first page is timed: it is the call
 * an agent always makes.
 */
export async function outlineRows(call, session, plan, count = 200, cpu = () => undefined) {
  const files = [...new Map(plan.queries.map((q) => [q.file, q])).values()].slice(0, count);
  const ms = [];
  let ok = 0;
  let paged = 0;
  const wrong = [];
  const cpuMs = [];
  for (const q of files) {
    const before = cpu();
    let r = await call(session, 'outline_file', { path: q.file });
    ms.push(r.ms);
    cpuMs.push(cpu() - before);
    let found = !r.isError && r.text.includes(q.query);
    for (let offset = nextOffset(r.text); !found && offset !== undefined; offset = nextOffset(r.text)) {
      r = await call(session, 'outline_file', { path: q.file, offset });
      found = !r.isError && r.text.includes(q.query);
      paged++;
    }
    if (found) ok++;
    else if (wrong.length < 5) wrong.push({ file: q.file, query: q.query, got: r.text.slice(0, 300) });
  }
  return {
    p50_ms: percentile(ms, 50),
    p95_ms: percentile(ms, 95),
    first_ms: ms[0],
    server_cpu_ms_per_call: mean(cpuMs),
    ok,
    total: files.length,
    later_pages_read: paged,
    wrong,
  };
}
