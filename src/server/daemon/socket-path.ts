import { createHash } from 'node:crypto';
import path from 'node:path';

/**
 * What makes two `serve` processes the same daemon's clients: the same canonical workspace folder, config
 * file and cache folder, and the same settings that change what is served (further cache and data paths
 * from the environment, `--no-watch`, `--allow-outside-workspace`). Anything else gets a daemon of its own.
 */
export interface DaemonIdentity {
  readonly workspaceDir: string;
  readonly configFile: string | undefined;
  readonly cacheDir: string;
  readonly settings: Readonly<Record<string, string>>;
}

/** Where a daemon's folder may go: `$XDG_RUNTIME_DIR` when set, else the cache folder, else the temp folder. */
export interface DaemonPlaces {
  readonly runtimeDir: string | undefined;
  readonly tmpDir: string;
  readonly uid: number;
}

/** The files of one daemon, all in one folder only its owner may open. */
export interface DaemonLocation {
  readonly dir: string;
  readonly socket: string;
  /** The pid of the daemon listening on `socket`, written once it listens. */
  readonly pidFile: string;
  /** Held while a daemon checks for a live one and binds the socket. */
  readonly lockFile: string;
  /** The daemon's stderr (it has no terminal). */
  readonly logFile: string;
}

/**
 * A socket path longer than this does not fit `sun_path` everywhere: 108 bytes on Linux, 104 on macOS,
 * each with the terminating NUL.
 */
export const MAX_SOCKET_PATH_BYTES = 103;

/** 16 hex digits of a SHA-256 over the identity: short enough for sun_path, far too many to collide. */
export function daemonKey(identity: DaemonIdentity): string {
  const settings = Object.entries(identity.settings).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const text = JSON.stringify([
    identity.workspaceDir,
    identity.configFile ?? '',
    identity.cacheDir,
    settings,
  ]);
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

function locationIn(base: string, key: string): DaemonLocation {
  const dir = path.join(base, key);
  return {
    dir,
    socket: path.join(dir, 'sock'),
    pidFile: path.join(dir, 'pid'),
    lockFile: path.join(dir, 'lock'),
    logFile: path.join(dir, 'daemon.log'),
  };
}

const fits = (location: DaemonLocation): boolean =>
  Buffer.byteLength(location.socket) <= MAX_SOCKET_PATH_BYTES;

/**
 * The daemon's folder: `$XDG_RUNTIME_DIR/meshlens/<key>` (a per-user tmpfs, emptied at logout), else
 * `<cache>/daemons/<key>`; when that socket path is too long for sun_path, `<tmp>/meshlens-<uid>/<key>`,
 * and `/tmp/meshlens-<uid>/<key>` if even the temp folder's path is too long.
 */
export function daemonLocation(identity: DaemonIdentity, places: DaemonPlaces): DaemonLocation {
  const key = daemonKey(identity);
  const runtime = places.runtimeDir && path.isAbsolute(places.runtimeDir) ? places.runtimeDir : undefined;
  const preferred = locationIn(
    runtime ? path.join(runtime, 'meshlens') : path.join(identity.cacheDir, 'daemons'),
    key,
  );
  if (fits(preferred)) return preferred;
  const temp = locationIn(path.join(places.tmpDir, `meshlens-${places.uid}`), key);
  return fits(temp) ? temp : locationIn(path.join('/tmp', `meshlens-${places.uid}`), key);
}
