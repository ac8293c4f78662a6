import { createConnection } from 'node:net';
import path from 'node:path';
import { readFirstLine } from '../server/daemon/first-line.js';
import { parseDaemonHello, type DaemonHello } from '../server/daemon/handshake.js';
import type { DaemonLocation } from '../server/daemon/socket-path.js';
import { processExists } from '../server/daemon/start-lock.js';
import { daemonLocationOf, daemonTargetOf } from './daemon-location.js';
import type { GlobalOptions } from './global-options.js';
import { UsageError } from './operation-commands.js';

/** How long `daemon stop` waits for a daemon to exit after SIGTERM. */
const STOP_TIMEOUT_MS = 10_000;
const HELLO_TIMEOUT_MS = 3_000;

interface RunningDaemon {
  readonly location: DaemonLocation;
  readonly hello: DaemonHello;
  readonly watch: boolean;
}

export interface DaemonAdminOptions {
  readonly globals: GlobalOptions;
  readonly cwd: string;
  readonly write: (text: string) => void;
}

/**
 * The daemons of the workspace and config this command line names: the watching one (`serve`, the CLI) and
 * the one `serve --no-watch` starts, each known by the hello it says on its socket.
 */
async function runningDaemons({ globals, cwd }: DaemonAdminOptions): Promise<{
  workspace: string;
  daemons: RunningDaemon[];
}> {
  const workspace = path.resolve(cwd, globals.workspace ?? '.');
  const daemons: RunningDaemon[] = [];
  for (const watch of [true, false]) {
    const target = daemonTargetOf(
      { ...globals, watch, allowOutsideWorkspace: globals.allowOutsideWorkspace ?? false },
      cwd,
    );
    if (!target) {
      throw new UsageError(
        `no daemon can serve ${workspace}: the folder does not exist, or --config names no file`,
      );
    }
    const location = daemonLocationOf(target);
    const hello = await helloOf(location.socket);
    if (hello) daemons.push({ location, hello, watch });
  }
  return { workspace, daemons };
}

/** The hello a daemon says on connecting, or undefined when none answers there. */
function helloOf(socket: string): Promise<DaemonHello | undefined> {
  return new Promise((resolve) => {
    const connection = createConnection(socket);
    connection.once('error', () => resolve(undefined));
    connection.once('connect', () => {
      void readFirstLine(connection, HELLO_TIMEOUT_MS).then((line) => {
        connection.destroy();
        resolve(line === undefined ? undefined : parseDaemonHello(line));
      });
    });
  });
}

const describeDaemon = ({ location, hello, watch }: RunningDaemon): string =>
  `pid ${hello.pid}, version ${hello.version}${watch ? '' : ', not watching (serve --no-watch)'}; ` +
  `socket ${location.socket}, log ${location.logFile}`;

/** `meshlens daemon status`: the workspace's daemons, or that none runs. */
export async function daemonStatus(options: DaemonAdminOptions): Promise<void> {
  const { workspace, daemons } = await runningDaemons(options);
  if (daemons.length === 0) return options.write(`no daemon runs for ${workspace}`);
  for (const daemon of daemons) options.write(`daemon for ${workspace}: ${describeDaemon(daemon)}`);
}

/** `meshlens daemon stop`: SIGTERM to each of the workspace's daemons, waiting until its process has gone. */
export async function daemonStop(options: DaemonAdminOptions): Promise<void> {
  const { workspace, daemons } = await runningDaemons(options);
  if (daemons.length === 0) return options.write(`no daemon runs for ${workspace}`);
  for (const { hello } of daemons) {
    process.kill(hello.pid, 'SIGTERM');
    const deadline = Date.now() + STOP_TIMEOUT_MS;
    while (processExists(hello.pid)) {
      if (Date.now() > deadline) {
        throw new Error(
          `the daemon (pid ${hello.pid}) is still running ${STOP_TIMEOUT_MS / 1000} s after SIGTERM`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    options.write(`stopped the daemon for ${workspace} (pid ${hello.pid})`);
  }
}
