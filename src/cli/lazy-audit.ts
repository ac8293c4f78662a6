import type { AuditRecord, AuditSink } from '../core/audit.js';
import type { Logger } from '../core/logger.js';
import type { AuditLog } from '../store/audit-log.js';

/** Records kept while the audit module loads; more than this means it never will, and the rest are dropped. */
const MAX_PENDING = 1000;

/**
 * The audit log, opened after start-up: SQLite is a native module whose load would delay the answer to
 * `initialize`. Records arriving before it is open wait in order and are written as soon as it is.
 */
export class LazyAuditLog implements AuditSink {
  private log: AuditLog | undefined;
  private loading: Promise<void> | undefined;
  private pending: AuditRecord[] = [];
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
        for (const record of this.pending) this.log.record(record);
        this.pending = [];
      })
      .catch((error: unknown) => this.logger.warn({ err: error }, 'audit log unavailable'));
    return this.loading;
  }

  record(entry: AuditRecord): void {
    if (this.log) this.log.record(entry);
    else if (this.pending.length < MAX_PENDING) {
      this.pending.push(entry);
      void this.load();
    }
  }

  async close(): Promise<void> {
    await this.loading;
    this.closed = true;
    this.log?.close();
  }
}
