/** One record per operation call, written by the registry, whatever the outcome. */
export interface AuditRecord {
  readonly time: string;
  readonly session: string;
  /** `domain.mode`. */
  readonly operation: string;
  /** SHA-256 of the canonical JSON of the arguments as received. */
  readonly argumentDigest: string;
  readonly status: 'ok' | 'error' | 'invalid' | 'refused';
  readonly elapsedMs: number;
  readonly filesRead: readonly string[];
  readonly redactions: number;
  readonly traceId?: string;
  /** Governance saw a match but only recorded it (`read_governance = "warn"`). */
  readonly warning?: string;
}

export interface AuditSink {
  /** Best effort: a sink never throws into a call. */
  record(entry: AuditRecord): void;
}

export const noAudit: AuditSink = { record: () => undefined };
