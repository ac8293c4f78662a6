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
import { callerOf } from '../server/caller-auth-info.js';
import { createMcpServer } from '../server/mcp-server.js';
import { ServedRegistry } from '../server/served-registry.js';
import { flushCompileCache } from './compile-cache.js';
import { indexCatalog } from './index-catalog.js';
import { LazyIndex } from './lazy-index.js';
import { LazyNotes } from './lazy-notes.js';
import type { TeamStore } from '../store/postgres/team-store.js';
import type { AuditTrail } from './lazy-audit.js';
import type { UsageCounter } from '../core/admission.js';
import type { ServeOptions } from './serve.js';
import { watchServedConfig } from './serve-config-watch.js';
import { warmEachSnapshot } from './snapshot-warmup.js';
import { checkVisibilityTable } from './visibility-check.js';
import { VERSION } from './version.js';

export interface HttpServeOptions extends ServeOptions {
  readonly listen: ListenAddress;
  /** The PostgreSQL team store, when `--store` names one; SQLite files otherwise. */
  readonly teamStore?: TeamStore;
  /** Checks every request first; required to listen beyond loopback. */
  readonly authenticator?: Authenticator;
  /** Browser origins allowed besides the server's own loopback ones. */
  readonly allowedOrigins?: readonly string[];
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
 * when it refuses to start (a bad `--listen`, or an address beyond loopback without authentication): the
 * caller prints it and exits with 2.
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
    if (error instanceof Error && 'atStart' in error && typeof error.atStart === 'string')
      return error.atStart;
    if (error instanceof Error && /^StoreUrlError$|^SchemaTooNewError$/.test(error.name))
      return error.message;
    throw error;
  }
  let authenticator: Authenticator | undefined;
  try {
    authenticator = teamStore
      ? await teamAuthenticator(loaded, teamStore, base.logger)
      : await configuredAuthenticator(loaded);
  } catch (error) {
    await teamStore?.close();
    if (error instanceof Error && 'atStart' in error && typeof error.atStart === 'string')
      return error.atStart;
    if (error instanceof Error && error.name === 'KeySecretError') return error.message;
    throw error;
  }
  if (!isLoopbackHost(listen.host) && !authenticator) {
    await teamStore?.close();
    return beyondLoopbackRefusal(listen);
  }
  try {
    await serveHttp({
      ...base,
      loaded,
      listen,
      ...(authenticator ? { authenticator } : {}),
      ...(teamStore ? { teamStore } : {}),
      allowedOrigins: args.allowedOrigins,
    });
  } catch (error) {
    await teamStore?.close();
    if (error instanceof ListenRefusedError) return error.message;
    throw error;
  }
  return undefined;
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
  const [{ SqliteKeyStore }, { createAdmitter }, { limitsConfigOf }, { keyAuthenticator }] =
    await Promise.all([
      import('../store/keys-db.js'),
      import('../core/admission.js'),
      import('../core/limits-config.js'),
      import('../server/http/key-authenticator.js'),
    ]);
  const store = SqliteKeyStore.open({ path: file, env: process.env });
  const now = Date.now();
  const active = store
    .list()
    .some((key) => key.revokedAt === null && (key.expiresAt === null || Date.parse(key.expiresAt) > now));
  if (!active) {
    store.close();
    return undefined;
  }
  const admission = createAdmitter({ limits: limitsConfigOf(loaded.config.server.limits), usage: store });
  return keyAuthenticator(store, admission);
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
  const [
    { PostgresKeyStore },
    { PostgresUsageCounter },
    { createAdmitter },
    { limitsConfigOf },
    { keyAuthenticator },
  ] = await Promise.all([
    import('../store/postgres/key-store.js'),
    import('../store/postgres/usage-store.js'),
    import('../core/admission.js'),
    import('../core/limits-config.js'),
    import('../server/http/key-authenticator.js'),
  ]);
  const keys = await PostgresKeyStore.open(team.pool, { env: process.env, logger });
  if (!(await keys.hasActiveKey(Date.now()))) return undefined;
  const usage = new PostgresUsageCounter(team.pool);
  const admission = createAdmitter({ limits: limitsConfigOf(loaded.config.server.limits), usage });
  return keyAuthenticator(keys, admission);
}

