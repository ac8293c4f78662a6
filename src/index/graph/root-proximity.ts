/**
 * Which of several same-named candidates a caller means. In a repository of many independent examples (or
 * several copies of one app), a name such as `order-processor` belongs to many roots; a caller talks to the
 * one deployed beside it, so among candidates the roots sharing the longest folder prefix with the caller's
 * root win. Candidates in one root are never narrowed.
 */
import type { IndexedFile } from '../snapshot.js';

/** Root name → its folder (absolute, `/`-separated), read off any of its files. */
export function rootFolders(files: readonly IndexedFile[]): Map<string, string> {
  const folders = new Map<string, string>();
  for (const file of files) {
    if (folders.has(file.root)) continue;
    const absolute = file.absolutePath.split('\\').join('/');
    const relative = file.path.split('\\').join('/');
    if (absolute.endsWith(`/${relative}`)) folders.set(file.root, absolute.slice(0, -relative.length - 1));
  }
  return folders;
}

/** How many leading folder names two folders share. */
function sharedDepth(a: string, b: string): number {
  const x = a.split('/');
  const y = b.split('/');
  let depth = 0;
  while (depth < x.length && depth < y.length && x[depth] === y[depth]) depth++;
  return depth;
}

/** The candidates (each in some root) nearest to `from`'s root; all of them when nothing tells them apart. */
export function nearestTo<T extends { readonly root: string }>(
  candidates: readonly T[],
  from: string,
  folders: ReadonlyMap<string, string>,
): readonly T[] {
  const origin = folders.get(from);
  if (origin === undefined || new Set(candidates.map((c) => c.root)).size < 2) return candidates;
  const depthOf = (c: T) => {
    const folder = folders.get(c.root);
    return folder === undefined ? -1 : sharedDepth(origin, folder);
  };
  const best = Math.max(...candidates.map(depthOf));
  return candidates.filter((c) => depthOf(c) === best);
}
