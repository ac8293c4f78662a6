/**
 * `[workspace] roots` as folders: glob expansion (`*`, `?`, `[…]`, `**`, NFC/NFD-blind), the folder a pattern's
 * future matches appear under, and the one resolution that start-up and every later re-expansion share.
 */
import { existsSync, readdirSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { diskSpelling } from './disk-spelling.js';
import type { WorkspaceBoundary } from './workspace-boundary.js';

/** `[workspace] roots` as `resolveRoots` takes them: the patterns, and the folder they are relative to. */
export interface RootPatterns {
  readonly baseDir: string;
  /** As configured, `${WORKSPACE_ROOT}` substituted. */
  readonly patterns: readonly string[];
  /**
   * The folders roots must stay in, and whether one outside may be used (`--allow-outside-workspace`): a
   * folder matched later is held to the same boundary as at start-up. Absent: no boundary.
   */
  readonly boundary?: WorkspaceBoundary;
  readonly allowOutside?: boolean;
}

export interface ResolvedRoot {
  /** Stable label: the root's path relative to the workspace folder (`.` for the folder itself). */
  readonly name: string;
  /** Absolute and canonical (symlinks resolved). */
  readonly path: string;
}

const GLOB_CHARS = /[*?[]/;

/** Matches folder names in NFC, as the pattern is: a folder stored in NFD matches either spelling. */
function globSegment(segment: string): RegExp {
  let source = '';
  for (const char of segment.normalize('NFC')) {
    if (char === '*') source += '[^/]*';
    else if (char === '?') source += '[^/]';
    else source += char.replace(/[.+^${}()|\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

function listDirs(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory() && !e.name.startsWith('.'))
      .map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
}

/** Expands a root pattern into folders, one root per match, sorted. `**` matches any depth. */
export function expandRootGlob(baseDir: string, pattern: string): string[] {
  const absolute = path.resolve(baseDir, pattern);
  if (!GLOB_CHARS.test(pattern)) return [diskSpelling(absolute)];
  const parts = absolute.split(path.sep);
  let current = [parts[0] === '' ? path.sep : (parts[0] ?? path.sep)];
  for (const part of parts.slice(1)) {
    if (part === '') continue;
    const next: string[] = [];
    for (const dir of current) {
      if (part === '**') {
        const stack = [dir];
        while (stack.length) {
          const d = stack.pop() as string;
          next.push(d);
          for (const child of listDirs(d)) stack.push(path.join(d, child));
        }
      } else if (GLOB_CHARS.test(part)) {
        const matcher = globSegment(part);
        for (const child of listDirs(dir))
          if (matcher.test(child.normalize('NFC'))) next.push(path.join(dir, child));
      } else {
        next.push(diskSpelling(path.join(dir, part)));
      }
    }
    current = next;
  }
  return [...new Set(current)].filter((p) => existsSync(p) && statSync(p).isDirectory()).sort();
}

/**
 * The folder a root pattern's matches all lie under (its leading segments without glob characters), where a
 * new matching folder would appear; undefined for a plain path, which names its one root itself.
 */
export function rootPatternBase(baseDir: string, pattern: string): string | undefined {
  if (!GLOB_CHARS.test(pattern)) return undefined;
  // The pattern's own segments, not the resolved path's: a `[` in the workspace's path is no glob.
  const parts = pattern.split(/[\\/]/);
  const leading = parts.slice(
    0,
    parts.findIndex((part) => GLOB_CHARS.test(part)),
  );
  const prefix = leading.join('/');
  return path.resolve(baseDir, prefix === '' && leading.length > 0 ? path.sep : prefix);
}

/**
 * The roots the patterns match now: existing folders, canonical, without duplicates, sorted, each named by
 * its path relative to the workspace folder; and the indexes of the patterns that match no folder. Start-up
 * and every later re-expansion go through here, so both accept exactly the same folders.
 */
export function resolveRoots({ baseDir, patterns, boundary, allowOutside }: RootPatterns): {
  roots: ResolvedRoot[];
  unmatched: number[];
  /** Matches outside the boundary: among the roots only when `allowOutside`. */
  outside: { index: number; resolved: string }[];
} {
  const rootPaths: string[] = [];
  const unmatched: number[] = [];
  const outside: { index: number; resolved: string }[] = [];
  patterns.forEach((pattern, index) => {
    const existing = expandRootGlob(baseDir, pattern).filter((p) => existsSync(p));
    if (existing.length === 0) unmatched.push(index);
    for (const p of existing) {
      const real = realpathSync(p);
      if (boundary && !boundary.contains(real)) {
        outside.push({ index, resolved: real });
        if (!allowOutside) continue;
      }
      rootPaths.push(real);
    }
  });
  const unique = [...new Set(rootPaths)].sort();
  const baseReal = existsSync(baseDir) ? realpathSync(baseDir) : baseDir;
  const roots = unique.map((p): ResolvedRoot => {
    const relative = path.relative(baseReal, p).split(path.sep).join('/');
    return { name: relative === '' ? '.' : relative.startsWith('..') ? p : relative, path: p };
  });
  return { roots, unmatched, outside };
}
