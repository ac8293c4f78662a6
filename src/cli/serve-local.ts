import path from 'node:path';
import { versionRefusal } from '../server/daemon/handshake.js';
import { ensurePrivateFolder } from '../server/daemon/private-folder.js';
import { runThinClient } from '../server/daemon/thin-client.js';
import { daemonLocationOf, type DaemonTarget } from './daemon-location.js';
import { spawnDaemon } from './daemon-spawn.js';
import type { ServeOptions } from './serve.js';
import { VERSION } from './version.js';

/** How long `serve` waits for a daemon to listen (one it started included) before serving in-process. */
const ATTACH_TIMEOUT_MS = 20_000;

export interface LocalServeOptions extends ServeOptions {
  /** `--workspace` as given, else undefined (the current folder). */
  readonly workspace: string | undefined;
  readonly allowOutsideWorkspace: boolean;
  /** False with `--no-daemon`. */
  readonly daemon: boolean;
}

/**
 * `MESHLENS_NO_DAEMON=1` keeps `serve` in-process, like `--no-daemon`; so does Windows, whose local sockets
 * are named pipes without the file permissions the socket's privacy rests on.
 */
export function daemonWanted(options: { daemon: boolean }, env = process.env): boolean {
  return options.daemon && env.MESHLENS_NO_DAEMON !== '1' && process.platform !== 'win32';
}

const serveInProcess = async (options: LocalServeOptions): Promise<number> => {
  const { serveStdio } = await import('./serve.js');
  await serveStdio(options);
  return 0;
};

/**
 * `serve` over stdio on this machine: attached to the workspace's daemon (started when none runs), or in
 * this process with `--no-daemon`. A daemon of another version, or one that cannot be started, is
 * reported on stderr and the session is served in this process instead. Resolves with the exit status.
 */
export async function serveLocal(options: LocalServeOptions): Promise<number> {
  if (!daemonWanted(options)) return serveInProcess(options);
  const target: DaemonTarget = {
    workspaceDir: path.resolve(process.cwd(), options.workspace ?? '.'),
    configFile: options.loaded.file,
    watch: options.watch,
    allowOutsideWorkspace: options.allowOutsideWorkspace,
  };
  const location = daemonLocationOf(target);
  try {
    ensurePrivateFolder(location.dir);
  } catch (error) {
    return fallBack(options, `meshlens: ${(error as Error).message} Serving in this process instead.`);
  }
  const outcome = await runThinClient({
    location,
    hello: {
      meshlens: 'client',
      version: VERSION,
      surface: options.surface,
      structured_output: options.structuredOutput,
    },
    spawnDaemon: () => spawnDaemon(target, location),
    timeoutMs: ATTACH_TIMEOUT_MS,
    input: process.stdin,
    output: process.stdout,
    warn: (text) => process.stderr.write(`${text}\n`),
  });
  switch (outcome.kind) {
    case 'served':
      return exitWhenWritten(0);
    case 'lost':
      return exitWhenWritten(1);
    case 'other-version':
      return fallBack(options, versionRefusal(outcome.daemon, VERSION));
    case 'failed':
      return fallBack(
        options,
        `meshlens: could not attach to the workspace daemon: ${outcome.reason}. Serving in this process instead.`,
      );
  }
}

/** Ends the process once stdout has taken what was written (a pipe may be asynchronous, as on macOS). */
function exitWhenWritten(status: number): Promise<number> {
  return new Promise(() => process.stdout.write('', () => process.exit(status)));
}

function fallBack(options: LocalServeOptions, message: string): Promise<number> {
  process.stderr.write(`${message}\n`);
  return serveInProcess(options);
}
