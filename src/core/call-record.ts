import type { Principal } from './principal.js';

/** One record per operation call, written by the registry, whatever the outcome. */
export interface CallRecord {
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
  /** The call policy saw a match but only recorded it (`read_governance = "warn"`). */
  readonly warning?: string;
  /** Who called: `local`, or `key <prefix> <tenant>/<role>` (see `callerText`). */
  readonly caller?: string;
}

/** Where the registry sends its call records; the composition root wires in the audit trail. */
export interface CallRecordSink {
  /** Best effort: a sink never throws into a call. */
  record(entry: CallRecord): void;
}

/**
 * The caller as an audit record names it: `local`, or `key ml_ab12cd34 acme/reader` (its prefix, tenant and
 * role; never more of the key). Here rather than beside Principal, which the server loads before it answers
 * `initialize`; only the registry needs this.
 */
export const callerText = (principal: Principal): string =>
  principal.kind === 'key' ? `key ${principal.prefix} ${principal.tenant}/${principal.role}` : 'local';
