import { existsSync } from 'node:fs';
import { verifyAuditLog } from '../store/audit-log.js';
import { headText, type ChainHead } from '../store/audit-hash.js';
import type { VerifyResult } from '../store/audit-walk.js';
import { chosenAuditDb } from './audit-db-choice.js';
import { storeChoiceFor, withTeamStore, type PostgresChoice, type StoreArguments } from './cli-store.js';
import { UsageError } from './operation-commands.js';

export interface AuditVerifyOptions extends StoreArguments {
  readonly db?: string;
  /** A tenant's own chain, on a server with `[server.tenants]` (with a PostgreSQL store, its chain there). */
  readonly tenant?: string;
  readonly anchor?: string;
  readonly json: boolean;
  readonly write: (text: string) => void;
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

/** One result as JSON, without saying where (the caller adds that). */
const resultJson = (result: VerifyResult) =>
  result.ok
    ? { ok: true, rows: result.rows, head: headText(result.head) }
    : { ok: false, rows: result.rows, first_broken_row: result.firstBrokenRow, reason: result.reason };

/** One result as a line: `<what> OK: 12 rows, head 12:…` or `<what> BROKEN at row 3: …`. */
function resultText(what: string, result: VerifyResult): string {
  if (result.ok) return `${what} OK: ${rowsText(result.rows)}, head ${headText(result.head)}`;
  // Row 0 means the log as a whole could not be read, not a row that failed.
  const where = result.firstBrokenRow > 0 ? ` at row ${result.firstBrokenRow}` : '';
  return `${what} BROKEN${where}: ${result.reason}`;
}

/** `meshlens audit verify`: recomputes the hash chain(s); returns the exit status (1 when one is broken). */
export async function auditVerifyCommand(options: AuditVerifyOptions): Promise<number> {
  const anchor = options.anchor === undefined ? undefined : parseAnchor(options.anchor);
  const choice = await storeChoiceFor(options, options.db);
  if (choice.kind === 'postgres') return verifyPostgres(choice, options, anchor);
  const db = chosenAuditDb(options, options.env ?? process.env);
  if (!existsSync(db))
    throw missingLog(
      db,
      options.db !== undefined ? 'db' : options.tenant !== undefined ? 'tenant' : undefined,
    );
  const result = verifyAuditLog(db, anchor ? { anchor } : {});
  options.write(
    options.json ? JSON.stringify({ db, ...resultJson(result) }, null, 2) : resultText('audit log', result),
  );
  return result.ok ? 0 : 1;
}

/** Every tenant's chain in the database, or the one `--tenant` names; an anchor needs exactly one. */
async function verifyPostgres(
  choice: PostgresChoice,
  options: AuditVerifyOptions,
  anchor: ChainHead | undefined,
): Promise<number> {
  const { auditChains, verifyPostgresAudit } = await import('../store/postgres/audit-read.js');
  const results = await withTeamStore(choice, async ({ pool }) => {
    const chains = await auditChains(pool);
    const tenants = options.tenant === undefined ? chains : [options.tenant];
    if (options.tenant !== undefined && !chains.includes(options.tenant))
      throw new UsageError(
        `no audit chain for tenant ${options.tenant} in ${choice.displayUrl}; the chains there: ${chains.join(', ') || 'none'}`,
      );
    if (tenants.length === 0)
      throw new UsageError(`no audit chain in ${choice.displayUrl} yet: nothing has been recorded there`);
    if (anchor && tenants.length > 1)
      throw new UsageError('--anchor is the head of one chain: name its tenant with --tenant');
    const verified = [];
    for (const tenant of tenants)
      verified.push({ tenant, result: await verifyPostgresAudit(pool, tenant, anchor ? { anchor } : {}) });
    return verified;
  });
  const ok = results.every(({ result }) => result.ok);
  options.write(
    options.json
      ? JSON.stringify(
          {
            store: choice.displayUrl,
            ok,
            chains: results.map(({ tenant, result }) => ({ tenant, ...resultJson(result) })),
          },
          null,
          2,
        )
      : results.map(({ tenant, result }) => resultText(`audit chain ${tenant}`, result)).join('\n'),
  );
  return ok ? 0 : 1;
}
