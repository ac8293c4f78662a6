/**
 * `meshlens keys create|list|revoke`: the commands and their options. What they do is in keys-command.ts,
 * loaded only when one of them runs.
 */
import type { Command } from 'commander';
import { STORE_OPTION } from './cli-store.js';
import { print as write } from './print.js';

/** What the commands need from the program: `[server] store` from the config, read when asked. */
export interface StoreContext {
  readonly configuredStore: () => string | undefined;
}

const KEYS_DB_OPTION = [
  '--db <file>',
  'the key database (default: $MESHLENS_KEYS_DB or keys.db in the data folder)',
] as const;

export function addKeysCommand(program: Command, { configuredStore }: StoreContext): void {
  const keys = program
    .command('keys')
    .description('API keys for the team server: create (shown once), list, revoke.');
  keys
    .command('create')
    .description(
      'Create a key for a tenant and role; it is printed this once, only its prefix and hash are kept.',
    )
    .requiredOption('--tenant <name>', 'the tenant the key acts for')
    .requiredOption('--role <name>', 'the role that sets its limits ([server.limits.roles])')
    .option('--label <text>', 'what the key is for, shown in `keys list`')
    .option('--expires <when>', 'a duration (30d, 12h), a day (2026-12-31, from 00:00 UTC) or an ISO time')
    .option('--rate <N/s>', "the key's own rate limit (N/s, N/m, N/h), over its role's")
    .option('--daily <N>', "the key's own daily quota (calls per UTC day), over its role's")
    .option(...KEYS_DB_OPTION)
    .option(...STORE_OPTION)
    .option('--json', 'print the key and its row as JSON', false)
    .action(
      async (options: {
        tenant: string;
        role: string;
        label?: string;
        expires?: string;
        rate?: string;
        daily?: string;
        db?: string;
        store?: string;
        json: boolean;
      }) => {
        const { keysCreate } = await import('./keys-command.js');
        const { db, store, json, ...create } = options;
        await keysCreate(create, {
          ...(db ? { db } : {}),
          ...(store !== undefined ? { store } : {}),
          configuredStore,
          json,
          write,
        });
      },
    );
  keys
    .command('list')
    .description(
      'Every key: prefix, tenant, role, label, limits, created, expires, revoked, last used (never the hash).',
    )
    .option(...KEYS_DB_OPTION)
    .option(...STORE_OPTION)
    .option('--json', 'print the keys as JSON', false)
    .action(async (options: { db?: string; store?: string; json: boolean }) => {
      const { keysList } = await import('./keys-command.js');
      await keysList({ ...options, configuredStore, write });
    });
  keys
    .command('revoke')
    .description('Revoke a key, named by its prefix or id: every request with it is refused from now on.')
    .argument('<prefix-or-id>', 'the prefix (ml_ and 8 hex digits) or the id `keys list` shows')
    .option(...KEYS_DB_OPTION)
    .option(...STORE_OPTION)
    .option('--json', 'print the revoked key as JSON', false)
    .action(async (which: string, options: { db?: string; store?: string; json: boolean }) => {
      const { keysRevoke } = await import('./keys-command.js');
      await keysRevoke(which, { ...options, configuredStore, write });
    });
}
