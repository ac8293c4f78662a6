import { statSync, type Stats } from 'node:fs';
import { classifyPath, crawl, unusableDetail, type CrawlOptions, type CrawledFile } from './crawl.js';
import type { RejectedFile, RootInfo } from './reader.js';
import { compareFiles, fileKey, type IndexedFile, type Snapshot } from './snapshot.js';

/**
 * stat for a path an event named: one that is gone or cannot be looked at (too long, no permission) is
 * treated as gone, so that a single bad path never stops a reload.
 */
function statQuiet(file: string): Stats | undefined {
  try {
    return statSync(file, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

interface FileIdentity {
  readonly root: string;
  readonly path: string;
}

/** What an incremental reload re-reads and what it drops, decided from the changed paths alone. */
export interface PatchPlan {
  /** Changed or new files, freshly statted. */
  readonly files: readonly CrawledFile[];
  /** Files (by `root:path` key) that are gone or no longer indexable. */
  readonly gone: ReadonlyMap<string, FileIdentity>;
}

/**
 * Plans a reload that touches only the changed paths. A path that is an existing folder (created, renamed
 * in) brings files no event names one by one: that needs a re-crawl, so there is no plan (undefined).
 */
export function planPatch(
  snapshot: Snapshot,
  byKey: ReadonlyMap<string, IndexedFile>,
  paths: readonly string[],
  options: CrawlOptions,
): PatchPlan | undefined {
  const roots = snapshot.roots;
  const files = new Map<string, CrawledFile>();
  const gone = new Map<string, FileIdentity>();
  const rejectedKeys = new Set(snapshot.rejected.map((r) => fileKey(r.root, r.path)));
  for (const changed of paths) {
    const stats = statQuiet(changed);
    if (stats?.isDirectory()) return undefined;
    const identity = classifyPath(roots, changed, options);
    if (identity) {
      const key = fileKey(identity.root, identity.path);
      if (stats?.isFile()) {
        const rootPath = roots.find((root) => root.name === identity.root)?.path ?? '';
        files.set(key, {
          root: identity.root,
          path: identity.path,
          absolutePath: `${rootPath}/${identity.path}`,
          size: stats.size,
          mtimeMs: stats.mtimeMs,
        });
        gone.delete(key);
        continue;
      }
      gone.set(key, identity);
      if (byKey.has(key) || rejectedKeys.has(key)) continue;
    } else {
      // Excluded now (or outside every root): drop it if it was indexed.
      for (const file of snapshot.files)
        if (file.absolutePath === changed) gone.set(fileKey(file.root, file.path), file);
    }
    // A folder deleted or renamed away is reported once, as the folder: everything under it is gone.
    if (!stats)
      for (const file of filesUnder(snapshot, changed)) gone.set(fileKey(file.root, file.path), file);
  }
  for (const key of gone.keys()) files.delete(key);
  return { files: [...files.values()], gone };
}

function filesUnder(snapshot: Snapshot, folder: string): FileIdentity[] {
  const prefix = `${folder}/`;
  const rootPath = new Map(snapshot.roots.map((root) => [root.name, root.path]));
  return [
    ...snapshot.files.filter((f) => f.absolutePath.startsWith(prefix)),
    ...snapshot.rejected.filter((r) => `${rootPath.get(r.root) ?? ''}/${r.path}`.startsWith(prefix)),
  ];
}

/** The installed snapshot's files with a patch applied, and what left and came for derived structures. */
export interface PatchedFiles {
  readonly files: IndexedFile[];
  readonly rejected: RejectedFile[];
  readonly removed: IndexedFile[];
  readonly added: IndexedFile[];
}

/** Index of `target` in files sorted by `compareFiles`, or `-(insertion point) - 1` when absent. */
function search(files: readonly IndexedFile[], target: { root: string; path: string }): number {
  let low = 0;
  let high = files.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const order = compareFiles(files[mid] as IndexedFile, target);
    if (order === 0) return mid;
    if (order < 0) low = mid + 1;
    else high = mid - 1;
  }
  return -low - 1;
}

/**
 * Applies what a run over the planned files produced. `indexed` and `rejected` are that run's output: a
 * planned file in neither (an unsupported extension) is dropped like a gone one. Unchanged files keep their
 * objects, so a derived structure can tell what moved by identity.
 */
export function applyPatch(
  snapshot: Snapshot,
  plan: PatchPlan,
  indexed: readonly IndexedFile[],
  rejected: readonly RejectedFile[],
): PatchedFiles {
  const files = snapshot.files.slice();
  const removed: IndexedFile[] = [];
  const added: IndexedFile[] = [];
  const kept = new Set(indexed.map((f) => fileKey(f.root, f.path)));
  const drop = new Map(plan.gone);
  for (const file of plan.files) {
    const key = fileKey(file.root, file.path);
    if (!kept.has(key)) drop.set(key, file);
  }
  for (const identity of drop.values()) {
    const at = search(files, identity);
    if (at >= 0) removed.push(...files.splice(at, 1));
  }
  for (const file of indexed) {
    const at = search(files, file);
    if (at < 0) {
      files.splice(-at - 1, 0, file);
      added.push(file);
    } else if (files[at] !== file) {
      removed.push(files[at] as IndexedFile);
      added.push(file);
      files[at] = file;
    }
  }
  const touched = new Set([...drop.keys(), ...kept]);
  const carried = snapshot.rejected.filter((r) => !touched.has(fileKey(r.root, r.path)));
  return { files, rejected: [...carried, ...rejected].sort(compareFiles), removed, added };
}

/** Whether two rejected lists (sorted) report the same files for the same reasons. */
export function sameRejections(a: readonly RejectedFile[], b: readonly RejectedFile[]): boolean {
  return (
    a.length === b.length &&
    a.every((r, i) => {
      const other = b[i];
      return (
        other !== undefined && r.root === other.root && r.path === other.path && r.reason === other.reason
      );
    })
  );
}

/**
 * The file list of a reload that must re-crawl (a folder appeared or was renamed in): the previous
 * snapshot's files outside the changed folders, the folders re-crawled, and the changed file paths
 * re-statted or dropped. Running the index over it equals a full run over the same tree.
 */
export async function rebuildFileList(
  roots: readonly RootInfo[],
  snapshot: Snapshot | undefined,
  paths: readonly string[],
  options: CrawlOptions,
): Promise<{ files: CrawledFile[]; removed: number }> {
  const folders = paths.filter((p) => statQuiet(p)?.isDirectory());
  const inFolder = (absolutePath: string) => folders.some((folder) => absolutePath.startsWith(`${folder}/`));
  const byKey = new Map<string, CrawledFile>();
  for (const file of snapshot?.files ?? []) {
    if (inFolder(file.absolutePath)) continue;
    const { root, path, absolutePath, size, mtimeMs } = file;
    byKey.set(fileKey(root, path), { root, path, absolutePath, size, mtimeMs });
  }
  // Rejected files are carried without a stat (size -1) and re-statted below, so the guard judges them again.
  for (const rejected of snapshot?.rejected ?? []) {
    const root = roots.find((r) => r.name === rejected.root);
    if (!root) continue;
    const absolutePath = `${root.path}/${rejected.path}`;
    if (inFolder(absolutePath)) continue;
    byKey.set(fileKey(rejected.root, rejected.path), {
      root: rejected.root,
      path: rejected.path,
      absolutePath,
      size: -1,
      mtimeMs: -1,
      // A path the walk could not use stays rejected until its folder is walked again.
      ...(rejected.reason === 'unusable_path' ? { unusable: rejected.detail ?? 'unusable path' } : {}),
    });
  }
  if (folders.length > 0) {
    for (const file of await crawl(roots, options)) {
      if (inFolder(file.absolutePath)) byKey.set(fileKey(file.root, file.path), file);
    }
  }
  let removed = 0;
  for (const changed of paths) {
    if (folders.includes(changed)) continue;
    const identity = classifyPath(roots, changed, options);
    const stats = statQuiet(changed);
    if (!identity || !stats) {
      const known = [...byKey.entries()].find(([, f]) => f.absolutePath === changed);
      if (known && byKey.delete(known[0])) removed++;
      // A folder deleted or renamed away is reported once, as the folder: everything under it is gone.
      if (!stats) {
        for (const [key, file] of byKey) {
          if (file.absolutePath.startsWith(`${changed}/`) && byKey.delete(key)) removed++;
        }
      }
      continue;
    }
    byKey.set(fileKey(identity.root, identity.path), {
      root: identity.root,
      path: identity.path,
      absolutePath: changed,
      size: stats.size,
      mtimeMs: stats.mtimeMs,
    });
  }
  const files = [...byKey.values()].flatMap((file): CrawledFile[] => {
    if (file.size >= 0 || file.unusable) return [file];
    let stats;
    try {
      stats = statSync(file.absolutePath, { throwIfNoEntry: false });
    } catch (error) {
      return [{ ...file, size: 0, mtimeMs: 0, unusable: unusableDetail('file', file.absolutePath, error) }];
    }
    return stats ? [{ ...file, size: stats.size, mtimeMs: stats.mtimeMs }] : [];
  });
  return { files: files.sort(compareFiles), removed };
}
