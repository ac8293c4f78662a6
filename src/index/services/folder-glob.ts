/**
 * Member lists in workspace manifests (npm `workspaces`, Cargo `members`) are folder globs relative to the
 * manifest: `packages/*`, `crates/**`, `apps/web`. Expanded against the folders the walk listed.
 */
import { normalizeRel, within, type WorkspaceFiles } from './workspace-files.js';

function segmentPattern(segment: string): RegExp {
  const body = segment
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '[^/]*')
    .replace(/\?/g, '[^/]');
  return new RegExp(`^${body}$`);
}

function matches(segments: readonly string[], parts: readonly string[]): boolean {
  if (segments.length === 0) return parts.length === 0;
  const [head, ...rest] = segments;
  if (head === '**') {
    for (let skip = 0; skip <= parts.length; skip++) if (matches(rest, parts.slice(skip))) return true;
    return false;
  }
  return parts.length > 0 && segmentPattern(head ?? '').test(parts[0] ?? '') && matches(rest, parts.slice(1));
}

/** The listed folders `pattern` (relative to `base`) names, sorted; a plain path is returned when it exists. */
export function expandFolders(workspace: WorkspaceFiles, base: string, pattern: string): string[] {
  const negated = pattern.startsWith('!');
  if (negated) return [];
  const joined = normalizeRel(base === '.' ? pattern : `${base}/${pattern}`);
  if (joined === undefined) return [];
  if (!/[*?]/.test(joined)) return workspace.has(joined) ? [joined] : [];
  const segments = joined.split('/');
  const fixed = segments.findIndex((s) => /[*?]/.test(s));
  const prefix = fixed <= 0 ? '.' : segments.slice(0, fixed).join('/');
  return workspace
    .foldersUnder(prefix)
    .filter((folder) => folder !== '.' && within(folder, prefix) && matches(segments, folder.split('/')))
    .sort();
}
