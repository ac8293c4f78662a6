import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AuditRecord } from '../../src/trust/audit.js';
import { AuditLog } from '../../src/store/audit-log.js';
import { runCli, tempEnv } from '../helpers/cli.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const NOW = Date.now();
const at = (ago: number): string => new Date(NOW - ago).toISOString();

function record(
  overrides: Partial<AuditRecord> & Pick<AuditRecord, 'time' | 'operation' | 'session'>,
): AuditRecord {
  return {
    argumentDigest: '0'.repeat(64),
    status: 'ok',
    elapsedMs: 1,
    filesRead: [],
    redactions: 0,
    ...overrides,
  };
}

/**
 * Known rows:
 * - code.search, session s1, the last hour: 25 calls taking 1..25 ms; calls 3, 6, 9 failed (error, invalid,
 *   refused); every call returned a.ts (listed twice in call 1), every fifth also b.ts;
 * - docs.search, session s2, two hours ago: 4 calls of 10, 40, 20, 30 ms, the second refused; two returned
 *   docs/x.md;
 * - graph.visualize, session s2, two days ago: 1 call of 7 ms that returned f01.ts … f12.ts;
 * - code.search, session s0, ten days ago: 2 calls of 1000 ms, both errors.
 */
function seed(file: string): void {
  const log = AuditLog.open({ path: file });
  const failures: Record<number, AuditRecord['status']> = { 3: 'error', 6: 'invalid', 9: 'refused' };
  for (const ms of [1000, 1000]) {
    log.record(
      record({ time: at(10 * DAY), operation: 'code.search', session: 's0', status: 'error', elapsedMs: ms }),
    );
  }
  const files = Array.from({ length: 12 }, (_, i) => `f${String(i + 1).padStart(2, '0')}.ts`);
  log.record(
    record({
      time: at(2 * DAY),
      operation: 'graph.visualize',
      session: 's2',
      elapsedMs: 7,
      filesRead: files,
    }),
  );
  [10, 40, 20, 30].forEach((ms, i) => {
    log.record(
      record({
        time: at(2 * HOUR - i * 1000),
        operation: 'docs.search',
        session: 's2',
        elapsedMs: ms,
        status: i === 1 ? 'refused' : 'ok',
        filesRead: i < 2 ? ['docs/x.md'] : [],
      }),
    );
  });
  for (let i = 1; i <= 25; i++) {
    log.record(
      record({
        time: at(HOUR - i * 1000),
        operation: 'code.search',
        session: 's1',
        elapsedMs: i,
        status: failures[i] ?? 'ok',
        filesRead: i === 1 ? ['a.ts', 'a.ts'] : i % 5 === 0 ? ['a.ts', 'b.ts'] : ['a.ts'],
      }),
    );
  }
  log.close();
}

interface Stats {
  calls: number;
  errors: number;
  error_rate: number;
  session: string | null;
  operations: {
    operation: string;
    calls: number;
    errors: number;
    error_rate: number;
    p50_ms: number;
    p95_ms: number | null;
  }[];
  sessions: {
    session: string;
    calls: number;
    errors: number;
    error_rate: number;
    first: string;
    last: string;
  }[];
  top_files: { path: string; calls: number }[];
}

