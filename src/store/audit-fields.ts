/**
 * An audit record as both stores keep it: the columns every chain hashes, in the form the database gives
 * back, so that a row verifies as it is read. Text is UTF-8 (a lone UTF-16 surrogate would come back as
 * U+FFFD) without NUL, which a PostgreSQL TEXT column cannot hold; numbers are finite.
 */
import type { AuditRecord } from '../trust/audit.js';

export interface AuditFields {
  readonly time: string;
  readonly session: string;
  readonly operation: string;
  readonly argument_digest: string;
  readonly status: string;
  readonly elapsed_ms: number;
  readonly files_read: string;
  readonly redactions: number;
  readonly trace_id: string | null;
  readonly warning: string | null;
  readonly caller: string | null;
}

const finite = (n: number): number => (Number.isFinite(n) ? n : 0);
const storedText = (s: string): string =>
  Buffer.from(s, 'utf8').toString('utf8').replaceAll('\u0000', '\uFFFD');
const optional = (s: string | undefined): string | null => (s === undefined ? null : storedText(s));

export function auditFieldsOf(entry: AuditRecord): AuditFields {
  return {
    time: storedText(entry.time),
    session: storedText(entry.session),
    operation: storedText(entry.operation),
    argument_digest: storedText(entry.argumentDigest),
    status: storedText(entry.status),
    elapsed_ms: finite(entry.elapsedMs),
    files_read: JSON.stringify(entry.filesRead.map(storedText)),
    redactions: Math.trunc(finite(entry.redactions)),
    trace_id: optional(entry.traceId),
    warning: optional(entry.warning),
    caller: optional(entry.caller),
  };
}
