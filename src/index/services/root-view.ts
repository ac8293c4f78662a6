/**
 * The service model seen through the configured roots: which root holds each entry, what each root answers
 * to (its identity, for HTTP matching), its display name, and which source folders no root covers.
 *
 * The identity rule: a root takes the names and environment of every service, gateway, load generator or
 * library entry whose folder is the root or inside it (a root holding several units answers to all of
 * them), and of the deepest entry that contains the root (a root configured below its service's folder,
 * such as `cart/src` for the `cart` service). Names are lower-cased; for environment the first value wins,
 * in that order (the root's own entry, entries inside it by folder, the containing entry).
 */
import path from 'node:path';
import type { ServiceModelResult } from './model.js';
import type { RootFolder, RootIdentity, ServiceEntry, ServiceView } from './types.js';

export type { RootFolder, ServiceView, ServiceViewEntry } from './types.js';
import { within } from './workspace-files.js';

const IDENTITY_KINDS = new Set(['service', 'gateway', 'loadgen', 'app', 'library']);

export function rootFolders(baseDir: string, roots: readonly { name: string; path: string }[]): RootFolder[] {
  return roots.map((root) => {
    const relative = path.relative(baseDir, root.path).split(path.sep).join('/');
    const outside = relative.startsWith('..') || path.isAbsolute(relative);
    return { name: root.name, folder: outside ? undefined : relative || '.' };
  });
}

function rootOf(folder: string, roots: readonly RootFolder[]): string | undefined {
  let best: RootFolder | undefined;
  for (const root of roots)
    if (
      root.folder !== undefined &&
      within(folder, root.folder) &&
      (!best || (best.folder ?? '').length < root.folder.length)
    )
      best = root;
  return best?.name ?? roots.find((r) => r.folder !== undefined && within(r.folder, folder))?.name;
}

export function serviceView(result: ServiceModelResult, roots: readonly RootFolder[]): ServiceView {
  const covering = roots.flatMap((r) => (r.folder === undefined ? [] : [r.folder]));
  return {
    entries: result.model.entries.map((entry) => ({ ...entry, root: rootOf(entry.folder, roots) })),
    uncovered: result.sourceFolders.uncovered(covering),
    partial: result.partial,
  };
}

/** The entries a root takes its identity from, in precedence order (see the file comment). */
function entriesOfRoot(folder: string, entries: readonly ServiceEntry[]): ServiceEntry[] {
  const candidates = entries.filter((e) => IDENTITY_KINDS.has(e.kind));
  const own = candidates.filter((e) => within(e.folder, folder));
  const containing = candidates
    .filter((e) => e.folder !== folder && within(folder, e.folder))
    .sort((a, b) => b.folder.length - a.folder.length)[0];
  return [
    ...own.sort((a, b) =>
      a.folder === folder ? -1 : b.folder === folder ? 1 : a.folder < b.folder ? -1 : 1,
    ),
    ...(containing ? [containing] : []),
  ];
}

export function rootIdentities(
  entries: readonly ServiceEntry[],
  roots: readonly RootFolder[],
): Map<string, RootIdentity> {
  const out = new Map<string, RootIdentity>();
  for (const root of roots) {
    if (root.folder === undefined) continue;
    const mine = entriesOfRoot(root.folder, entries);
    if (mine.length === 0) continue;
    const names = [...new Set(mine.flatMap((e) => e.names.map((n) => n.name.toLowerCase())))];
    const env = new Map<string, string>();
    for (const variable of mine.flatMap((e) => e.env))
      if (!env.has(variable.name)) env.set(variable.name, variable.value);
    out.set(root.name, { names, env });
  }
  return out;
}

/**
 * A root's display name when its manifest declares none: the first name the model learnt for the entry at
 * exactly the root's folder other than the folder name, else undefined (the folder name stays).
 */
export function modelDisplayName(
  entries: readonly ServiceEntry[],
  folder: string | undefined,
): string | undefined {
  const entry = folder === undefined ? undefined : entries.find((e) => e.folder === folder);
  return entry?.names.find((n) => n.from.how !== 'folder name')?.name;
}
