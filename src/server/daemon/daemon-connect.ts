import { readFileSync } from 'node:fs';
import { createConnection, type Socket } from 'node:net';
import { readFirstLine } from './first-line.js';
import { helloLine, parseDaemonHello, type ClientHello, type DaemonHello } from './handshake.js';
import type { DaemonLocation } from './socket-path.js';

/** A daemon that accepted the connection says hello at once; one that does not within this long is stuck. */
const HELLO_TIMEOUT_MS = 10_000;
const RETRY_MS = 20;

export type Connection =
  | { readonly kind: 'attached'; readonly socket: Socket; readonly daemon: DaemonHello }
  | { readonly kind: 'other-version'; readonly daemon: DaemonHello }
  /** `daemonStatus`: the exit status of a daemon started here that failed (2: the config is wrong). */
  | { readonly kind: 'failed'; readonly reason: string; readonly daemonStatus?: number | null };

export interface ConnectOptions {
  readonly location: DaemonLocation;
  /** The client's hello; its version must be the daemon's. */
  readonly hello: ClientHello;
  /**
   * Starts a daemon (a detached process) and resolves with its exit status if it ends: 0 when another
   * daemon won the start, else it failed.
   */
  readonly spawnDaemon: () => Promise<number | null>;
  /** How long to wait for a daemon to listen, including one started here. */
  readonly timeoutMs: number;
}

type Dialled = { socket: Socket } | { code: string };

function dial(path: string): Promise<Dialled> {
  return new Promise((resolve) => {
    const socket = createConnection(path);
    socket.once('connect', () => {
      socket.removeAllListeners('error');
      resolve({ socket });
    });
    socket.once('error', (error: NodeJS.ErrnoException) => {
      socket.destroy();
      resolve({ code: error.code ?? 'unknown' });
    });
  });
}

/** The last lines of the daemon's log, to say why it did not start. */
function logTail(file: string): string {
  try {
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    return lines.slice(-3).join(' | ');
  } catch {
    return '(no log)';
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Attaches to the workspace's daemon, starting one when none listens: a missing socket, or one that refuses
 * connections (its daemon died and left it behind), gets a new daemon, which replaces the stale socket.
 * A daemon that closes before its hello is on its way out (idle): the next attempt starts another.
 */
export async function connectToDaemon(options: ConnectOptions): Promise<Connection> {
  const { location } = options;
  const deadline = Date.now() + options.timeoutMs;
  let started: Promise<number | null> | undefined;
  let failedStatus: number | null | undefined;
  for (;;) {
    const dialled = await dial(location.socket);
    if ('socket' in dialled) {
      const line = await readFirstLine(dialled.socket, HELLO_TIMEOUT_MS);
      const daemon = line === undefined ? undefined : parseDaemonHello(line);
      if (daemon && daemon.version !== options.hello.version) {
        dialled.socket.destroy();
        return { kind: 'other-version', daemon };
      }
      if (daemon) {
        dialled.socket.write(helloLine(options.hello));
        return { kind: 'attached', socket: dialled.socket, daemon };
      }
      dialled.socket.destroy();
      if (line !== undefined) {
        return { kind: 'failed', reason: `${location.socket} answers, but not as a meshlens daemon` };
      }
    } else if (dialled.code === 'ENOENT' || dialled.code === 'ECONNREFUSED') {
      // Started once per attach; a start that lost to another daemon's waits for that one to listen.
      started ??= options.spawnDaemon().then((status) => {
        failedStatus = status;
        // Lost to a daemon that has since gone too: the next refusal starts another.
        if (status === 0) started = undefined;
        return status;
      });
    } else if (dialled.code !== 'EAGAIN') {
      return { kind: 'failed', reason: `cannot connect to ${location.socket} (${dialled.code})` };
    }
    if (failedStatus !== undefined && failedStatus !== 0) {
      return {
        kind: 'failed',
        reason: `the daemon exited with status ${failedStatus}: ${logTail(location.logFile)}`,
        daemonStatus: failedStatus,
      };
    }
    if (Date.now() > deadline) {
      return {
        kind: 'failed',
        reason: `no daemon listened on ${location.socket} within ${options.timeoutMs / 1000} s (log: ${location.logFile})`,
      };
    }
    await sleep(RETRY_MS);
  }
}
