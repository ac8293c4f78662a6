/**
 * What one file can see without guessing: the files its imports resolve to (a Go package import: every file
 * of that folder), the files of its own folder, and itself. Call resolution looks for a callee there first;
 * only a callee outside this reach is name-matched with lower confidence.
 */
import type { ImportFact } from '../facts.js';
import { ImportResolver } from '../graph/imports-resolver.js';
import type { RootImportSettings } from '../graph/imports-settings.js';
import { languageSpec } from '../languages/registry.js';
import { dirOf } from '../languages/shared/import-paths.js';
import type { IndexedFile } from '../snapshot.js';

/** Where an import specifier of one file leads in the workspace. */
export interface ModuleTargets {
  readonly files: readonly IndexedFile[];
  /** The specifier resolved to the workspace (possibly to a package whose files are unknown). */
  readonly inWorkspace: boolean;
  /** The language resolves imports, so an unresolved specifier is outside the workspace. */
  readonly knownExternal: boolean;
}

/** The language family calls may cross: languages that import each other (TS and JS; Java and Kotlin). */
export const familyOf = (file: IndexedFile): string =>
  languageSpec(file.language)?.imports?.family ?? file.language ?? '';

export class Reach {
  private readonly resolver: ImportResolver;
  private readonly folders = new Map<string, IndexedFile[]>();
  /** `sameFolder` answers, asked for once per call site and per candidate method. */
  private readonly folderFamilies = new Map<IndexedFile, readonly IndexedFile[]>();
  private readonly reachable = new Map<IndexedFile, ReadonlySet<IndexedFile>>();
  private readonly modules = new Map<IndexedFile, Map<string, ModuleTargets>>();

  constructor(files: readonly IndexedFile[], settings: readonly RootImportSettings[]) {
    this.resolver = new ImportResolver(files, settings);
    for (const file of files) {
      const key = folderKey(file.root, dirOf(file.path));
      const list = this.folders.get(key);
      if (list) list.push(file);
      else this.folders.set(key, [file]);
    }
  }

  /** Files of the same family in the file's folder, the file included. */
  sameFolder(file: IndexedFile): readonly IndexedFile[] {
    const known = this.folderFamilies.get(file);
    if (known) return known;
    const family = familyOf(file);
    const found = (this.folders.get(folderKey(file.root, dirOf(file.path))) ?? []).filter(
      (other) => familyOf(other) === family,
    );
    this.folderFamilies.set(file, found);
    return found;
  }

  /** The file, its folder and everything its imports resolve to. */
  reachOf(file: IndexedFile): ReadonlySet<IndexedFile> {
    const known = this.reachable.get(file);
    if (known) return known;
    const set = new Set<IndexedFile>(this.sameFolder(file));
    set.add(file);
    for (const fact of file.facts.imports)
      for (const target of this.resolveFact(file, fact).files) set.add(target);
    this.reachable.set(file, set);
    return set;
  }

  /**
   * Where `specifier` leads from `file`: through the file's own import of it when it has one (with its
   * names), else as a bare import of that specifier.
   */
  module(file: IndexedFile, specifier: string): ModuleTargets {
    let perFile = this.modules.get(file);
    if (!perFile) this.modules.set(file, (perFile = new Map()));
    const known = perFile.get(specifier);
    if (known) return known;
    const fact = file.facts.imports.find((i) => i.source === specifier) ?? { source: specifier, line: 0 };
    const targets = this.resolveFact(file, fact);
    perFile.set(specifier, targets);
    return targets;
  }

  private resolveFact(file: IndexedFile, fact: ImportFact): ModuleTargets {
    const knownExternal = languageSpec(file.language)?.imports !== undefined;
    const { targets } = this.resolver.resolve(file, fact);
    const files: IndexedFile[] = [];
    for (const target of targets) {
      if (target.kind === 'file') files.push(target.file);
      else if (target.kind === 'folder')
        for (const other of this.folders.get(folderKey(target.root, target.dir)) ?? [])
          if (familyOf(other) === familyOf(file)) files.push(other);
    }
    return { files, inWorkspace: targets.length > 0, knownExternal };
  }
}

const folderKey = (root: string, dir: string): string => `${root}\u0000${dir}`;
