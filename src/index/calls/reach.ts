/**
 * What one file can see without guessing: the files its imports resolve to (a Go package import: every file
 * of that folder), the files of its own folder, and itself. Call resolution looks for a callee there first;
 * only a callee outside this reach is name-matched with lower confidence.
 *
 * Reach is answered as membership tests, never as a list per file: a folder of 5,000 files of one language
 * would otherwise copy those 5,000 into every one of its files' lists, which is quadratic in the folder size
 * (a generated workspace of 248,000 files ran the heap out that way). What is kept per file is only what its
 * own imports lead to; folder lists are shared by every file of the folder.
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
  /** Whether `file` is one of `files`, without scanning them. */
  holds(file: IndexedFile): boolean;
}

/** The language family calls may cross: languages that import each other (TS and JS; Java and Kotlin). */
export const familyOf = (file: IndexedFile): string =>
  languageSpec(file.language)?.imports?.family ?? file.language ?? '';

/** What one file's imports lead to: single files, and whole folders of the file's family. */
interface ImportedReach {
  readonly files: ReadonlySet<IndexedFile>;
  /** Folder keys whose files of the importing file's family are all reachable. */
  readonly folders: ReadonlySet<string>;
}

export class Reach {
  private readonly resolver: ImportResolver;
  private readonly folders = new Map<string, IndexedFile[]>();
  /** Each file's folder key, computed once. */
  private readonly folderOfFile = new Map<IndexedFile, string>();
  /** Same-family files of a folder, by `folder key \0 family`: one list shared by the folder's files. */
  private readonly familyFolders = new Map<string, readonly IndexedFile[]>();
  private readonly imported = new Map<IndexedFile, ImportedReach>();
  private readonly modules = new Map<IndexedFile, Map<string, ModuleTargets>>();

  constructor(files: readonly IndexedFile[], settings: readonly RootImportSettings[]) {
    this.resolver = new ImportResolver(files, settings);
    for (const file of files) {
      const key = folderKey(file.root, dirOf(file.path));
      this.folderOfFile.set(file, key);
      const list = this.folders.get(key);
      if (list) list.push(file);
      else this.folders.set(key, [file]);
    }
  }

  /** Files of the same family in the file's folder, the file included (one list shared by the folder). */
  folderOf(file: IndexedFile): readonly IndexedFile[] {
    return this.familyFolder(this.folderKeyOf(file), familyOf(file));
  }

  /** Whether `other` sits in `file`'s folder and language family. */
  inSameFolder(file: IndexedFile, other: IndexedFile): boolean {
    return this.folderKeyOf(other) === this.folderKeyOf(file) && familyOf(other) === familyOf(file);
  }

  /** Whether `file` can see `other`: itself, its folder, or what its imports resolve to. */
  sees(file: IndexedFile, other: IndexedFile): boolean {
    if (other === file || this.inSameFolder(file, other)) return true;
    const imported = this.importedBy(file);
    if (imported.files.has(other)) return true;
    return imported.folders.has(this.folderKeyOf(other)) && familyOf(other) === familyOf(file);
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

  /**
   * Drops what was learnt per file (imports resolved, modules looked up). Building the graph asks about every
   * file once; later queries ask about a few, and relearn those on demand.
   */
  forgetFiles(): void {
    this.imported.clear();
    this.modules.clear();
  }

  private importedBy(file: IndexedFile): ImportedReach {
    const known = this.imported.get(file);
    if (known) return known;
    const files = new Set<IndexedFile>();
    const folders = new Set<string>();
    for (const fact of file.facts.imports)
      for (const target of this.resolver.resolve(file, fact).targets) {
        if (target.kind === 'file') files.add(target.file);
        else if (target.kind === 'folder') folders.add(folderKey(target.root, target.dir));
      }
    const reach = { files, folders };
    this.imported.set(file, reach);
    return reach;
  }

  private resolveFact(file: IndexedFile, fact: ImportFact): ModuleTargets {
    const knownExternal = languageSpec(file.language)?.imports !== undefined;
    const { targets } = this.resolver.resolve(file, fact);
    const family = familyOf(file);
    const single: IndexedFile[] = [];
    const folderLists: (readonly IndexedFile[])[] = [];
    const folderKeys = new Set<string>();
    for (const target of targets) {
      if (target.kind === 'file') single.push(target.file);
      else if (target.kind === 'folder') {
        const key = folderKey(target.root, target.dir);
        folderKeys.add(key);
        folderLists.push(this.familyFolder(key, family));
      }
    }
    // One folder and nothing else (a Go package import): its shared list, not a copy.
    const files =
      single.length === 0 && folderLists.length === 1
        ? (folderLists[0] as readonly IndexedFile[])
        : [...single, ...folderLists.flat()];
    const singles = new Set(single);
    return {
      files,
      inWorkspace: targets.length > 0,
      knownExternal,
      holds: (other) =>
        singles.has(other) || (folderKeys.has(this.folderKeyOf(other)) && familyOf(other) === family),
    };
  }

  private familyFolder(key: string, family: string): readonly IndexedFile[] {
    const familyKey = `${key}\u0000${family}`;
    const known = this.familyFolders.get(familyKey);
    if (known) return known;
    const found = (this.folders.get(key) ?? []).filter((other) => familyOf(other) === family);
    this.familyFolders.set(familyKey, found);
    return found;
  }

  private folderKeyOf(file: IndexedFile): string {
    return this.folderOfFile.get(file) ?? folderKey(file.root, dirOf(file.path));
  }
}

const folderKey = (root: string, dir: string): string => `${root}\u0000${dir}`;
