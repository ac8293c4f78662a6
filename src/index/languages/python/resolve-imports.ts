/**
 * Python imports: relative ones (`from . import x`) against the importing file's package, absolute ones against
 * the folders `sys.path` would likely hold; a `from` import may name submodules as well as names in the module.
 */
import type { ImportFact } from '../../facts.js';
import type { IndexedFile } from '../../snapshot.js';
import { dirOf, join, rootDirOf, slash } from '../shared/import-paths.js';
import { NONE, type Resolution, type TargetRef } from '../shared/import-resolution.js';

export class PythonImports {
  /** Folders holding `__init__.py`. */
  private readonly pythonPackages = new Set<string>();
  /** Per root: a top-level Python name → the folders (absolute) it sits in, like `sys.path` entries. */
  private pythonTops: Map<string, Map<string, string[]>> | undefined;

  constructor(
    private readonly files: readonly IndexedFile[],
    /** Indexed files by absolute, `/`-separated path. */
    private readonly byPath: ReadonlyMap<string, IndexedFile>,
    private readonly isPython: (file: IndexedFile) => boolean,
  ) {
    for (const file of files) {
      if (isPython(file) && /(?:^|\/)__init__\.pyi?$/.test(file.path))
        this.pythonPackages.add(dirOf(slash(file.absolutePath)));
    }
  }

  resolve(file: IndexedFile, fact: ImportFact): Resolution {
    const source = fact.source;
    const names = fact.names ?? [];
    const dotted = (rest: string) => (rest === '' ? [] : rest.split('.'));
    if (source.startsWith('.')) {
      const dots = /^\.+/.exec(source)?.[0].length ?? 1;
      let base = dirOf(slash(file.absolutePath));
      for (let i = 1; i < dots; i++) base = dirOf(base);
      const parts = dotted(source.slice(dots));
      const targets = this.pyTargets(parts.length === 0 ? base : join(base, ...parts), names);
      return { targets: targets.map((f) => ({ kind: 'file', file: f })), confidence: 'exact' };
    }
    const parts = dotted(source);
    const first = parts[0];
    if (first === undefined) return NONE;
    const folders = this.pythonTopsOf(file.root).get(first) ?? [];
    const found = new Map<string, IndexedFile>();
    let readings = 0;
    for (const folder of folders) {
      const targets = this.pyTargets(join(folder, ...parts), names);
      if (targets.length > 0) readings++;
      for (const target of targets) found.set(`${target.root}\u0000${target.path}`, target);
    }
    const targets = [...found.keys()]
      .sort()
      .map((k): TargetRef => ({ kind: 'file', file: found.get(k) as IndexedFile }));
    // Several import roots giving a reading: the one Python would pick depends on `sys.path`.
    return { targets, confidence: readings > 1 ? 'ambiguous' : 'heuristic' };
  }

  /** A Python module path (absolute, dotted part already turned into folders) → its file. */
  private pyModule(base: string): IndexedFile | undefined {
    for (const candidate of [`${base}.py`, `${base}.pyi`, `${base}/__init__.py`, `${base}/__init__.pyi`]) {
      const found = this.byPath.get(candidate);
      if (found !== undefined && this.isPython(found)) return found;
    }
    return undefined;
  }

  /**
   * The module an import names, or the submodules a `from` import names when they are modules
   * (`from . import models`): each becomes a target; names that are not modules point at the module itself.
   */
  private pyTargets(moduleBase: string, names: readonly string[]): IndexedFile[] {
    const out: IndexedFile[] = [];
    let needsModule = names.length === 0;
    for (const name of names) {
      const sub = name === '*' ? undefined : this.pyModule(`${moduleBase}/${name}`);
      if (sub) out.push(sub);
      else needsModule = true;
    }
    if (needsModule) {
      const module = this.pyModule(moduleBase);
      if (module) out.push(module);
    }
    return out;
  }

  /**
   * Where absolute imports start in each root, like `sys.path`: the root folder, its `src/` folder, and the
   * folder above each outermost package (a folder with `__init__.py` whose parent has none).
   */
  private pythonTopsOf(root: string): Map<string, string[]> {
    if (!this.pythonTops) {
      const tops = new Map<string, Map<string, Set<string>>>();
      const add = (rootName: string, folder: string, name: string) => {
        const byName = tops.get(rootName) ?? tops.set(rootName, new Map()).get(rootName);
        const set = byName?.get(name) ?? byName?.set(name, new Set()).get(name);
        set?.add(folder);
      };
      for (const file of this.files) {
        if (!this.isPython(file)) continue;
        const rootDir = rootDirOf(file);
        for (const base of ['', 'src/']) {
          if (!file.path.startsWith(base) || file.path.length === base.length) continue;
          const rest = file.path.slice(base.length);
          const slashAt = rest.indexOf('/');
          add(
            file.root,
            base === '' ? rootDir : join(rootDir, 'src'),
            slashAt < 0 ? rest.replace(/\.pyi?$/, '') : rest.slice(0, slashAt),
          );
        }
        let dir = dirOf(slash(file.absolutePath));
        let outermost: string | undefined;
        while (dir.length > rootDir.length && this.pythonPackages.has(dir)) {
          outermost = dir;
          dir = dirOf(dir);
        }
        if (outermost !== undefined)
          add(file.root, dirOf(outermost), outermost.slice(outermost.lastIndexOf('/') + 1));
      }
      this.pythonTops = new Map(
        [...tops].map(([rootName, byName]) => [
          rootName,
          new Map([...byName].map(([name, set]) => [name, [...set].sort()])),
        ]),
      );
    }
    return this.pythonTops.get(root) ?? new Map();
  }
}
