import { closeSync, openSync } from 'node:fs';
import type { DaemonLocation } from '../server/daemon/socket-path.js';
import { daemonArgv, type DaemonTarget } from './daemon-location.js';
import daemonNodeFlags from './daemon-node-flags.json' with { type: 'json' };

/**
 * V8 settings of the daemon, the process that holds a workspace's index for as long as it runs. Semi-spaces of
 * 2 MB instead of V8's default of up to 16 MB: what a long-lived index allocates mostly survives anyway, and a
 * large young generation only keeps more garbage resident. On the benchmark's workspaces it held 25–40 MB less
 * (small 5k idle after a cold index 157 → 128 MB; realistic 5k after a warm start 235 → 194–209 MB), for more
 * frequent young collections (docs/performance.md). Kept in a JSON file so that the benchmark runs its
 * in-process server with the same flags.
 */
export const DAEMON_NODE_FLAGS: readonly string[] = daemonNodeFlags;

/**
 * Starts `meshlens daemon` for the target as a detached process of this same CLI: its own session (a
 * terminal's Ctrl-C or the editor ending this client does not reach it), stdin closed, stdout and stderr
 * appended to the log in its folder. Resolves with its exit status if it ends while this client runs.
 */
export async function spawnDaemon(target: DaemonTarget, location: DaemonLocation): Promise<number | null> {
  const cli = process.argv[1];
  if (cli === undefined) return 127;
  // Loaded only here: a client whose daemon runs already never starts a process.
  const { spawn } = await import('node:child_process');
  const log = openSync(location.logFile, 'a', 0o600);
  try {
    const child = spawn(process.execPath, [...DAEMON_NODE_FLAGS, cli, ...daemonArgv(target)], {
      detached: true,
      stdio: ['ignore', log, log],
      cwd: target.workspaceDir,
      env: process.env,
    });
    child.unref();
    return new Promise((resolve) => {
      child.once('exit', (code) => resolve(code));
      child.once('error', () => resolve(127));
    });
  } finally {
    closeSync(log);
  }
}
