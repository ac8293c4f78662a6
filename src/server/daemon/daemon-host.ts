import { chmodSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import type { Logger } from '../../core/logger.js';
import { readFirstLine } from './first-line.js';
import { helloLine, parseClientHello, type ClientHello } from './handshake.js';
import { ensurePrivateFolder } from './private-folder.js';
import type { DaemonLocation } from './socket-path.js';
import { withStartLock } from './start-lock.js';

/** A client that connects but sends no hello within this long is not a meshlens client. */
const HELLO_TIMEOUT_MS = 10_000;

export interface DaemonHostOptions {
  readonly location: DaemonLocation;
  readonly version: string;
  /** How long the daemon stays up with no client attached, before `onIdle`. */
  readonly idleMs: number;
  readonly logger: Logger;
  /** Serves one attached client on its socket (the hello read, the rest of the socket unread). */
  readonly openSession: (socket: Socket, hello: ClientHello) => void;
  /** Called once when the idle time has passed with no client; the daemon shuts down there. */
  readonly onIdle: () => void;
}

export interface DaemonHost {
  /** Stops listening and removes the socket and pid file, unless another daemon has taken their place. */
  close(): Promise<void>;
}

/** A live daemon says hello at once; one that accepted but stays silent this long is busy, not dead. */
const PROBE_TIMEOUT_MS = 3_000;

/**
 * True when a daemon answers on `socket`. Refused or missing means none does; so does a connection that
 * closes before the hello, which is what a killed daemon's socket does while its last threads exit.
 */
export function isListening(socket: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createConnection(socket);
    const settle = (alive: boolean) => {
      clearTimeout(timer);
      probe.destroy();
      resolve(alive);
    };
    const timer = setTimeout(() => settle(true), PROBE_TIMEOUT_MS);
    probe.once('data', () => settle(true));
    probe.once('close', () => settle(false));
    // A full backlog (EAGAIN) is a live daemon that is busy, not a dead one.
    probe.once('error', (error: NodeJS.ErrnoException) => settle(error.code === 'EAGAIN'));
  });
}

function listen(socket: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    // The folder is private already; the socket itself is created owner-only too (no window at 0755).
    const umask = process.umask(0o177);
    try {
      server.listen(socket, () => {
        server.off('error', reject);
        resolve(server);
      });
    } finally {
      process.umask(umask);
    }
  });
}

/**
 * Binds the daemon's socket unless a live daemon holds it: under the start lock, a socket that refuses
 * connections (its daemon died) is removed and bound anew. Resolves 'already-running' when another daemon
 * answers, so that a second daemon started at the same moment leaves quietly and its client attaches to
 * the first.
 */
export async function startDaemonHost(options: DaemonHostOptions): Promise<DaemonHost | 'already-running'> {
  const { location } = options;
  ensurePrivateFolder(location.dir);
  const server = await withStartLock(location.lockFile, async () => {
    if (await isListening(location.socket)) return undefined;
    rmSync(location.socket, { force: true });
    const bound = await listen(location.socket);
    chmodSync(location.socket, 0o600);
    writeFileSync(location.pidFile, `${process.pid}\n`, { mode: 0o600 });
    return bound;
  });
  if (!server) return 'already-running';
  const inode = statSync(location.socket).ino;
  const clients = new ClientCount(options.idleMs, options.onIdle);
  server.on('connection', (socket) => void attach(socket, options, clients));
  return {
    close: () => closeHost(server, location, inode),
  };
}

/** Says hello, reads the client's, and hands the socket on; a client of another version is let go. */
async function attach(socket: Socket, options: DaemonHostOptions, clients: ClientCount): Promise<void> {
  socket.on('error', () => undefined);
  socket.write(helloLine({ meshlens: 'daemon', version: options.version, pid: process.pid }));
  const line = await readFirstLine(socket, HELLO_TIMEOUT_MS);
  const hello = line === undefined ? undefined : parseClientHello(line);
  if (!hello || hello.version !== options.version) {
    // A probe from a starting daemon, or a client that refused this daemon's version.
    socket.destroy();
    return;
  }
  clients.attached();
  socket.once('close', () => clients.detached());
  options.logger.info({ clients: clients.count }, 'daemon client attached');
  options.openSession(socket, hello);
}

/** Attached clients; with none, `onIdle` runs after `idleMs` unless a client attaches first. */
class ClientCount {
  count = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly idleMs: number;
  private readonly onIdle: () => void;

  constructor(idleMs: number, onIdle: () => void) {
    this.idleMs = idleMs;
    this.onIdle = onIdle;
    // Also at start: a daemon whose starting client went away before attaching must not stay forever.
    this.arm();
  }

  attached(): void {
    this.count++;
    clearTimeout(this.timer);
  }

  detached(): void {
    this.count--;
    if (this.count === 0) this.arm();
  }

  private arm(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(this.onIdle, this.idleMs);
  }
}

/**
 * Closing a listening socket unlinks its path, whichever socket is there now. A daemon whose path another
 * daemon has taken over (it was found dead while it was not) must leave that path alone: it stops without
 * closing the listener, and the process exit drops it.
 */
async function closeHost(server: Server, location: DaemonLocation, inode: number): Promise<void> {
  await withStartLock(location.lockFile, async () => {
    if (statSync(location.socket, { throwIfNoEntry: false })?.ino !== inode) return;
    rmSync(location.pidFile, { force: true });
    // Stops accepting and unlinks the path at once; connections still open are ended by their sessions.
    server.close();
  });
}
