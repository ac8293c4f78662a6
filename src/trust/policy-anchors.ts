import path from 'node:path';
import type { LoadedConfig } from '../core/config.js';

/**
 * An absolute subject relative to the most specific anchor holding it (`/ws/deploy/x.yml` → `deploy/x.yml`
 * with anchor `/ws`); anything else unchanged.
 */
export function anchoredSubject(subject: string, anchors: readonly string[]): string {
  if (!path.isAbsolute(subject)) return subject;
  let best: string | undefined;
  for (const anchor of anchors) {
    const inside =
      subject === anchor || subject.startsWith(anchor.endsWith(path.sep) ? anchor : `${anchor}${path.sep}`);
    if (inside && (best === undefined || anchor.length > best.length)) best = anchor;
  }
  return best === undefined ? subject : path.relative(best, subject);
}

/**
 * Where subjects are anchored for a loaded config: the config folder, and for a root outside it the root's
 * parent (so that the root's own name stays a segment a rule can name).
 */
export function policyAnchors(loaded: Pick<LoadedConfig, 'baseDir' | 'roots'>): string[] {
  const anchors = new Set<string>([loaded.baseDir]);
  for (const root of loaded.roots) {
    const inside = root.path === loaded.baseDir || root.path.startsWith(`${loaded.baseDir}${path.sep}`);
    if (!inside) anchors.add(path.dirname(root.path));
  }
  return [...anchors].sort();
}
