import { existsSync } from 'node:fs';
import { openAuditReadOnly, type RawRow } from './audit-chain.js';

export interface AuditRow {
  readonly id: number;
  readonly time: string;
  readonly session: string;
  readonly operation: string;
  readonly argumentDigest: string;
  /** As stored; normally one of `AuditRecord['status']`. */
  readonly status: string;
  readonly elapsedMs: number;
  readonly filesRead: readonly string[];
  readonly redactions: number;
  readonly traceId: string | undefined;
  readonly warning: string | undefined;
  /** `local` or `key <prefix> <tenant>/<role>`; undefined in rows written before callers were recorded. */
  readonly caller: string | undefined;
  readonly prevHash: string;
  readonly hash: string;
  readonly chainVersion: number;
}

function parseFiles(text: unknown): string[] {
  try {
    const value: unknown = JSON.parse(String(text));
    return Array.isArray(value) ? value.map(String) : [];
  } catch {
    return [];
  }
}

const optionalText = (value: unknown): string | undefined =>
  value === null || value === undefined ? undefined : String(value);

/** A stored row as `stats` reads it. */
export function auditRowOf(row: RawRow): AuditRow {
  return {
    id: Number(row.id),
    time: String(row.time),
    session: String(row.session),
    operation: String(row.operation),
    argumentDigest: String(row.argument_digest),
    status: String(row.status),
    elapsedMs: Number(row.elapsed_ms),
    filesRead: parseFiles(row.files_read),
    redactions: Number(row.redactions),
    traceId: optionalText(row.trace_id),
    warning: optionalText(row.warning),
    caller: optionalText(row.caller),
    prevHash: String(row.prev_hash),
    hash: String(row.hash),
    chainVersion: Number(row.chain_version),
  };
}

/** Rows in id order, optionally only those at or after `sinceMs` (for `meshlens stats`). Read-only. */
export function readAuditRows(file: string, options: { sinceMs?: number } = {}): AuditRow[] {
  if (!existsSync(file)) return [];
  const db = openAuditReadOnly(file);
  try {
    // Times are ISO-8601 UTC from toISOString(), which sorts lexically in time order.
    const since = options.sinceMs === undefined ? '' : new Date(options.sinceMs).toISOString();
    const rows = db
      .prepare<[string], RawRow>('SELECT * FROM audit_log WHERE time >= ? ORDER BY id')
      .all(since);
    return rows.map(auditRowOf);
  } finally {
    db.close();
  }
}
