import { statSync, truncateSync } from 'node:fs';
import { ConfigError, type LoadedConfig } from '../core/config.js';
import { createLogger } from '../core/logger.js';
import { startDaemonHost } from '../server/daemon/daemon-host.js';
import { daemonLocationOf } from './daemon-location.js';
import { DaemonServing } from './daemon-serving.js';
import type { ServeArgs } from './serve-args.js';
import { serveConfigLoader } from './serve-config.js';
import { checkVisibilityTable } from './visibility-check.js';
import { VERSION } from './version.js';

/** The log is appended to by every start; past this size a winning start empties it first. */
const MAX_LOG_BYTES = 1024 * 1024;

/**
 * `meshlens daemon` (hidden; `serve` starts it): serves the workspace's MCP sessions over a Unix socket.
 * Exits with 0 at once when another daemon already serves the workspace, with 2 on a config error (which
 * `serve` then reports in-process), and otherwise runs until `[server] daemon_idle_minutes` have passed
 * with no client attached, or until SIGINT or SIGTERM.
 */
export async function runDaemon(args: ServeArgs): Promise<number> {
  const logger = createLogger();
  const load = serveConfigLoader(args);
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
  const serving = new DaemonServing(loaded, logger, location);
  let shutdown: () => void = () => undefined;
  const host = await startDaemonHost({
    location,
    version: VERSION,
    idleMs: loaded.config.server.daemon_idle_minutes * 60_000,
    logger,
    openSession: (socket, hello) => serving.open(socket, hello),
    onIdle: () => shutdown(),
  });
  if (host === 'already-running') return 0;
  if ((statSync(location.logFile, { throwIfNoEntry: false })?.size ?? 0) > MAX_LOG_BYTES) {
    truncateSync(location.logFile, 0);
  }
  process.stderr.write(`meshlens daemon ${VERSION} (pid ${process.pid}) listening on ${location.socket}\n`);
  serving.begin(args.watch);
  const stopWatchingConfig = args.watch ? serving.watchConfig(load) : () => undefined;
  shutdown = () =>
    void (async () => {
      await host
        .close()
        .catch((error: unknown) => logger.warn({ err: error }, 'removing the daemon socket failed'));
      stopWatchingConfig();
      await serving.close();
      process.stderr.write(`meshlens daemon (pid ${process.pid}) stopped\n`);
      process.exit(0);
    })();
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
  return new Promise<number>(() => undefined);
}
