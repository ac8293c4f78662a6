import { callDaemon } from '../server/daemon/command-call.js';
import { versionRefusal } from '../server/daemon/handshake.js';
import { ensurePrivateFolder } from '../server/daemon/private-folder.js';
import { daemonMayAnswer } from './command-routing.js';
import { createProgressBar } from './progress-bar.js';
import { daemonLocationOf, daemonTargetOf } from './daemon-location.js';
import { spawnDaemon } from './daemon-spawn.js';
import { globalOptionsOf } from './global-options.js';
import { VERSION } from './version.js';

/**
 * How long a CLI command waits for a daemon to listen (one it started included) before answering in its
 * own process. A daemon takes well under a second to listen; one that has not within this long is starting
 * on a machine too busy to wait for, and keeps starting for the next command.
 */
const LISTEN_TIMEOUT_MS = 5_000;

export type CliAttachResult =
  /** The daemon answered and its output is printed: exit with this status. */
  | { readonly kind: 'answered'; readonly status: number }
  /** Answer in this process (a note on stderr says why, when a daemon should have answered and did not). */
  | { readonly kind: 'in-process' };

const IN_PROCESS: CliAttachResult = { kind: 'in-process' };

/**
 * An operation command (see `daemonMayAnswer`) answered by the workspace's daemon, the one `serve` attaches to for the same
 * workspace and config (started when none runs): the daemon holds the index loaded and watched, so the
 * command costs a Node start and a socket round trip instead of loading the index. Loads neither the
 * config schema nor the engine. The daemon prints exactly what this process would, or declines and this
 * process answers; so does it when the daemon is of another version, cannot start, or dies before answering.
 */
export async function answerThroughDaemon(argv: readonly string[]): Promise<CliAttachResult> {
  if (!daemonMayAnswer(argv)) return IN_PROCESS;
  const globals = globalOptionsOf(argv);
  const cwd = process.cwd();
  // A watching daemon, as a plain `serve` starts: one that does not watch would answer from an old index.
  const target = daemonTargetOf(
    { ...globals, watch: true, allowOutsideWorkspace: globals.allowOutsideWorkspace ?? false },
    cwd,
  );
  if (!target) return IN_PROCESS;
  const location = daemonLocationOf(target);
  try {
    ensurePrivateFolder(location.dir);
  } catch (error) {
    return fallBack(`meshlens: ${(error as Error).message} Answering in this process instead.`);
  }
  const bar = createProgressBar(process.stderr);
  const outcome = await callDaemon({
    location,
    hello: {
      meshlens: 'cli',
      version: VERSION,
      argv: argv.slice(2),
      cwd,
      pid: process.pid,
      started: performance.timeOrigin,
      columns: {
        ...(process.stdout.isTTY ? { stdout: process.stdout.columns } : {}),
        ...(process.stderr.isTTY ? { stderr: process.stderr.columns } : {}),
      },
    },
    spawnDaemon: () => spawnDaemon(target, location),
    timeoutMs: LISTEN_TIMEOUT_MS,
    ...(bar ? { onProgress: bar.update } : {}),
  });
  bar?.clear();
  switch (outcome.kind) {
    case 'answered': {
      const { answer } = outcome;
      // A command the daemon does not answer as this process would: no note, this is the ordinary path.
      if (answer.meshlens === 'declined') return IN_PROCESS;
      if (answer.stdout !== '') process.stdout.write(answer.stdout);
      if (answer.stderr !== '') process.stderr.write(answer.stderr);
      return { kind: 'answered', status: answer.status };
    }
    case 'lost':
      return fallBack(
        'meshlens: the workspace daemon ended before answering; answering in this process instead.',
      );
    case 'other-version':
      return fallBack(versionRefusal(outcome.daemon, VERSION, 'Answering'));
    case 'failed':
      // A config the daemon refused: this process reports it, exactly as without a daemon.
      if (outcome.daemonStatus === 2) return IN_PROCESS;
      return fallBack(
        `meshlens: could not use the workspace daemon: ${outcome.reason}. Answering in this process instead.`,
      );
  }
}

function fallBack(message: string): CliAttachResult {
  process.stderr.write(`${message}\n`);
  return IN_PROCESS;
}
