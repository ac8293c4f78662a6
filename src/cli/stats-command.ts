import { existsSync } from 'node:fs';
import path from 'node:path';
import { computeStats, parseSince, type UsageStats } from '../core/stats.js';
import { readAuditRows, type AuditRow } from '../store/audit-log.js';
import { readKeyUsage, type UsageRow } from '../store/keys-db.js';
import { keysDbPath } from '../store/keys-paths.js';
import { chosenAuditDb } from './audit-db-choice.js';
import { storeChoiceFor, withTeamStore, type PostgresChoice, type StoreArguments } from './cli-store.js';
import { UsageError } from './operation-commands.js';
import { renderTable } from './text-table.js';

export interface StatsCommandOptions extends StoreArguments {
  readonly since: string;
  readonly session?: string;
  readonly db?: string;
  /** One tenant: its own audit chain (with a PostgreSQL store, its chain there), and only its keys' usage. */
  readonly tenant?: string;
  /** The key database whose usage counters are shown (default: $MESHLENS_KEYS_DB or the data folder). */
  readonly keysDb?: string;
  readonly json: boolean;
  readonly write: (text: string) => void;
  readonly now?: number;
}

export interface StatsReport extends UsageStats {
  /** The audit file, or the PostgreSQL store's URL without its password. */
  readonly db: string;
  readonly since: string;
  /** Start of the window (ISO-8601), null for `all`. */
  readonly since_time: string | null;
  readonly session: string | null;
  readonly tenant: string | null;
  /** Calls and refusals per caller from the key store, counted per UTC day from the window's first day. */
  readonly key_usage: KeyUsageReport;
}

export interface KeyUsageReport {
  readonly db: string;
  /** The first UTC day counted, null for all. */
  readonly from_day: string | null;
  /** `caller`: a key's prefix, `local` for calls without a key, `key <id> (deleted)` for a key no longer there. */
  readonly callers: readonly {
    readonly caller: string;
    readonly tenant: string | null;
    readonly calls: number;
    readonly refusals: number;
  }[];
  /** The callers' figures added up per tenant, most calls first (a deleted key's tenant is not known). */
  readonly tenants: readonly {
    readonly tenant: string;
    readonly keys: number;
    readonly calls: number;
    readonly refusals: number;
  }[];
}

type TenantTotal = KeyUsageReport['tenants'][number];

function tenantTotals(callers: KeyUsageReport['callers']): TenantTotal[] {
  const totals = new Map<string, TenantTotal>();
  for (const { tenant, calls, refusals } of callers) {
    if (tenant === null) continue;
    const sum = totals.get(tenant) ?? { tenant, keys: 0, calls: 0, refusals: 0 };
    totals.set(tenant, {
      tenant,
      keys: sum.keys + 1,
      calls: sum.calls + calls,
      refusals: sum.refusals + refusals,
    });
  }
  return [...totals.values()].sort(
    (a, b) => b.calls - a.calls || b.refusals - a.refusals || (a.tenant < b.tenant ? -1 : 1),
  );
}

const fromDayOf = (sinceMs: number | undefined): string | null =>
  sinceMs === undefined ? null : new Date(sinceMs).toISOString().slice(0, 10);

function keyUsageOf(
  db: string,
  fromDay: string | null,
  usage: readonly UsageRow[],
  tenant: string | undefined,
): KeyUsageReport {
  const rows = usage.filter((row) => tenant === undefined || row.tenant === tenant);
  const callers = rows.map((row) => ({
    caller: row.prefix ?? (row.subject === 'local' ? 'local' : `${row.subject.replace(':', ' ')} (deleted)`),
    tenant: row.tenant,
    calls: row.calls,
    refusals: row.refusals,
  }));
  return { db, from_day: fromDay, callers, tenants: tenantTotals(callers) };
}

/** `meshlens stats`: usage figures from the audit log and the key store, both opened read-only. */
export async function statsCommand(options: StatsCommandOptions): Promise<void> {
  const since = parseSince(options.since, options.now ?? Date.now());
  if (since.kind === 'invalid') throw new UsageError(since.message);
  const sinceMs = since.kind === 'window' ? since.sinceMs : undefined;
  const choice = await storeChoiceFor(options, options.db ?? options.keysDb);
  const read =
    choice.kind === 'postgres' ? await readPostgres(choice, options, sinceMs) : readSqlite(options, sinceMs);
  const rows = read.rows.filter((row) => options.session === undefined || row.session === options.session);
  const report: StatsReport = {
    db: read.db,
    since: options.since,
    since_time: sinceMs === undefined ? null : new Date(sinceMs).toISOString(),
    session: options.session ?? null,
    tenant: options.tenant ?? null,
    ...computeStats(rows),
    key_usage: read.keyUsage,
  };
  options.write(options.json ? JSON.stringify(report, null, 2) : renderStats(report, read.exists));
}

