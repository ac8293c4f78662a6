/**
 * The roots `init` proposes, from the service model: one root per service, gateway, load generator,
 * library, contracts and documentation folder, and per folder of deploy manifests; then one per group of
 * source folders that no declaration covers, so that every folder holding code is indexed. Sibling roots
 * become one glob only when every folder the glob matches is one of them.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { ServiceModelResult } from '../index/services/model.js';
import { groupFolder } from '../index/services/source-folders.js';
import type { Learnt, ServiceEntry } from '../index/services/types.js';
import { parentOf, within } from '../index/services/workspace-files.js';

export interface RootChoice {
  /** As written in `roots`: a folder, or `<container>/*`. */
  readonly pattern: string;
  /** Why, as a comment on the same line. */
  readonly reason: string;
  /** For a glob: why each folder it matches is a root, as comment lines above it. */
  readonly details?: readonly string[];
}

const where = (learnt: Learnt): string => (learnt.line > 0 ? `${learnt.file}:${learnt.line}` : learnt.file);

function entryReason(entry: ServiceEntry): string {
  const name = entry.names[0]?.name ?? entry.folder;
  const evidence = entry.evidence.slice(0, 2).map((e) => `${e.how} (${where(e)})`);
  return `${entry.kind} "${name}": ${evidence.join(', ')}`;
}

/** Folders a `<folder>/*` glob would match: every non-hidden sub-folder, as the config loader expands it. */
function globMatches(workspaceDir: string, folder: string): string[] {
  try {
    return readdirSync(path.join(workspaceDir, folder), { withFileTypes: true })
      .filter((e) => e.isDirectory() && !e.name.startsWith('.'))
      .map((e) => (folder === '.' ? e.name : `${folder}/${e.name}`))
      .sort();
  } catch {
    return [];
  }
}

/** Replaces sibling roots by `<parent>/*` where the glob would match exactly them (two or more). */
function collapse(workspaceDir: string, roots: RootChoice[]): RootChoice[] {
  const byParent = new Map<string, RootChoice[]>();
  for (const root of roots) {
    const parent = parentOf(root.pattern);
    if (root.pattern === '.' || parent === '.') continue;
    byParent.set(parent, [...(byParent.get(parent) ?? []), root]);
  }
  let out = roots;
  for (const [parent, children] of byParent) {
    const matches = globMatches(workspaceDir, parent);
    const mine = new Set(children.map((c) => c.pattern));
    if (children.length < 2 || matches.length !== children.length || !matches.every((m) => mine.has(m)))
      continue;
    out = out.filter((r) => !mine.has(r.pattern));
    out.push({
      pattern: `${parent}/*`,
      reason: `every sub-folder of ${parent}/ is one unit (${children.length})`,
      details: children.map((c) => `${c.pattern}: ${c.reason}`),
    });
  }
  return out;
}

const ROOT_KINDS = new Set(['service', 'gateway', 'loadgen', 'app', 'tests', 'library', 'contracts', 'docs']);

/** A deploy entry is a root when it holds manifests to read (YAML): a bare Dockerfile folder is not. */
function holdsManifests(result: ServiceModelResult, folder: string): boolean {
  return result.workspace
    .foldersUnder(folder)
    .some((f) => result.workspace.filesOf(f).some((n) => /\.ya?ml$/.test(n)));
}

export function proposeRoots(workspaceDir: string, result: ServiceModelResult): RootChoice[] {
  const { entries } = result.model;
  const top = entries.find((e) => e.folder === '.');
  if (top) return [{ pattern: '.', reason: `one project: ${entryReason(top)}` }];
  const chosen = entries.filter(
    (e) => ROOT_KINDS.has(e.kind) || (e.kind === 'deploy' && holdsManifests(result, e.folder)),
  );
  const roots: RootChoice[] = chosen.map((e) => ({ pattern: e.folder, reason: entryReason(e) }));
  const covering = chosen.map((e) => e.folder);
  const groups = new Map<string, number>();
  for (const folder of result.sourceFolders.uncovered(covering)) {
    const group = groupFolder(
      folder,
      entries.map((e) => e.folder),
    );
    groups.set(group, (groups.get(group) ?? 0) + 1);
  }
  for (const [group, count] of groups)
    if (group !== '.' && !covering.some((c) => within(group, c)))
      roots.push({
        pattern: group,
        reason: `source code that no manifest declares (${count} folder${count === 1 ? '' : 's'})`,
      });
  if (roots.length === 0) return [{ pattern: '.', reason: 'no known layout: the whole folder' }];
  return collapse(workspaceDir, roots).sort((a, b) =>
    a.pattern < b.pattern ? -1 : a.pattern > b.pattern ? 1 : 0,
  );
}
