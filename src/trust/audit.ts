import type { CallRecord, CallRecordSink } from '../core/call-record.js';

/** An audit entry is the registry's record of one call, kept as it is. */
export type AuditRecord = CallRecord;

/** An audit trail: the composition root hands it to the registry, which writes one record per call. */
export type AuditSink = CallRecordSink;
