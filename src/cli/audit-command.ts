import path from 'node:path';
import { auditDbPath, verifyAuditLog } from '../store/audit-log.js';

export interface AuditVerifyOptions {
  readonly db?: string;
  readonly json: boolean;
  readonly write: (text: string) => void;
  readonly env?: Readonly<Record<string, string | undefined>>;
}

const rowsText = (n: number): string => `${n} ${n === 1 ? 'row' : 'rows'}`;

/** `meshlens audit verify`: recomputes the hash chain; returns the exit status (1 when broken). */
export function auditVerifyCommand(options: AuditVerifyOptions): number {
  const db = options.db ? path.resolve(options.db) : auditDbPath(options.env ?? process.env);
  const result = verifyAuditLog(db);
  if (options.json) {
    options.write(
      JSON.stringify(
        result.ok
          ? { db, ok: true, rows: result.rows }
          : {
              db,
              ok: false,
              rows: result.rows,
              first_broken_row: result.firstBrokenRow,
              reason: result.reason,
            },
        null,
        2,
      ),
    );
  } else if (result.ok) {
    options.write(`audit log OK: ${rowsText(result.rows)}`);
  } else {
    // Row 0 means the file as a whole could not be read, not a row that failed.
    const where = result.firstBrokenRow > 0 ? ` at row ${result.firstBrokenRow}` : '';
    options.write(`audit log BROKEN${where}: ${result.reason}`);
  }
  return result.ok ? 0 : 1;
}
