import type { LoadedConfig } from '../core/config.js';
import type { Logger } from '../core/logger.js';
import { createMcpServer } from '../server/mcp-server.js';
import { ServedRegistry } from '../server/served-registry.js';
import { LineStdioTransport } from '../server/stdio-transport.js';
import type { SurfaceKind } from '../server/surface.js';
import { flushCompileCache } from './compile-cache.js';
import type { ComposedRegistry } from './compose.js';
import { checkVisibilityTable } from './visibility-check.js';
import { indexCatalog } from './index-catalog.js';
import { LazyIndex } from './lazy-index.js';
import { LazyNotes } from './lazy-notes.js';
import { watchServedConfig } from './serve-config-watch.js';
import { VERSION } from './version.js';

export interface ServeOptions {
  readonly loaded: LoadedConfig;
  /** Loads the config again, as at start (for a config file changed while serving). */
  readonly reload: () => LoadedConfig;
  readonly logger: Logger;
  readonly surface: SurfaceKind;
  readonly structuredOutput: boolean;
  readonly watch: boolean;
}

/** If a client never sends `notifications/initialized`, indexing still starts after this long. */
const START_INDEX_FALLBACK_MS = 1000;

/**
 * Serves MCP over stdio. The handshake is answered before the operations are composed and before the index
 * engine is even imported: both load once the client says it is initialized (or asks for anything). With
 * `watch`, a change to the config file that disables or enables domains changes the tools at once. The
 * process ends when stdin closes.
 */
export async function serveStdio(options: ServeOptions): Promise<void> {
  const { loaded, logger } = options;
  for (const warning of loaded.warnings) logger.warn({ config: loaded.file }, warning);
  await checkVisibilityTable(loaded);
  const index = new LazyIndex(loaded, logger);
  const notes = new LazyNotes(loaded.baseDir);
  const session = `stdio-${process.pid}-${Date.now()}`;
  let composed: ComposedRegistry | undefined;
  const served = new ServedRegistry(async () => {
    const { composeRegistry } = await import('./compose.js');
    composed = composeRegistry({ loaded, index, notes, logger, session });
    return composed.registry;
  });
  const server = createMcpServer({
    registry: served,
    surface: options.surface,
    version: VERSION,
    structuredOutput: options.structuredOutput,
    catalog: indexCatalog(index, notes),
  });

  let started = false;
  const startIndexing = () => {
    if (started) return;
    started = true;
    // The operations first: the client's next request (tools/list) needs them, the index comes later.
    void served
      .current()
      .then(async () => {
        void composed?.audit?.load();
        // Loaded after the operations, like them: nothing of it is on the path to `initialize`.
        const { warmEachSnapshot } = await import('./snapshot-warmup.js');
        warmEachSnapshot(index, logger);
        const indexing = index.start({ watch: options.watch });
        // The engine is imported by now (its first run goes on): everything a session loads is compiled.
        void index.load().then(flushCompileCache);
        return indexing;
      })
      .catch((error: unknown) => logger.error({ err: error }, 'indexing failed'));
  };
  server.oninitialized = startIndexing;
  const fallback = setTimeout(startIndexing, START_INDEX_FALLBACK_MS);
  fallback.unref();

  const stopWatchingConfig = options.watch
    ? watchServedConfig({
        loaded,
        reload: options.reload,
        logger,
        served,
        warnClients: (message) => void server.log('warning', message).catch(() => undefined),
      })
    : () => undefined;

  const transport = new LineStdioTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
  });
  await server.connect(transport);
  await closed;
  clearTimeout(fallback);
  stopWatchingConfig();
  await index.close().catch((error: unknown) => logger.warn({ err: error }, 'closing the index failed'));
  // Closes the notes too: the registry was composed over the same handle.
  await composed?.close();
  // Worker threads or watchers must not keep a server alive whose client has gone.
  process.exit(0);
}
