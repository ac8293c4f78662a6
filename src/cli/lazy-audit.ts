import type { AuditRecord, AuditSink } from '../trust/audit.js';
import type { Logger } from '../core/logger.js';
import type { AuditLog } from '../store/audit-log.js';

/** An audit trail a server starts after start-up and closes last: the SQLite log, or a PostgreSQL chain. */
export interface AuditTrail extends AuditSink {
  load(): Promise<void>;
  close(): Promise<void>;
}

/** Records kept while the audit module loads; more than this means it never will, and the rest are dropped. */
const MAX_PENDING = 1000;

/**
 * The audit log, opened after start-up: SQLite is a native module whose load would delay the answer to
 * `initialize`. Records are written after the answer that produced them has been handed to the transport
 * (on the next turn of the event loop), several calls in one transaction when they come together; records
 * arriving before the log is open wait in order. `close()` writes whatever is still waiting.
 */
export class LazyAuditLog implements AuditTrail {
  private log: AuditLog | undefined;
  private loading: Promise<void> | undefined;
  private pending: AuditRecord[] = [];
  private scheduled = false;
  private closed = false;
  private readonly path: string;
  private readonly logger: Logger;

  constructor(path: string, logger: Logger) {
    this.path = path;
    this.logger = logger;
  }

  load(): Promise<void> {
    this.loading ??= import('../store/audit-log.js')
      .then(({ AuditLog }) => {
        if (this.closed) return;
        this.log = AuditLog.open({ path: this.path, logger: this.logger });
        this.flush();
      })
      .catch((error: unknown) => this.logger.warn({ err: error }, 'audit log unavailable'));
    return this.loading;
  }

  record(entry: AuditRecord): void {
    if (this.closed) return;
    if (this.pending.length >= MAX_PENDING) return;
    this.pending.push(entry);
    if (!this.log) {
      void this.load();
      return;
    }
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
  }

  private flush(): void {
    this.scheduled = false;
    if (!this.log || this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    this.log.recordAll(batch);
  }

  async close(): Promise<void> {
    await this.loading;
    this.flush();
    this.closed = true;
    this.log?.close();
  }
}
