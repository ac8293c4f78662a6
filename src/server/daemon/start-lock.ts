import { closeSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from 'node:fs';

/** How long a lock file without a pid yet is taken as being written rather than left behind. */
const UNWRITTEN_GRACE_MS = 2_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * True when a process with this pid exists and has not exited: a signal-0 probe (EPERM means it exists but
 * is not ours), and on Linux not a zombie, which a detached process whose parent never reaps it stays.
 */
export function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat[stat.lastIndexOf(')') + 2] !== 'Z';
  } catch {
    return true;
  }
}

function tryCreate(lockFile: string): boolean {
  try {
    const fd = openSync(lockFile, 'wx', 0o600);
    try {
      writeSync(fd, String(process.pid));
    } finally {
      closeSync(fd);
    }
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/** A lock whose holder is gone: its pid names no process, or it never got a pid written. */
function isAbandoned(lockFile: string): boolean {
  let text: string;
  try {
    text = readFileSync(lockFile, 'utf8').trim();
  } catch {
    return false;
  }
  const pid = Number(text);
  if (text !== '' && Number.isInteger(pid) && pid > 0) return !processExists(pid);
  const age = Date.now() - (statSync(lockFile, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
  return age > UNWRITTEN_GRACE_MS;
}

function release(lockFile: string): void {
  try {
    if (readFileSync(lockFile, 'utf8').trim() === String(process.pid)) unlinkSync(lockFile);
  } catch {
    // Already gone.
  }
}

/**
 * Runs `work` while holding `lockFile` (created exclusively, holding this pid), so that of two daemons
 * starting at once only one checks for a live daemon and binds the socket at a time; the other then finds
 * it live. The lock is held for milliseconds. A lock left by a process that died holding it is removed;
 * two starters that both find the same one abandoned at the same instant could both go on, which needs a
 * crash inside those milliseconds first.
 */
export async function withStartLock<T>(
  lockFile: string,
  work: () => Promise<T>,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (!tryCreate(lockFile)) {
    if (isAbandoned(lockFile)) {
      try {
        unlinkSync(lockFile);
      } catch {
        // Someone else removed it first.
      }
      continue;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `another meshlens daemon has been starting for ${timeoutMs / 1000} s (lock file ${lockFile}); ` +
          'if no meshlens process is running, remove that file.',
      );
    }
    await sleep(25);
  }
  try {
    return await work();
  } finally {
    release(lockFile);
  }
}
