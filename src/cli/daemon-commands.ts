import type { LoadedConfig } from '../core/config.js';
import type { Logger } from '../core/logger.js';
import { OPERATIONS } from '../ops/catalog.js';
import type { CommandAnswer, CommandHello } from '../server/daemon/handshake.js';
import type { DaemonLocation } from '../server/daemon/socket-path.js';
import type { ServedRegistry } from '../server/served-registry.js';
import { bufferedIo } from './cli-io.js';
import { answersInDaemon, daemonMayAnswer } from './command-routing.js';
import { configChange } from './config-reload.js';
import { daemonLocationOf, daemonTargetOf } from './daemon-location.js';
import { commandWordsOf, globalOptionsOf, type GlobalOptions } from './global-options.js';
import type { LazyIndex } from './lazy-index.js';
import { openConfig, runCommandLine } from './main.js';
import { cliCall, CommandDeclined, indexesFirst, type OperationRuntime } from './operation-runtime.js';
import { PROGRESS_INTERVAL_MS } from './progress-bar.js';

/**
 * How long after a CLI process started a change made just before it may still be on its way to the index:
 * the file watcher reports a change within 50 ms, and the index waits 10 ms more for others.
 */
const WATCH_LATENCY_MS = 75;

/** What a daemon answers CLI commands with: its config at start, its socket, its index and registry. */
export interface DaemonParts {
  readonly loaded: LoadedConfig;
  readonly location: DaemonLocation;
  readonly index: LazyIndex;
  readonly served: ServedRegistry;
  /** Settles when the daemon's first index run has ended, installed or failed. */
  readonly firstIndex: Promise<unknown>;
  readonly logger: Logger;
}

/** Reports how far an index the command waits for has come (to a CLI with a terminal on stderr). */
export type ProgressSink = (done: number, total: number) => void;

const declined = (reason: string): CommandAnswer => ({ meshlens: 'declined', reason });

/**
 * Runs a CLI command line in the daemon, through the CLI's own command code (main.ts) with the daemon's
 * index and registry, and returns what the CLI process would have printed and its exit status. Declines
 * what it cannot answer as that process would: another command than a reading operation, another
 * workspace or config, a config changed in a way the daemon only applies on restart, no index.
 */
export async function answerCommand(
  parts: DaemonParts,
  hello: CommandHello,
  signal: AbortSignal,
  progress?: ProgressSink,
): Promise<CommandAnswer> {
  const argv = [process.execPath, process.argv[1] ?? 'meshlens', ...hello.argv];
  const words = daemonMayAnswer(argv, {}) ? commandWordsOf(argv) : undefined;
  const op = words && OPERATIONS.find((o) => o.domain === words.command && o.mode === words.sub);
  if (!op || !answersInDaemon(op)) return declined('not an operation the daemon answers');
  const globals = globalOptionsOf(argv);
  if (!servesTarget(parts, globals, hello.cwd)) return declined('another workspace, config or settings');
  const io = bufferedIo(hello.cwd, hello.columns);
  try {
    const runtime = daemonRuntime(parts, hello, globals, signal, progress);
    const status = await runCommandLine(argv, parts.logger, { io, runtime });
    return { meshlens: 'answer', stdout: io.written.stdout, stderr: io.written.stderr, status };
  } catch (error) {
    if (error instanceof CommandDeclined) return declined(error.message);
    throw error;
  }
}

/** The command line names this daemon's workspace, config and settings, read from the CLI's folder. */
function servesTarget(parts: DaemonParts, globals: GlobalOptions, cwd: string): boolean {
  const target = daemonTargetOf(
    { ...globals, watch: true, allowOutsideWorkspace: globals.allowOutsideWorkspace ?? false },
    cwd,
  );
  return target !== undefined && daemonLocationOf(target).socket === parts.location.socket;
}

function daemonRuntime(
  parts: DaemonParts,
  hello: CommandHello,
  globals: GlobalOptions,
  signal: AbortSignal,
  progress: ProgressSink | undefined,
): OperationRuntime {
  return {
    config() {
      // Loaded as the CLI loads it, so that a config error or a disabled domain reads the same.
      const loaded = openConfig(globals, undefined, hello.cwd);
      if (configChange(parts.loaded.config, loaded.config).needsRestart.length > 0) {
        throw new CommandDeclined('the config changed in a way the daemon applies only when restarted');
      }
      return loaded;
    },
    async invoke(op, rawArgs, loaded) {
      const registry = (await parts.served.current())
        .withDisabledDomains(loaded.config.tools.disabled_domains)
        .withVisibility(loaded.config.server.visibility);
      const call = cliCall(registry, op, rawArgs);
      if (indexesFirst(call.address, call.rawArgs)) await upToDate(parts, hello.started, progress);
      return registry.invoke({ ...call, session: `cli-${hello.pid}`, signal });
    },
  };
}

/**
 * Waits until the index holds what the CLI's own process would have indexed: the first index, and the
 * changes made before the CLI started (reported by the watcher, then reloaded).
 */
async function upToDate(parts: DaemonParts, started: number, progress?: ProgressSink): Promise<void> {
  const report = () => {
    const now = parts.index.indexProgress();
    if (now) progress?.(now.done, now.total);
  };
  const timer = progress ? setInterval(report, PROGRESS_INTERVAL_MS) : undefined;
  try {
    await parts.firstIndex;
  } finally {
    clearInterval(timer);
  }
  if (!parts.index.snapshot()) throw new CommandDeclined('the daemon has no index');
  const wait = Math.min(started + WATCH_LATENCY_MS - Date.now(), WATCH_LATENCY_MS);
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  await parts.index.settled();
}
