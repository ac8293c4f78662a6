import { existsSync } from 'node:fs';
import { verifyAuditLog } from '../store/audit-log.js';
import { headText, type ChainHead } from '../store/audit-chain.js';
import { chosenAuditDb } from './audit-db-choice.js';
import { UsageError } from './operation-commands.js';

export interface AuditVerifyOptions {
  readonly db?: string;
  /** A tenant's own chain, on a server with `[server.tenants]`. */
  readonly tenant?: string;
  readonly anchor?: string;
  readonly json: boolean;
  readonly write: (text: string) => void;
  readonly env?: Readonly<Record<string, string | undefined>>;
}

const rowsText = (n: number): string => `${n} ${n === 1 ? 'row' : 'rows'}`;

/** `--anchor 32:<64 hex>`, as an earlier verify printed it. */
function parseAnchor(text: string): ChainHead {
  const match = /^(\d{1,15}):([0-9a-f]{64})$/.exec(text.trim());
  if (!match) {
    throw new UsageError(
      `invalid --anchor ${JSON.stringify(text)}: use the head an earlier \`meshlens audit verify\` printed, <rows>:<64 hex digits>`,
    );
  }
  return { lastId: Number(match[1]), lastHash: match[2] as string };
}

/**
 * A log that is not there is refused, not taken as empty: a deleted log must not verify. The message says
 * which path was looked at and how to point at another.
 */
function missingLog(db: string, named: 'db' | 'tenant' | undefined): UsageError {
  const hint =
    named === 'db'
      ? 'check the path given to --db'
      : named === 'tenant'
        ? 'check the tenant name; its chain is created by the first call of its keys to a server with [server.tenants]'
        : 'nothing has been recorded there yet, or the file was moved or deleted; pass --db (or set $MESHLENS_AUDIT_DB) to verify another file';
  return new UsageError(`no audit log at ${db}: ${hint}`);
}

/** `meshlens audit verify`: recomputes the hash chain; returns the exit status (1 when broken). */
export function auditVerifyCommand(options: AuditVerifyOptions): number {
  const db = chosenAuditDb(options, options.env ?? process.env);
  const anchor = options.anchor === undefined ? undefined : parseAnchor(options.anchor);
  if (!existsSync(db))
    throw missingLog(
      db,
      options.db !== undefined ? 'db' : options.tenant !== undefined ? 'tenant' : undefined,
    );
  const result = verifyAuditLog(db, anchor ? { anchor } : {});
  if (options.json) {
    options.write(
      JSON.stringify(
        result.ok
          ? { db, ok: true, rows: result.rows, head: headText(result.head) }
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
    options.write(`audit log OK: ${rowsText(result.rows)}, head ${headText(result.head)}`);
  } else {
    // Row 0 means the file as a whole could not be read, not a row that failed.
    const where = result.firstBrokenRow > 0 ? ` at row ${result.firstBrokenRow}` : '';
    options.write(`audit log BROKEN${where}: ${result.reason}`);
  }
  return result.ok ? 0 : 1;
}
