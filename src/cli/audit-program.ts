/**
 * `meshlens stats` and `meshlens audit verify`: the commands and their options. What they do is in
 * stats-command.ts and audit-command.ts, loaded only when one of them runs.
 */
import type { Command } from 'commander';
import { STORE_OPTION } from './cli-store.js';
import type { StoreContext } from './keys-program.js';
import { print as write } from './print.js';

const TENANT_OPTION_HELP =
  "a tenant's own audit chain, on a server with [server.tenants] (tenants/<name>/audit.db beside the audit database; with a PostgreSQL store, its chain there)";

export function addStatsCommand(program: Command, { configuredStore }: StoreContext): void {
  program
    .command('stats')
    .description(
      'Usage figures from the audit log (calls, errors, latency per operation, top files, sessions) and, per API key, calls and refusals.',
    )
    .option('--since <window>', 'how far back: <N>s, <N>m, <N>h, <N>d, or all', '7d')
    .option('--session <id>', 'only this session')
    .option('--db <file>', 'the audit database (default: $MESHLENS_AUDIT_DB or the cache folder)')
    .option(
      '--keys-db <file>',
      'the key database whose per-key calls and refusals are shown (default: $MESHLENS_KEYS_DB or the data folder)',
    )
    .option('--tenant <name>', `only this tenant: ${TENANT_OPTION_HELP}, and its keys' calls`)
    .option(...STORE_OPTION)
    .option('--json', 'print the figures as JSON', false)
    .action(
      async (options: {
        since: string;
        session?: string;
        db?: string;
        keysDb?: string;
        store?: string;
        tenant?: string;
        json: boolean;
      }) => {
        const { statsCommand } = await import('./stats-command.js');
        await statsCommand({ ...options, configuredStore, write });
      },
    );
}

export function addAuditCommand(program: Command, { configuredStore }: StoreContext): void {
  program
    .command('audit')
    .description('Inspect the hash-chained audit log.')
    .command('verify')
    .description(
      'Recompute the hash chain and check it ends at its head; exit status 1 names the first broken row.',
    )
    .option('--db <file>', 'the audit database (default: $MESHLENS_AUDIT_DB or the cache folder)')
    .option(
      '--tenant <name>',
      `${TENANT_OPTION_HELP}; with a PostgreSQL store and no --tenant, every chain in the database`,
    )
    .option(...STORE_OPTION)
    .option(
      '--anchor <rows:hash>',
      'a head an earlier verify printed, kept away from the log: fail unless the log still holds it',
    )
    .option('--json', 'print the result as JSON', false)
    .action(
      async (options: { db?: string; store?: string; tenant?: string; anchor?: string; json: boolean }) => {
        const { auditVerifyCommand } = await import('./audit-command.js');
        process.exitCode = await auditVerifyCommand({ ...options, configuredStore, write });
      },
    );
}
