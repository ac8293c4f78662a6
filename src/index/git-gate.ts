import { execFile } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** The real git folder of the repository holding `dir`: `.git`, or where a `.git` file's `gitdir:` points. */
export function findGitDir(dir: string): string | undefined {
  let current = path.resolve(dir);
  for (;;) {
    const candidate = path.join(current, '.git');
    try {
      const stats = statSync(candidate, { throwIfNoEntry: false });
      if (stats?.isDirectory()) return candidate;
      if (stats?.isFile()) {
        // Worktrees and submodules: `.git` is a file naming the real git folder.
        const match = /^gitdir:\s*(.+)$/m.exec(readFileSync(candidate, 'utf8'));
        if (match?.[1]) return path.resolve(current, match[1].trim());
      }
    } catch {
      return undefined;
    }
    const parent = path.dirname(current);
    if (parent === current) return undefined;
    current = parent;
  }
}

/** Markers of a git operation under way in a git folder. */
const LOCK_MARKERS = [
  'index.lock',
  'HEAD.lock',
  'rebase-merge',
  'rebase-apply',
  'MERGE_HEAD.lock',
  'shallow.lock',
];

export interface GitActivity {
  readonly marker: string;
  readonly gitDir: string;
  readonly ageMs: number;
}

/** The first operation marker present in any of the git folders, with its age. */
export function gitActivity(gitDirs: readonly string[], now = Date.now()): GitActivity | undefined {
  for (const gitDir of gitDirs) {
    for (const marker of LOCK_MARKERS) {
      const full = path.join(gitDir, marker);
      const stats = statSync(full, { throwIfNoEntry: false });
      if (stats) return { marker, gitDir, ageMs: now - stats.mtimeMs };
    }
  }
  return undefined;
}

/** Whether a `git` process of this user is running (an `index.lock` without one is abandoned). */
export function gitProcessRunning(timeoutMs = 2000): Promise<boolean> {
  return new Promise((resolve) => {
    const uid = typeof process.getuid === 'function' ? String(process.getuid()) : undefined;
    const args = uid ? ['-u', uid, '-x', 'git'] : ['-x', 'git'];
    execFile('pgrep', args, { timeout: timeoutMs }, (error) => {
      // pgrep exits 1 for "no process"; any other failure (no pgrep) counts as running, to be safe.
      if (!error) resolve(true);
      else resolve((error as { code?: number }).code !== 1);
    });
  });
}

/** Whether a changed path inside a git folder means HEAD or a ref moved (a branch switch, commit, reset). */
export function isRefChange(gitDir: string, changed: string): boolean {
  const relative = path.relative(gitDir, changed).split(path.sep).join('/');
  return relative === 'HEAD' || relative === 'packed-refs' || relative.startsWith('refs/');
}

export const isInside = (parent: string, child: string): boolean => {
  const relative = path.relative(parent, child);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
};

export const gitDirExists = (gitDir: string): boolean => existsSync(gitDir);
