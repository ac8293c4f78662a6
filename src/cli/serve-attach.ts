import { versionRefusal } from '../server/daemon/handshake.js';
import { ensurePrivateFolder } from '../server/daemon/private-folder.js';
import { runThinClient } from '../server/daemon/thin-client.js';
import { daemonLocationOf, daemonTargetOf } from './daemon-location.js';
import { spawnDaemon } from './daemon-spawn.js';
import { daemonWanted, type ServeArgs } from './serve-args.js';
import { VERSION } from './version.js';

/** How long `serve` waits for a daemon to listen (one it started included) before serving in-process. */
const ATTACH_TIMEOUT_MS = 20_000;

export type AttachResult =
  /** The session ran through a daemon and is over; exit with this status. */
  | { readonly kind: 'ended'; readonly status: number }
  /** Serve in this process: asked to, or no daemon could be attached (the reason is on stderr already). */
  | { readonly kind: 'in-process' };

const IN_PROCESS: AttachResult = { kind: 'in-process' };

/**
 * `serve` over stdio as a thin pipe to the workspace's daemon, started when none runs. Loads neither the
 * config schema nor the MCP server: the daemon does both (a bad config makes it exit, and the in-process
 * fallback then reports the error as `serve` always has). A daemon of another version, or one that cannot
 * be started, is reported on stderr and the session is served in this process instead.
 */
export async function attachToDaemon(args: ServeArgs): Promise<AttachResult> {
  if (!daemonWanted(args)) return IN_PROCESS;
  const target = daemonTargetOf(args, process.cwd());
  if (!target) return IN_PROCESS;
  const location = daemonLocationOf(target);
  try {
    ensurePrivateFolder(location.dir);
  } catch (error) {
    return fallBack(`meshlens: ${(error as Error).message} Serving in this process instead.`);
  }
  const outcome = await runThinClient({
    location,
    hello: {
      meshlens: 'client',
      version: VERSION,
      surface: args.surface,
      structured_output: args.structuredOutput,
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
      return fallBack(versionRefusal(outcome.daemon, VERSION));
    case 'failed':
      // A config the daemon refused: serving in-process reports it, exactly as without a daemon.
      if (outcome.daemonStatus === 2) return IN_PROCESS;
      return fallBack(
        `meshlens: could not attach to the workspace daemon: ${outcome.reason}. Serving in this process instead.`,
      );
  }
}

/** Ends the process once stdout has taken what was written (a pipe may be asynchronous, as on macOS). */
function exitWhenWritten(status: number): Promise<AttachResult> {
  return new Promise(() => process.stdout.write('', () => process.exit(status)));
}

function fallBack(message: string): AttachResult {
  process.stderr.write(`${message}\n`);
  return IN_PROCESS;
}
