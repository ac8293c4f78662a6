import { closeSync, openSync } from 'node:fs';
import type { DaemonLocation } from '../server/daemon/socket-path.js';
import { daemonArgv, type DaemonTarget } from './daemon-location.js';

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
    const child = spawn(process.execPath, [cli, ...daemonArgv(target)], {
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
