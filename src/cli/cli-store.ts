/**
 * Which store a command (`keys`, `stats`, `audit verify`) acts on: `--store`, else `MESHLENS_STORE`, else
 * `[server] store` in the config, which is read only when neither is given. SQLite files stay the default.
 */
import type { StoreChoice } from '../store/postgres/store-url.js';
import type { TeamStore } from '../store/postgres/team-store.js';
import { UsageError } from './operation-commands.js';

type Env = Readonly<Record<string, string | undefined>>;
export type PostgresChoice = Extract<StoreChoice, { kind: 'postgres' }>;

export const STORE_OPTION = [
  '--store <url>',
  '`sqlite` (the default: the local files) or the postgres:// URL of a team store (also MESHLENS_STORE, [server] store)',
] as const;

/** The store failed (cannot be reached, or holds a schema or secret this replica cannot use): exit 1. */
export class StoreCommandError extends Error {
  override readonly name = 'StoreCommandError';
}

export interface StoreArguments {
  /** `--store` as given. */
  readonly store?: string;
  /** `[server] store` from the config, read only when neither the flag nor the environment names one. */
  readonly configuredStore?: () => string | undefined;
  readonly env?: Env;
}

/**
 * The store a command acts on. `db`, a command's `--db <file>`, names a SQLite file and so means SQLite,
 * whatever the environment or config say; with `--store` as well it is refused.
 */
export async function storeChoiceFor(args: StoreArguments, db?: string): Promise<StoreChoice> {
  const env = args.env ?? process.env;
  const { storeChoiceOf, StoreUrlError, SQLITE_STORE } = await import('../store/postgres/store-url.js');
  if (db !== undefined) {
    if (args.store !== undefined && args.store.trim() !== 'sqlite')
      throw new UsageError('--db names a SQLite file; give either --db or --store, not both');
    return SQLITE_STORE;
  }
  const named = args.store ?? env['MESHLENS_STORE'];
  const fromConfig = named === undefined ? args.configuredStore?.() : undefined;
  try {
    return storeChoiceOf(args.store, env, fromConfig);
  } catch (error) {
    if (error instanceof StoreUrlError) throw new UsageError(error.message);
    throw error;
  }
}

/** Opens (and migrates) the PostgreSQL store, runs `work` on it and closes it. */
export async function withTeamStore<T>(
  choice: PostgresChoice,
  work: (team: TeamStore) => Promise<T>,
): Promise<T> {
  const { openTeamStore } = await import('../store/postgres/team-store.js');
  let team: TeamStore;
  try {
    team = await openTeamStore(choice, { replica: `meshlens-cli-${process.pid}` });
  } catch (error) {
    throw storeFailure(error);
  }
  try {
    return await work(team);
  } catch (error) {
    throw storeFailure(error);
  } finally {
    await team.close();
  }
}

/** What went wrong with the store, said as a command says it; other errors pass unchanged. */
function storeFailure(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  if ('atStart' in error && typeof error.atStart === 'string') return new StoreCommandError(error.atStart);
  if (/^(SchemaTooNewError|KeySecretError)$/.test(error.name)) return new StoreCommandError(error.message);
  return error;
}
