import type { LoadedConfig } from '../core/config.js';
import type { Logger } from '../core/logger.js';
import { createMcpServer } from '../server/mcp-server.js';
import { LineStdioTransport } from '../server/stdio-transport.js';
import type { SurfaceKind } from '../server/surface.js';
import { composeRegistry } from './compose.js';
import { indexCatalog } from './index-catalog.js';
import { LazyIndex } from './lazy-index.js';
import { VERSION } from './version.js';

export interface ServeOptions {
  readonly loaded: LoadedConfig;
  readonly logger: Logger;
  readonly surface: SurfaceKind;
  readonly structuredOutput: boolean;
  readonly watch: boolean;
}

/** If a client never sends `notifications/initialized`, indexing still starts after this long. */
const START_INDEX_FALLBACK_MS = 1000;

/**
 * Serves MCP over stdio. The handshake is answered before the index engine is even imported; indexing starts
 * once the client says it is initialized. The process ends when stdin closes.
 */
export async function serveStdio(options: ServeOptions): Promise<void> {
  const { loaded, logger } = options;
  for (const warning of loaded.warnings) logger.warn({ config: loaded.file }, warning);
  const index = new LazyIndex(loaded, logger);
  const { registry, audit, close } = composeRegistry({
    loaded,
    index,
    logger,
    session: `stdio-${process.pid}-${Date.now()}`,
  });
  const server = createMcpServer({
    registry,
    surface: options.surface,
    version: VERSION,
    structuredOutput: options.structuredOutput,
    catalog: indexCatalog(index),
  });

  let started = false;
  const startIndexing = () => {
    if (started) return;
    started = true;
    void audit?.load();
    index
      .start({ watch: options.watch })
      .catch((error: unknown) => logger.error({ err: error }, 'indexing failed'));
  };
  server.oninitialized = startIndexing;
  const fallback = setTimeout(startIndexing, START_INDEX_FALLBACK_MS);
  fallback.unref();

  const transport = new LineStdioTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
  });
  await server.connect(transport);
  await closed;
  clearTimeout(fallback);
  await index.close().catch((error: unknown) => logger.warn({ err: error }, 'closing the index failed'));
  await close();
  // Worker threads or watchers must not keep a server alive whose client has gone.
  process.exit(0);
}