describe('meshlens stats and audit verify', () => {
  let db: string;
  const env = tempEnv();
  const stats = (...args: string[]): Stats => {
    const result = runCli(['stats', '--db', db, '--json', ...args], { env });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    return JSON.parse(result.stdout) as Stats;
  };

  beforeAll(() => {
    db = path.join(mkdtempSync(path.join(os.tmpdir(), 'meshlens-audit-')), 'audit.db');
    seed(db);
  });

  it('counts calls, errors, error rates and nearest-rank latencies per operation over the last 7 days', () => {
    const report = stats();
    expect([report.calls, report.errors, report.error_rate]).toEqual([30, 4, 0.1333]);
    expect(report.operations).toEqual([
      { operation: 'code.search', calls: 25, errors: 3, error_rate: 0.12, p50_ms: 13, p95_ms: 24 },
      { operation: 'docs.search', calls: 4, errors: 1, error_rate: 0.25, p50_ms: 20, p95_ms: null },
      { operation: 'graph.visualize', calls: 1, errors: 0, error_rate: 0, p50_ms: 7, p95_ms: null },
    ]);
  });

  it('lists the ten most-returned files, counting a file once per call', () => {
    expect(stats().top_files).toEqual([
      { path: 'a.ts', calls: 25 },
      { path: 'b.ts', calls: 5 },
      { path: 'docs/x.md', calls: 2 },
      ...['f01.ts', 'f02.ts', 'f03.ts', 'f04.ts', 'f05.ts', 'f06.ts', 'f07.ts'].map((p) => ({
        path: p,
        calls: 1,
      })),
    ]);
  });

  it('counts per session, earliest first', () => {
    expect(stats().sessions.map((s) => [s.session, s.calls, s.errors, s.error_rate, s.first])).toEqual([
      ['s2', 5, 1, 0.2, at(2 * DAY)],
      ['s1', 25, 3, 0.12, at(HOUR - 1000)],
    ]);
  });

  it('filters by --since and --session', () => {
    const all = stats('--since', 'all');
    expect(all.calls).toBe(32);
    expect(all.operations[0]).toEqual({
      operation: 'code.search',
      calls: 27,
      errors: 5,
      error_rate: 0.1852,
      p50_ms: 14,
      p95_ms: 1000,
    });
    expect(stats('--since', '24h').calls).toBe(29);
    expect(stats('--since', '3h').operations.map((o) => [o.operation, o.calls])).toEqual([
      ['code.search', 25],
      ['docs.search', 4],
    ]);
    expect(stats('--since', '90m').operations.map((o) => [o.operation, o.calls])).toEqual([
      ['code.search', 25],
    ]);
    expect(stats('--since', '30m').calls).toBe(0);
    const s2 = stats('--session', 's2');
    expect([s2.session, s2.calls, s2.sessions.length]).toEqual(['s2', 5, 1]);
  });

  it('prints a readable table by default', () => {
    const result = runCli(['stats', '--db', db], { env });
    expect(result.status).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines).toContain('calls: 30, errors: 4 (13.3%)');
    expect(lines).toContain('operation        calls  errors  error rate  p50 ms  p95 ms');
    expect(lines).toContain('code.search         25       3       12.0%    13.0    24.0');
    expect(lines).toContain('docs.search          4       1       25.0%    20.0       -');
  });

  it.each(['7é', '7w', '7', 'd', '-1d', '0d', '1.5h', '７d', 'ALL'])(
    'refuses --since %s with a plain error and exit status 2',
    (since) => {
      const result = runCli(['stats', '--db', db, '--since', since], { env });
      expect(result.status).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(
        `meshlens: invalid --since ${JSON.stringify(since)}: use a positive whole number with s, m, h or d (e.g. 30m, 24h, 7d), or all\n`,
      );
    },
  );

  const lastHash = (file: string): string => {
    const raw = new Database(file, { readonly: true });
    const hash = raw.prepare('SELECT hash FROM audit_log ORDER BY id DESC LIMIT 1').pluck().get() as string;
    raw.close();
    return hash;
  };
  const copyOf = (name: string): string => {
    const copy = path.join(path.dirname(db), name);
    const source = new Database(db, { readonly: true });
    source.exec(`VACUUM INTO '${copy.replace(/'/g, "''")}'`);
    source.close();
    return copy;
  };

  it('verifies an intact chain and prints its head', () => {
    const head = `32:${lastHash(db)}`;
    const result = runCli(['audit', 'verify', '--db', db], { env });
    expect([result.status, result.stdout]).toEqual([0, `audit log OK: 32 rows, head ${head}\n`]);
    const json = JSON.parse(runCli(['audit', 'verify', '--db', db, '--json'], { env }).stdout) as unknown;
    expect(json).toEqual({ db, ok: true, rows: 32, head });
    const anchored = runCli(['audit', 'verify', '--db', db, '--anchor', `30:${'0'.repeat(64)}`], { env });
    expect(anchored.status).toBe(1);
    expect(anchored.stdout).toBe(
      'audit log BROKEN at row 30: row 30 is not the row of the anchor (hash 000000000000…): the log was rewritten\n',
    );
  });

  it('fails a log whose last rows were deleted', () => {
    const copy = copyOf('shortened.db');
    const raw = new Database(copy);
    expect(raw.prepare('DELETE FROM audit_log WHERE id > 30').run().changes).toBe(2);
    raw.close();
    const result = runCli(['audit', 'verify', '--db', copy], { env });
    expect([result.status, result.stdout]).toEqual([
      1,
      'audit log BROKEN at row 31: rows 31–32 are missing at the end: the head records 32 rows, the log ends at row 30\n',
    ]);
  });

  it('refuses a missing database with a plain error and exit status 2', () => {
    const missing = path.join(path.dirname(db), 'no-such.db');
    const named = runCli(['audit', 'verify', '--db', missing], { env });
    expect([named.status, named.stdout, named.stderr]).toEqual([
      2,
      '',
      `meshlens: no audit log at ${missing}: check the path given to --db\n`,
    ]);
    const byDefault = runCli(['audit', 'verify', '--json'], { env: { ...env, MESHLENS_AUDIT_DB: missing } });
    expect([byDefault.status, byDefault.stdout, byDefault.stderr]).toEqual([
      2,
      '',
      `meshlens: no audit log at ${missing}: nothing has been recorded there yet, or the file was moved or deleted; pass --db (or set $MESHLENS_AUDIT_DB) to verify another file\n`,
    ]);
  });

  it("--tenant names a tenant's own chain beside the audit log; with --db, or misspelt, it is refused", () => {
    const chain = path.join(path.dirname(db), 'tenants', 'acme', 'audit.db');
    const missing = runCli(['audit', 'verify', '--tenant', 'acme'], {
      env: { ...env, MESHLENS_AUDIT_DB: db },
    });
    expect([missing.status, missing.stderr]).toEqual([
      2,
      `meshlens: no audit log at ${chain}: check the tenant name; its chain is created by the first call of its keys to a server with [server.tenants]\n`,
    ]);
    const both = runCli(['stats', '--tenant', 'acme', '--db', db], { env });
    expect([both.status, both.stderr]).toEqual([
      2,
      'meshlens: --db and --tenant each name an audit log: pass one of them\n',
    ]);
    const misspelt = runCli(['audit', 'verify', '--tenant', '../acme'], { env });
    expect([misspelt.status, misspelt.stderr]).toEqual([
      2,
      'meshlens: invalid --tenant "../acme": use up to 64 letters, digits, ".", "_" or "-", starting with a letter or digit\n',
    ]);
  });

  it('refuses a malformed --anchor with exit status 2', () => {
    const result = runCli(['audit', 'verify', '--db', db, '--anchor', '32:abc'], { env });
    expect([result.status, result.stderr]).toEqual([
      2,
      'meshlens: invalid --anchor "32:abc": use the head an earlier `meshlens audit verify` printed, <rows>:<64 hex digits>\n',
    ]);
  });

  it('names the first edited row and exits 1', () => {
    const copy = copyOf('tampered.db');
    const raw = new Database(copy);
    // One byte of one row: the session "s1" becomes "s7".
    expect(raw.prepare("UPDATE audit_log SET session = 's7' WHERE id = 12").run().changes).toBe(1);
    raw.close();
    const result = runCli(['audit', 'verify', '--db', copy], { env });
    expect(result.status).toBe(1);
    expect(result.stdout).toBe(
      'audit log BROKEN at row 12: row 12 does not match its hash (the row was edited)\n',
    );
    const json = runCli(['audit', 'verify', '--db', copy, '--json'], { env });
    expect(json.status).toBe(1);
    expect(JSON.parse(json.stdout)).toEqual({
      db: copy,
      ok: false,
      rows: 32,
      first_broken_row: 12,
      reason: 'row 12 does not match its hash (the row was edited)',
    });
  });
});
