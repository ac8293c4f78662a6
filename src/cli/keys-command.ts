import path from 'node:path';
import { hasPrefixShape } from '../core/api-key-format.js';
import type { KeyRecord, NewKey } from '../store/keys-db.js';
import { keysDbPath } from '../store/keys-paths.js';
import { storeChoiceFor, withTeamStore, type StoreArguments } from './cli-store.js';
import { checkedDaily, checkedExpiry, checkedLabel, checkedName, checkedRate } from './key-arguments.js';
import { UsageError } from './operation-commands.js';
import { renderTable } from './text-table.js';

type Env = Readonly<Record<string, string | undefined>>;

export interface KeysCommandContext extends StoreArguments {
  readonly db?: string;
  readonly json: boolean;
  readonly write: (text: string) => void;
  readonly env?: Env;
  readonly now?: () => Date;
}

export interface CreateOptions {
  readonly tenant: string;
  readonly role: string;
  readonly label?: string;
  readonly expires?: string;
  readonly rate?: string;
  readonly daily?: string;
}

type MaybePromise<T> = T | Promise<T>;

/** What the commands need of a key store, SQLite (answers at once) or PostgreSQL (answers with promises). */
interface KeyAdmin {
  /** The file, or the database's URL without its password. */
  readonly location: string;
  create(request: NewKey): MaybePromise<{ readonly key: string; readonly record: KeyRecord }>;
  list(): MaybePromise<KeyRecord[]>;
  find(prefixOrId: string): MaybePromise<KeyRecord | undefined>;
  revoke(id: number): MaybePromise<KeyRecord | undefined>;
}

/** Runs `work` on the key store the command names: the SQLite file, or the PostgreSQL team store. */
async function withStore<T>(context: KeysCommandContext, work: (store: KeyAdmin) => Promise<T>): Promise<T> {
  const env = context.env ?? process.env;
  const choice = await storeChoiceFor(context, context.db);
  const now = context.now ? { now: context.now } : {};
  if (choice.kind === 'postgres') {
    return withTeamStore(choice, async (team) => {
      const { PostgresKeyStore } = await import('../store/postgres/key-store.js');
      return work(await PostgresKeyStore.open(team.pool, { env, ...now }));
    });
  }
  const file = context.db ? path.resolve(context.db) : keysDbPath(env);
  const { SqliteKeyStore } = await import('../store/keys-db.js');
  const store = SqliteKeyStore.open({ path: file, env, ...now });
  try {
    return await work(store);
  } finally {
    store.close();
  }
}

const shown = (value: string | number | null): string | number =>
  value === null || value === '' ? '-' : value;

/** A key as `list` and `--json` show it: never its hash. */
const keyJson = (record: KeyRecord) => ({
  id: record.id,
  prefix: record.prefix,
  tenant: record.tenant,
  role: record.role,
  label: record.label,
  rate: record.rate,
  daily: record.daily,
  created_at: record.createdAt,
  expires_at: record.expiresAt,
  revoked_at: record.revokedAt,
  last_used_at: record.lastUsedAt,
});

/** `meshlens keys create`: every argument checked first, then the key, printed this once. */
export async function keysCreate(options: CreateOptions, context: KeysCommandContext): Promise<void> {
  const nowMs = (context.now ?? (() => new Date()))().getTime();
  const expiresAt = checkedExpiry(options.expires, nowMs);
  const rate = checkedRate(options.rate);
  const daily = checkedDaily(options.daily);
  const request = {
    tenant: checkedName('--tenant', options.tenant),
    role: checkedName('--role', options.role),
    label: checkedLabel(options.label),
    ...(expiresAt ? { expiresAt } : {}),
    ...(rate ? { rate } : {}),
    ...(daily !== undefined ? { daily } : {}),
  };
  await withStore(context, async (store) => {
    const { key, record } = await store.create(request);
    if (context.json) {
      context.write(JSON.stringify({ key, ...keyJson(record), db: store.location }, null, 2));
      return;
    }
    const limits = [
      record.rate ? `rate ${record.rate}` : '',
      record.daily ? `${record.daily} calls a day` : '',
    ]
      .filter(Boolean)
      .join(', ');
    context.write(
      [
        `Created key ${record.prefix} (id ${record.id}) for tenant ${record.tenant}, role ${record.role}` +
          `${record.expiresAt ? `, expires ${record.expiresAt}` : ', no expiry'}${limits ? `, ${limits}` : ''}.`,
        'The key is shown this once; only its prefix and a hash are kept:',
        '',
        key,
      ].join('\n'),
    );
  });
}

/** `meshlens keys list`: every key, revoked ones too, oldest first. */
export async function keysList(context: KeysCommandContext): Promise<void> {
  await withStore(context, async (store) => {
    const keys = await store.list();
    if (context.json) {
      context.write(JSON.stringify({ db: store.location, keys: keys.map(keyJson) }, null, 2));
      return;
    }
    if (keys.length === 0) {
      context.write(
        `No keys in ${store.location}; create one with \`meshlens keys create --tenant T --role R\`.`,
      );
      return;
    }
    context.write(
      renderTable(
        [
          'id',
          'prefix',
          'tenant',
          'role',
          'label',
          'rate',
          'daily',
          'created',
          'expires',
          'revoked',
          'last used',
        ],
        keys.map((k) => [
          k.id,
          k.prefix,
          k.tenant,
          k.role,
          shown(k.label),
          shown(k.rate),
          shown(k.daily),
          k.createdAt,
          shown(k.expiresAt),
          shown(k.revokedAt),
          shown(k.lastUsedAt),
        ]),
      ).join('\n'),
    );
  });
}

/** `meshlens keys revoke <prefix|id>`: at once and for good; revoking twice keeps the first time. */
export async function keysRevoke(which: string, context: KeysCommandContext): Promise<void> {
  if (!/^[0-9]{1,15}$/.test(which) && !hasPrefixShape(which))
    throw new UsageError(
      `invalid key ${JSON.stringify(which)}: name it by its prefix (ml_ and 8 hex digits, as \`meshlens keys list\` shows) or its id`,
    );
  await withStore(context, async (store) => {
    const found = await store.find(which);
    if (!found)
      throw new UsageError(`no key ${which} in ${store.location}; \`meshlens keys list\` shows the keys`);
    const revoked = (await store.revoke(found.id)) ?? found;
    if (context.json) {
      context.write(
        JSON.stringify({ ...keyJson(revoked), already_revoked: found.revokedAt !== null }, null, 2),
      );
      return;
    }
    context.write(
      found.revokedAt !== null
        ? `Key ${found.prefix} (id ${found.id}) was revoked already, at ${found.revokedAt}.`
        : `Revoked key ${revoked.prefix} (id ${revoked.id}, tenant ${revoked.tenant}) at ${revoked.revokedAt}.`,
    );
  });
}
