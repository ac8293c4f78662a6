import path from 'node:path';
import type { IndexedFile, RootInfo, SnapshotReader } from '../../index/reader.js';
import { matchesTestConvention } from './test-files.js';

/** How a file is shown to agents: relative to the workspace folder when its root is inside it. */
export function displayPath(roots: readonly RootInfo[], root: string, file: string): string {
  const info = roots.find((r) => r.name === root);
  if (!info || root === '.' || path.isAbsolute(root)) return file;
  // Evidence declared outside the root (a shared Dapr subscription file) is written `../…` from it.
  return file.startsWith('../') ? path.posix.normalize(`${root}/${file}`) : `${root}/${file}`;
}

export const displayOf = (snapshot: SnapshotReader, file: IndexedFile): string =>
  displayPath(snapshot.roots, file.root, file.path);

/** Whether an absolute file path is the scope or inside it (scope undefined = everything). */
export function inScope(absolutePath: string, scope: string | undefined): boolean {
  if (!scope) return true;
  return (
    absolutePath === scope ||
    absolutePath.startsWith(scope.endsWith(path.sep) ? scope : `${scope}${path.sep}`)
  );
}

/** The scope as the caller should read it in an answer. */
export function scopeLabel(snapshot: SnapshotReader, scope: string | undefined): string {
  if (!scope) return 'all roots';
  for (const root of snapshot.roots) {
    if (scope === root.path) return root.name;
    if (scope.startsWith(`${root.path}${path.sep}`))
      return displayPath(
        snapshot.roots,
        root.name,
        path.relative(root.path, scope).split(path.sep).join('/'),
      );
  }
  return scope;
}

/** Test files and folders, which most answers leave out by default and count (conventions: test-files.ts). */
export function isTestPath(file: string): boolean {
  return matchesTestConvention(file);
}
