import { existsSync } from 'node:fs';
import type { LoadedConfig } from '../core/config.js';
import type { Authenticator } from '../server/http/authenticator.js';
import { ListenRefusedError, startHttpServer, type RunningHttpServer } from '../server/http/http-server.js';
import {
  DEFAULT_LISTEN,
  ListenAddressError,
  beyondLoopbackRefusal,
  isLoopbackHost,
  parseListenAddress,
  type ListenAddress,
} from '../server/http/listen-address.js';
import { tenantGate } from '../server/http/tenant-gate.js';
import { callerOf } from '../server/caller-auth-info.js';
import { createMcpServer } from '../server/mcp-server.js';
import type { TeamStore } from '../store/postgres/team-store.js';
import type { ServeOptions } from './serve.js';
import type { ServedWorkspaces } from './served-workspaces.js';
import { tenantWorkspaces, type TenantWorkspace } from './tenant-table.js';
import { checkVisibilityTable } from './visibility-check.js';
import { VERSION } from './version.js';
import type { UsageCounter } from '../core/admission.js';
import type { KeyLookup } from '../server/api-key-auth.js';

export interface HttpServeOptions extends ServeOptions {
  readonly listen: ListenAddress;
  /** The PostgreSQL team store, when `--store` names one; SQLite files otherwise. */
  readonly teamStore?: TeamStore;
  /** Checks every request first; required to listen beyond loopback. */
  readonly authenticator?: Authenticator;
  /** Browser origins allowed besides the server's own loopback ones. */
  readonly allowedOrigins?: readonly string[];
  /** `[server.tenants]`: each key is served its tenant's workspace; none means one workspace for every key. */
  readonly tenants?: readonly TenantWorkspace[];
}

/** `serve --http` as typed: `--listen` and `--allow-origin` as given. */
export interface HttpArgs {
  readonly listen?: string;
  readonly allowedOrigins: readonly string[];
  readonly store?: string;
}

/** What `serve` does either way, with the config still to load. */
export type ServeBase = Omit<ServeOptions, 'loaded'>;

/**
 * `serve --http`: checks the address, loads the config, then serves until a signal. Returns the reason
 * when it refuses to start (a bad `--listen`, an address beyond loopback without authentication, or
 * `[server.tenants]` without keys): the caller prints it and exits with 2.
 */
export async function serveHttpCommand(args: HttpArgs, base: ServeBase): Promise<string | undefined> {
  let listen: ListenAddress;
  try {
    listen = args.listen === undefined ? DEFAULT_LISTEN : parseListenAddress(args.listen);
  } catch (error) {
    if (error instanceof ListenAddressError) return error.message;
    throw error;
  }
  const loaded = base.reload();
  await checkVisibilityTable(loaded);
  let teamStore: TeamStore | undefined;
  try {
    teamStore = await openConfiguredStore(args.store, loaded, base.logger);
  } catch (error) {
    return startRefusalOf(error);
  }
  const tenants = tenantWorkspaces(loaded);
  let authenticator: Authenticator | undefined;
  try {
    authenticator = teamStore
      ? await teamAuthenticator(loaded, teamStore, base.logger)
      : await configuredAuthenticator(loaded);
  } catch (error) {
    await teamStore?.close();
    return startRefusalOf(error);
  }
  const refusal =
    tenants.length > 0 && !authenticator
      ? TENANTS_NEED_KEYS
      : !isLoopbackHost(listen.host) && !authenticator
        ? beyondLoopbackRefusal(listen)
        : undefined;
  if (refusal !== undefined) {
    await teamStore?.close();
    return refusal;
  }
  try {
    await serveHttp({
      ...base,
      loaded,
      listen,
      ...(authenticator ? { authenticator } : {}),
      ...(teamStore ? { teamStore } : {}),
      allowedOrigins: args.allowedOrigins,
      tenants,
    });
  } catch (error) {
    await teamStore?.close();
    if (error instanceof ListenRefusedError) return error.message;
    throw error;
  }
  return undefined;
}

/**
 * Why the server cannot start, for a store that cannot be reached (what to fix, not "it recovers"), a bad
 * store URL, a schema of another version or a key secret that differs; any other error is thrown on.
 */
function startRefusalOf(error: unknown): string {
  if (!(error instanceof Error)) throw error;
  if ('atStart' in error && typeof error.atStart === 'string') return error.atStart;
  if (['StoreUrlError', 'SchemaTooNewError', 'KeySecretError'].includes(error.name)) return error.message;
  throw error;
}

/** The PostgreSQL team store when `--store`, MESHLENS_STORE or `[server] store` names one; it is migrated here. */
async function openConfiguredStore(
  flag: string | undefined,
  loaded: LoadedConfig,
  logger: ServeBase['logger'],
): Promise<TeamStore | undefined> {
  const { storeChoiceOf } = await import('../store/postgres/store-url.js');
  const choice = storeChoiceOf(flag, process.env, loaded.config.server.store);
  if (choice.kind === 'sqlite') return undefined;
  const { openTeamStore } = await import('../store/postgres/team-store.js');
  return openTeamStore(choice, { logger });
}

/** Without keys no request names a tenant, and a server with tenants serves no one by default: fail closed. */
const TENANTS_NEED_KEYS =
  'refusing to serve [server.tenants] without API keys: a request without a key has no tenant. ' +
  'Create a key for each tenant (meshlens keys create --tenant NAME --role ROLE), then start the server again.';

