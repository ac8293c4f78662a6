import { statSync, truncateSync } from 'node:fs';
import type { Socket } from 'node:net';
import { ConfigError, loadConfig, type LoadedConfig } from '../core/config.js';
import { createLogger, type Logger } from '../core/logger.js';
import { startDaemonHost, type DaemonHost } from '../server/daemon/daemon-host.js';
import type { ClientHello } from '../server/daemon/handshake.js';
import { SocketLineTransport } from '../server/daemon/socket-transport.js';
import { createMcpServer } from '../server/mcp-server.js';
import type { MeshServer } from '../server/mesh-server.js';
import { ServedRegistry } from '../server/served-registry.js';
import { flushCompileCache } from './compile-cache.js';
import type { ComposedRegistry } from './compose.js';
import { daemonLocationOf } from './daemon-location.js';
import { indexCatalog } from './index-catalog.js';
import { LazyIndex } from './lazy-index.js';
import { LazyNotes } from './lazy-notes.js';
import type { ServeArgs } from './serve-args.js';
import { watchServedConfig } from './serve-config-watch.js';
import { checkVisibilityTable } from './visibility-check.js';
import { VERSION } from './version.js';

/** The log is appended to by every start; past this size a winning start empties it first. */
const MAX_LOG_BYTES = 1024 * 1024;

/** What one daemon serves to all its clients: one index, one registry (audit log, notes), one catalog. */
interface Shared {
  readonly index: LazyIndex;
  readonly composed: ComposedRegistry;
  readonly served: ServedRegistry;
  readonly catalog: ReturnType<typeof indexCatalog>;
}

/**
 * `meshlens daemon` (hidden; `serve` starts it): serves the workspace's MCP sessions over a Unix socket,
 * each attached client with a server of its own over one index, watcher, audit log and notes store. Exits
 * when another daemon already serves the workspace (0), after `[server] daemon_idle_minutes` with no client
 * attached, or on SIGINT/SIGTERM.
 */
export async function runDaemon(args: ServeArgs): Promise<number> {
  const logger = createLogger();
  const load = () =>
    loadConfig({
      cwd: process.cwd(),
      ...(args.config ? { configPath: args.config } : {}),
      ...(args.workspace ? { workspaceDir: args.workspace } : {}),
      outsideWorkspace: args.allowOutsideWorkspace ? 'allow' : 'refuse',
    });
  let loaded: LoadedConfig;
  try {
    loaded = load();
    await checkVisibilityTable(loaded);
  } catch (error) {
    process.stderr.write(`meshlens daemon: ${(error as Error).message}\n`);
    return error instanceof ConfigError ? 2 : 1;
  }
  const location = daemonLocationOf({
    workspaceDir: args.workspace ?? process.cwd(),
    configFile: loaded.file,
    watch: args.watch,
    allowOutsideWorkspace: args.allowOutsideWorkspace,
  });
  const sessions = new Set<MeshServer>();
  let served: (value: Shared) => void = () => undefined;
  const shared = new Promise<Shared>((resolve) => (served = resolve));
  let shutdown: () => void = () => undefined;
  const host = await startDaemonHost({
    location,
    version: VERSION,
    idleMs: loaded.config.server.daemon_idle_minutes * 60_000,
    logger,
    openSession: (socket, hello) => void openSession(shared, sessions, socket, hello, logger),
    onIdle: () => shutdown(),
  });
  if (host === 'already-running') return 0;
  if ((statSync(location.logFile, { throwIfNoEntry: false })?.size ?? 0) > MAX_LOG_BYTES) {
    truncateSync(location.logFile, 0);
  }
  process.stderr.write(`meshlens daemon ${VERSION} (pid ${process.pid}) listening on ${location.socket}\n`);
  // From the moment the socket exists: a signal while starting still removes it.
  let stopWatchingConfig: () => void = () => undefined;
  shutdown = () => void stop(host, shared, sessions, () => stopWatchingConfig(), logger);
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
  served(await startServing(loaded, logger, args.watch));
  if (args.watch) stopWatchingConfig = watchConfigFor(loaded, load, logger, shared, sessions);
  return new Promise<number>(() => undefined);
}

/** Composes the operations and starts indexing at once: the daemon outlives its clients, like HTTP. */
async function startServing(loaded: LoadedConfig, logger: Logger, watch: boolean): Promise<Shared> {
  for (const warning of loaded.warnings) logger.warn({ config: loaded.file }, warning);
  const index = new LazyIndex(loaded, logger);
  const notes = new LazyNotes(loaded.baseDir);
  const { composeRegistry } = await import('./compose.js');
  const composed = composeRegistry({ loaded, index, notes, logger, session: `daemon-${process.pid}` });
  const served = ServedRegistry.of(composed.registry);
  void composed.audit?.load();
  const { warmEachSnapshot } = await import('./snapshot-warmup.js');
  warmEachSnapshot(index, logger);
  void index.start({ watch }).catch((error: unknown) => logger.error({ err: error }, 'indexing failed'));
  void index
    .load()
    .then(flushCompileCache)
    .catch(() => undefined);
  return { index, composed, served, catalog: indexCatalog(index, notes) };
}

async function openSession(
  shared: Promise<Shared>,
  sessions: Set<MeshServer>,
  socket: Socket,
  hello: ClientHello,
  logger: Logger,
): Promise<void> {
  const { served, catalog } = await shared;
  const server = createMcpServer({
    registry: served,
    surface: hello.surface,
    version: VERSION,
    structuredOutput: hello.structured_output,
    catalog,
  });
  sessions.add(server);
  socket.once('close', () => {
    sessions.delete(server);
    void server.close().catch(() => undefined);
  });
  await server
    .connect(new SocketLineTransport(socket))
    .catch((error: unknown) => logger.warn({ err: error }, 'a daemon session failed to start'));
}

function watchConfigFor(
  loaded: LoadedConfig,
  reload: () => LoadedConfig,
  logger: Logger,
  shared: Promise<Shared>,
  sessions: Set<MeshServer>,
): () => void {
  let stop: () => void = () => undefined;
  let stopped = false;
  void shared.then(({ served }) => {
    if (stopped) return;
    stop = watchServedConfig({
      loaded,
      reload,
      logger,
      served,
      warnClients: (message) => {
        for (const server of sessions) void server.log('warning', message).catch(() => undefined);
      },
    });
  });
  return () => {
    stopped = true;
    stop();
  };
}

async function stop(
  host: DaemonHost,
  shared: Promise<Shared>,
  sessions: Set<MeshServer>,
  stopWatchingConfig: () => void,
  logger: Logger,
): Promise<void> {
  await host.close();
  stopWatchingConfig();
  for (const server of sessions) await server.close().catch(() => undefined);
  const { index, composed } = await shared;
  await index.close().catch((error: unknown) => logger.warn({ err: error }, 'closing the index failed'));
  // The audit log last: the records of the calls the closing sessions ended are in it.
  await composed.close();
  process.stderr.write(`meshlens daemon (pid ${process.pid}) stopped\n`);
  process.exit(0);
}
