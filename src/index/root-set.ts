import { realpathSync } from 'node:fs';
import { resolveRoots, rootPatternBase, type ResolvedRoot, type RootPatterns } from '../core/config.js';

/** What the root set needs of the loaded configuration. */
export interface RootSource {
  /** The roots as expanded at start-up. */
  readonly roots: readonly ResolvedRoot[];
  readonly rootPatterns: RootPatterns;
}

/**
 * The workspace roots as they are now. `[workspace] roots` may be patterns (`services/*`): a folder created
 * later that matches one (by hand, by `git checkout`) becomes a root when the patterns are expanded again,
 * and a matching folder that is gone drops out. The engine expands them on every full run.
 */
export class RootSet {
  private current: readonly ResolvedRoot[];

  constructor(private readonly source: RootSource) {
    this.current = source.roots;
  }

  /** The roots as last expanded; a new array whenever they change, the same one otherwise. */
  get roots(): readonly ResolvedRoot[] {
    return this.current;
  }

  /** Expands the patterns again; true when the roots changed. */
  refresh(): boolean {
    const { roots } = resolveRoots(this.source.rootPatterns);
    if (sameRoots(roots, this.current)) return false;
    this.current = roots;
    return true;
  }

  /**
   * The folders where a new matching folder would appear (one per glob pattern, canonical, existing ones
   * only): the watcher watches them besides the roots.
   */
  patternBases(): string[] {
    const bases = new Set<string>();
    const { baseDir, patterns } = this.source.rootPatterns;
    for (const pattern of patterns) {
      const base = rootPatternBase(baseDir, pattern);
      const canonical = base === undefined ? undefined : realpathQuiet(base);
      if (canonical !== undefined) bases.add(canonical);
    }
    return [...bases].sort();
  }
}

function sameRoots(a: readonly ResolvedRoot[], b: readonly ResolvedRoot[]): boolean {
  return a.length === b.length && a.every((root, i) => root.name === b[i]?.name && root.path === b[i]?.path);
}

function realpathQuiet(folder: string): string | undefined {
  try {
    return realpathSync(folder);
  } catch {
    return undefined;
  }
}