/**
 * API keys, once `meshlens keys create` has made one that is neither revoked nor expired: from then on every
 * HTTP request must name a key, on loopback too, and tool calls count against `[server.limits]`. Without
 * such a key the server is open on loopback only. A key store that exists but cannot be read is an error,
 * never a reason to serve without keys.
 */
async function configuredAuthenticator(loaded: LoadedConfig): Promise<Authenticator | undefined> {
  const { keysDbPath } = await import('../store/keys-paths.js');
  const file = keysDbPath(process.env);
  if (!existsSync(file)) return undefined;
  const { SqliteKeyStore } = await import('../store/keys-db.js');
  const store = SqliteKeyStore.open({ path: file, env: process.env });
  if (!store.hasActiveKey(Date.now())) {
    store.close();
    return undefined;
  }
  return authenticatorOver(loaded, store, store);
}

/**
 * API keys in the PostgreSQL team store, on the same terms as the SQLite ones: on once the database holds an
 * active key. Calls are counted there too, so a daily quota holds across every replica.
 */
async function teamAuthenticator(
  loaded: LoadedConfig,
  team: TeamStore,
  logger: ServeBase['logger'],
): Promise<Authenticator | undefined> {
  const [{ PostgresKeyStore }, { PostgresUsageCounter }] = await Promise.all([
    import('../store/postgres/key-store.js'),
    import('../store/postgres/usage-store.js'),
  ]);
  const keys = await PostgresKeyStore.open(team.pool, { env: process.env, logger });
  if (!(await keys.hasActiveKey(Date.now()))) return undefined;
  return authenticatorOver(loaded, keys, new PostgresUsageCounter(team.pool));
}

/** Keys checked in `keys`, calls admitted against `[server.limits]` and counted in `usage`: either store. */
async function authenticatorOver(
  loaded: LoadedConfig,
  keys: KeyLookup,
  usage: UsageCounter,
): Promise<Authenticator> {
  const [{ createAdmitter }, { limitsConfigOf }, { keyAuthenticator }] = await Promise.all([
    import('../core/admission.js'),
    import('../core/limits-config.js'),
    import('../server/http/key-authenticator.js'),
  ]);
  const admission = createAdmitter({ limits: limitsConfigOf(loaded.config.server.limits), usage });
  return keyAuthenticator(keys, admission);
}

/**
 * Serves MCP over Streamable HTTP until SIGINT or SIGTERM. Unlike stdio, the server outlives its clients:
 * the operations are composed and indexing starts at once, and every session gets its own MCP server over
 * the runtime of its caller (the one workspace, or its key's tenant's). The bound endpoint is printed on
 * stderr as one line, `meshlens: listening on <url>`, for whoever started the process (port 0 picks a free one).
 */
export async function serveHttp(options: HttpServeOptions): Promise<void> {
  // Listened for from the start: a signal while starting still ends in a clean shutdown.
  const signalled = shutdownSignal();
  const { logger } = options;
  const workspaces = await servedWorkspaces(options);
  let running: RunningHttpServer | undefined;
  const closeAll = async () => {
    await running
      ?.close()
      .catch((error: unknown) => logger.warn({ err: error }, 'closing the sessions failed'));
    await workspaces.close();
  };
  let stopWatchingConfig: (() => void) | undefined;
  try {
    const authenticator =
      options.authenticator && workspaces.serves
        ? tenantGate(options.authenticator, workspaces.serves)
        : options.authenticator;
    running = await startHttpServer({
      listen: options.listen,
      logger,
      ...(authenticator ? { authenticator } : {}),
      ...(options.allowedOrigins ? { allowedOrigins: options.allowedOrigins } : {}),
      // Each session's server lists, for the key that opened it, what that key may see, of its runtime.
      createServer: (principal) => {
        const key = callerOf(principal?.authInfo).principal;
        const runtime = workspaces.runtimeFor(key);
        return createMcpServer({
          registry: runtime.served,
          surface: options.surface,
          version: VERSION,
          structuredOutput: options.structuredOutput,
          catalog: runtime.catalog,
          ...(key ? { principal: key } : {}),
        });
      },
    });
    workspaces.start();
    const sessions = running.sessions;
    stopWatchingConfig = workspaces.watchConfig((message) => {
      for (const session of sessions.all()) {
        void session.server.log('warning', message).catch(() => undefined);
      }
    });
  } catch (error) {
    // A server that failed to start must not stay behind, listening without anyone to stop it.
    await closeAll();
    throw error;
  }
  process.stderr.write(`meshlens: listening on ${running.url}\n`);

  await signalled;
  stopWatchingConfig?.();
  await closeAll();
  await options.teamStore
    ?.close()
    .catch((error: unknown) => logger.warn({ err: error }, 'closing the store failed'));
  process.exit(0);
}

/** The one workspace, or a runtime per tenant when the config has `[server.tenants]`. */
async function servedWorkspaces(options: HttpServeOptions): Promise<ServedWorkspaces> {
  const { loaded, reload, logger, watch } = options;
  const team = options.teamStore ? { teamStore: options.teamStore } : {};
  if (options.tenants && options.tenants.length > 0) {
    const { TenantRuntimes } = await import('./tenant-runtimes.js');
    return new TenantRuntimes({ tenants: options.tenants, server: loaded, reload, logger, watch, ...team });
  }
  const { oneWorkspace } = await import('./served-workspaces.js');
  return oneWorkspace({ loaded, reload, logger, watch, ...team });
}

/** Resolves on the first SIGINT or SIGTERM; a second one ends the process at once. */
function shutdownSignal(): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      process.once('SIGINT', () => process.exit(130));
      process.once('SIGTERM', () => process.exit(143));
      resolve();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}
