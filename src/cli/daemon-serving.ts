import type { Socket } from 'node:net';
import type { LoadedConfig } from '../core/config.js';
import type { Logger } from '../core/logger.js';
import { helloLine, type ClientHello, type CommandHello } from '../server/daemon/handshake.js';
import type { DaemonLocation } from '../server/daemon/socket-path.js';
import { SocketLineTransport } from '../server/daemon/socket-transport.js';
import { createMcpServer } from '../server/mcp-server.js';
import type { MeshServer } from '../server/mesh-server.js';
import { ServedRegistry } from '../server/served-registry.js';
import { flushCompileCache } from './compile-cache.js';
import type { ComposedRegistry } from './compose.js';
import { indexCatalog } from './index-catalog.js';
import { LazyIndex } from './lazy-index.js';
import { LazyNotes } from './lazy-notes.js';
import { watchServedConfig } from './serve-config-watch.js';
import { VERSION } from './version.js';

/**
 * What a workspace daemon serves to all its clients: one index and watcher, one registry (audit log, notes
 * store), one catalog; each attached client gets an MCP server of its own over them, as HTTP sessions do,
 * and each CLI command its answer from them.
 */
export class DaemonServing {
  readonly sessions = new Set<MeshServer>();
  private readonly index: LazyIndex;
  private readonly notes: LazyNotes;
  private readonly served: ServedRegistry;
  private composed: ComposedRegistry | undefined;
  private readonly loaded: LoadedConfig;
  private readonly logger: Logger;
  private readonly location: DaemonLocation;
  /** Settles when the first index run has ended (installed or failed); never rejects. */
  private readonly firstIndex: Promise<void>;
  private firstIndexEnded: () => void = () => undefined;

  /** Cheap: nothing is loaded or indexed until `begin()`. */
  constructor(loaded: LoadedConfig, logger: Logger, location: DaemonLocation) {
    this.loaded = loaded;
    this.logger = logger;
    this.location = location;
    this.firstIndex = new Promise((resolve) => (this.firstIndexEnded = resolve));
    this.index = new LazyIndex(loaded, logger);
    this.notes = new LazyNotes(loaded.baseDir);
    this.served = new ServedRegistry(async () => {
      const { composeRegistry } = await import('./compose.js');
      this.composed = composeRegistry({
        loaded,
        index: this.index,
        notes: this.notes,
        logger,
        session: `daemon-${process.pid}`,
      });
      return this.composed.registry;
    });
  }

  /**
   * Composes the operations and starts indexing at once: the daemon outlives its clients. Sessions are
   * served meanwhile; their `initialize` needs neither.
   */
  begin(watch: boolean): void {
    for (const warning of this.loaded.warnings) this.logger.warn({ config: this.loaded.file }, warning);
    void this.served
      .current()
      .then(async () => {
        void this.composed?.audit?.load();
        const { warmEachSnapshot } = await import('./snapshot-warmup.js');
        warmEachSnapshot(this.index, this.logger);
        const indexing = this.index.start({ watch });
        void this.index.load().then(flushCompileCache);
        return indexing;
      })
      .catch((error: unknown) => this.logger.error({ err: error }, 'indexing failed'))
      .finally(this.firstIndexEnded);
  }

  /** Serves one attached client: its MCP session until either side closes it, or its one CLI command. */
  open(socket: Socket, hello: ClientHello): void {
    if (hello.meshlens === 'cli') return void this.answer(socket, hello);
    const server = createMcpServer({
      registry: this.served,
      surface: hello.surface,
      version: VERSION,
      structuredOutput: hello.structured_output,
      catalog: indexCatalog(this.index, this.notes),
    });
    this.sessions.add(server);
    socket.once('close', () => {
      this.sessions.delete(server);
      void server.close().catch(() => undefined);
    });
    void server
      .connect(new SocketLineTransport(socket))
      .catch((error: unknown) => this.logger.warn({ err: error }, 'a daemon session failed to start'));
  }

  /** Answers a CLI command with one line, then closes; a client that goes first cancels the call. */
  private async answer(socket: Socket, hello: CommandHello): Promise<void> {
    const gone = new AbortController();
    socket.once('close', () => gone.abort());
    // Loaded on the first command: a daemon that only serves MCP sessions never reads the CLI's code.
    const { answerCommand } = await import('./daemon-commands.js');
    const answer = await answerCommand(
      {
        loaded: this.loaded,
        location: this.location,
        index: this.index,
        served: this.served,
        firstIndex: this.firstIndex,
        logger: this.logger,
      },
      hello,
      gone.signal,
      // The CLI draws a progress bar only on a terminal; without one, nothing is sent.
      hello.columns.stderr === undefined
        ? undefined
        : (done, total) => socket.write(helloLine({ meshlens: 'progress', done, total })),
    ).catch((error: unknown) => {
      this.logger.error({ err: error }, 'a CLI command failed in the daemon');
      return { meshlens: 'declined' as const, reason: 'the daemon failed to run the command' };
    });
    socket.end(helloLine(answer));
  }

  /** Applies config file changes to the shared registry; a restart notice goes to every session. */
  watchConfig(reload: () => LoadedConfig): () => void {
    return watchServedConfig({
      loaded: this.loaded,
      reload,
      logger: this.logger,
      served: this.served,
      warnClients: (message) => {
        for (const server of this.sessions) void server.log('warning', message).catch(() => undefined);
      },
    });
  }

  /** Ends the sessions, then the index; the audit log last, with the records of the calls they ended. */
  async close(): Promise<void> {
    for (const server of this.sessions) await server.close().catch(() => undefined);
    await this.index
      .close()
      .catch((error: unknown) => this.logger.warn({ err: error }, 'closing the index failed'));
    await this.composed?.close();
  }
}