/**
 * Serves MCP over Streamable HTTP until SIGINT or SIGTERM. Unlike stdio, the server outlives its clients:
 * the operations are composed and indexing starts at once, and every session gets its own MCP server over
 * the one registry, index and audit log. The bound endpoint is printed on stderr as one line,
 * `meshlens: listening on <url>`, for whoever started the process (port 0 picks a free one).
 */
export async function serveHttp(options: HttpServeOptions): Promise<void> {
  // Listened for from the start: a signal while starting still ends in a clean shutdown.
  const signalled = shutdownSignal();
  const { loaded, logger } = options;
  for (const warning of loaded.warnings) logger.warn({ config: loaded.file }, warning);
  const index = new LazyIndex(loaded, logger);
  const notes = new LazyNotes(loaded.baseDir);
  const { composeRegistry } = await import('./compose.js');
  const composed = composeRegistry({
    loaded,
    index,
    notes,
    logger,
    session: `http-${process.pid}-${Date.now()}`,
    ...(options.teamStore ? await teamServices(options.teamStore, logger) : {}),
  });
  const served = ServedRegistry.of(composed.registry);
  const catalog = indexCatalog(index, notes);
  const closeAll = async (running?: RunningHttpServer) => {
    await running
      ?.close()
      .catch((error: unknown) => logger.warn({ err: error }, 'closing the sessions failed'));
    await index.close().catch((error: unknown) => logger.warn({ err: error }, 'closing the index failed'));
    // The audit log is written last: the records of calls that the closing sessions ended are in it.
    await composed.close();
  };
  let running: RunningHttpServer | undefined;
  let stopWatchingConfig: () => void = () => undefined;
  try {
    running = await startHttpServer({
      listen: options.listen,
      logger,
      ...(options.authenticator ? { authenticator: options.authenticator } : {}),
      ...(options.allowedOrigins ? { allowedOrigins: options.allowedOrigins } : {}),
      // Each session's server lists, for the key that opened it, what that key may see.
      createServer: (principal) => {
        const key = callerOf(principal?.authInfo).principal;
        return createMcpServer({
          registry: served,
          surface: options.surface,
          version: VERSION,
          structuredOutput: options.structuredOutput,
          catalog,
          ...(key ? { principal: key } : {}),
        });
      },
    });
    void composed.audit?.load();
    warmEachSnapshot(index, logger);
    void index
      .start({ watch: options.watch })
      .catch((error: unknown) => logger.error({ err: error }, 'indexing failed'));
    void index
      .load()
      .then(flushCompileCache)
      .catch(() => undefined);
    if (options.watch) stopWatchingConfig = watchConfigFor(options, served, running);
  } catch (error) {
    // A server that failed to start must not stay behind, listening without anyone to stop it.
    await closeAll(running);
    throw error;
  }
  process.stderr.write(`meshlens: listening on ${running.url}\n`);

  await signalled;
  stopWatchingConfig();
  await closeAll(running);
  await options.teamStore
    ?.close()
    .catch((error: unknown) => logger.warn({ err: error }, 'closing the store failed'));
  process.exit(0);
}

/**
 * What the registry keeps in the team store: the audit chain (the server's own, since it serves no tenants)
 * and the count of calls made without a key.
 */
async function teamServices(
  team: TeamStore,
  logger: ServeBase['logger'],
): Promise<{ readonly audit: AuditTrail; readonly usage: UsageCounter }> {
  const [{ PostgresAuditSink }, { PostgresUsageCounter }, { NO_TENANT }] = await Promise.all([
    import('../store/postgres/audit-store.js'),
    import('../store/postgres/usage-store.js'),
    import('../store/postgres/team-store.js'),
  ]);
  return {
    audit: new PostgresAuditSink(team.pool, { tenant: NO_TENANT, logger }),
    usage: new PostgresUsageCounter(team.pool),
  };
}

/** A changed config file applied to the shared registry; a restart notice goes to every open session. */
function watchConfigFor(
  options: HttpServeOptions,
  served: ServedRegistry,
  running: RunningHttpServer,
): () => void {
  return watchServedConfig({
    loaded: options.loaded,
    reload: options.reload,
    logger: options.logger,
    served,
    warnClients: (message) => {
      for (const session of running.sessions.all()) {
        void session.server.log('warning', message).catch(() => undefined);
      }
    },
  });
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