interface StatsSource {
  readonly db: string;
  /** Whether the audit log is there at all (a PostgreSQL store always is). */
  readonly exists: boolean;
  readonly rows: readonly AuditRow[];
  readonly keyUsage: KeyUsageReport;
}

function readSqlite(options: StatsCommandOptions, sinceMs: number | undefined): StatsSource {
  const env = options.env ?? process.env;
  const db = chosenAuditDb(options, env);
  const keysDb = options.keysDb ? path.resolve(options.keysDb) : keysDbPath(env);
  const fromDay = fromDayOf(sinceMs);
  return {
    db,
    exists: existsSync(db),
    rows: readAuditRows(db, sinceMs === undefined ? {} : { sinceMs }),
    keyUsage: keyUsageOf(keysDb, fromDay, readKeyUsage(keysDb, fromDay ?? undefined), options.tenant),
  };
}

async function readPostgres(
  choice: PostgresChoice,
  options: StatsCommandOptions,
  sinceMs: number | undefined,
): Promise<StatsSource> {
  const [{ readPostgresAuditRows }, { PostgresUsageCounter }] = await Promise.all([
    import('../store/postgres/audit-read.js'),
    import('../store/postgres/usage-store.js'),
  ]);
  const fromDay = fromDayOf(sinceMs);
  return withTeamStore(choice, async ({ pool }) => ({
    db: choice.displayUrl,
    exists: true,
    rows: await readPostgresAuditRows(pool, {
      ...(sinceMs !== undefined ? { sinceMs } : {}),
      ...(options.tenant !== undefined ? { tenant: options.tenant } : {}),
    }),
    keyUsage: keyUsageOf(
      choice.displayUrl,
      fromDay,
      await new PostgresUsageCounter(pool).usage(fromDay ?? undefined),
      options.tenant,
    ),
  }));
}

const percent = (rate: number): string => `${(rate * 100).toFixed(1)}%`;
const ms = (value: number | null): string => (value === null ? '-' : value.toFixed(1));

export function renderStats(report: StatsReport, dbExists: boolean): string {
  return [renderCalls(report, dbExists), ...renderKeyUsage(report.key_usage)].join('\n');
}

/** Nothing when no caller was counted (no limits configured, no keys used), so local use reads as before. */
function renderKeyUsage(usage: KeyUsageReport): string[] {
  if (usage.callers.length === 0) return [];
  const window = usage.from_day === null ? 'all days' : `UTC days from ${usage.from_day}`;
  return [
    '',
    `Calls per key (${usage.db}, ${window}):`,
    ...renderTable(
      ['caller', 'tenant', 'calls', 'refusals'],
      usage.callers.map((c) => [c.caller, c.tenant ?? '-', c.calls, c.refusals]),
    ),
    ...(usage.tenants.length > 0
      ? [
          '',
          'Calls per tenant:',
          ...renderTable(
            ['tenant', 'keys', 'calls', 'refusals'],
            usage.tenants.map((t) => [t.tenant, t.keys, t.calls, t.refusals]),
          ),
        ]
      : []),
  ];
}

function renderCalls(report: StatsReport, dbExists: boolean): string {
  const window =
    report.since_time === null ? 'all time' : `last ${report.since} (since ${report.since_time})`;
  const lines = [
    `audit log: ${report.db}${dbExists ? '' : ' (not created yet)'}`,
    `window: ${window}${report.session === null ? '' : `, session ${report.session}`}${report.tenant === null ? '' : `, tenant ${report.tenant}`}`,
    `calls: ${report.calls}, errors: ${report.errors} (${percent(report.error_rate)})`,
  ];
  if (report.calls === 0) return [...lines, '', 'No calls recorded in this window.'].join('\n');
  lines.push(
    '',
    ...renderTable(
      ['operation', 'calls', 'errors', 'error rate', 'p50 ms', 'p95 ms'],
      report.operations.map((op) => [
        op.operation,
        op.calls,
        op.errors,
        percent(op.error_rate),
        ms(op.p50_ms),
        ms(op.p95_ms),
      ]),
    ),
  );
  if (report.top_files.length > 0) {
    lines.push(
      '',
      'Most-returned files:',
      ...renderTable(
        ['calls', 'file'],
        report.top_files.map((f) => [f.calls, f.path]),
      ),
    );
  }
  lines.push(
    '',
    ...renderTable(
      ['session', 'calls', 'errors', 'error rate', 'first', 'last'],
      report.sessions.map((s) => [s.session, s.calls, s.errors, percent(s.error_rate), s.first, s.last]),
    ),
  );
  return lines.join('\n');
}
