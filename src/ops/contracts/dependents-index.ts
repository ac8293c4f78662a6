/**
 * Lookups for `contracts dependents` that do not scan every file's imports and symbols on each call: files
 * by the sources and names they import, and by the names they declare at top level or the module they are.
 * Built on the first call and patched by each reload with the files that changed. A lookup returns candidate
 * files only, in snapshot order: the caller applies its own exact test to each, so the answer is the scan's.
 * Only file references are kept (no object per import), so the index stays a few bytes per import.
 */
import type { Derivation, IndexedFile, SnapshotReader } from '../../index/reader.js';
import type { MeshServices } from '../services.js';
import { lastSegment } from '../shared/import-source.js';

type Languages = MeshServices['languages'];

const lastOf = (text: string, separator: string): string => text.slice(text.lastIndexOf(separator) + 1);

/** `src/orders/order.model.ts` → `src/orders/order.model` (`.d.ts` counts as one extension). */
export const withoutExtension = (path: string): string => path.replace(/(?:\.d)?\.[^./]+$/, '');

/** The last segment of a module name or path: what a target names a module by at least. */
const moduleKey = (name: string): string => lastOf(lastOf(name, '/'), '.');

function add(map: Map<string, IndexedFile[]>, key: string, file: IndexedFile): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [file]);
  else if (list[list.length - 1] !== file) list.push(file);
}

function drop(map: Map<string, IndexedFile[]>, key: string, file: IndexedFile): void {
  const kept = (map.get(key) ?? []).filter((other) => other !== file);
  if (kept.length === 0) map.delete(key);
  else map.set(key, kept);
}

/** Each file's place in the snapshot, so that answers keep the snapshot's order after a patch. */
const FILE_ORDER: Derivation<ReadonlyMap<IndexedFile, number>> = {
  build: (snapshot) => new Map(snapshot.files.map((file, index) => [file, index])),
};

export class DependentsIndex {
  /** Files by each import source they write. */
  private readonly bySource = new Map<string, IndexedFile[]>();
  /** Files by the last segment of each import source. */
  private readonly bySourceEnd = new Map<string, IndexedFile[]>();
  /** Files by each name they import. */
  private readonly byImportedName = new Map<string, IndexedFile[]>();
  /** Files by the names they declare at top level, and by the last segment of their module's name. */
  private readonly byDeclared = new Map<string, IndexedFile[]>();

  constructor(
    files: readonly IndexedFile[],
    private readonly languages: Languages,
  ) {
    for (const file of files) this.enter(file, add);
  }

  /** The index of the next snapshot: the files a reload removed taken out, the ones it added put in. */
  patched(removed: readonly IndexedFile[], added: readonly IndexedFile[]): this {
    for (const file of removed) this.enter(file, drop);
    for (const file of added) this.enter(file, add);
    return this;
  }

  /** Enters (or, with `drop`, takes out) a file under each of its keys, computed from its facts alone. */
  private enter(file: IndexedFile, apply: typeof add): void {
    const sources = new Set<string>();
    const names = new Set<string>();
    for (const fact of file.facts.imports) {
      sources.add(fact.source);
      for (const name of fact.names ?? []) names.add(name);
    }
    for (const source of sources) {
      apply(this.bySource, source, file);
      apply(this.bySourceEnd, lastSegment(source), file);
    }
    for (const name of names) apply(this.byImportedName, name, file);
    const stem = withoutExtension(file.path);
    const dotted = this.languages(file.language)?.moduleName?.(stem);
    const declared = new Set([moduleKey(stem), ...(dotted === undefined ? [] : [lastOf(dotted, '.')])]);
    for (const symbol of file.facts.symbols)
      if (symbol.parent === undefined) {
        declared.add(symbol.name);
        declared.add(symbol.qualifiedName);
      }
    for (const key of declared) apply(this.byDeclared, key, file);
  }

  /**
   * Files with an import that may name `target`: an imported name, a source whose last segment it is, or a
   * source equal to it or under it (`target/…`, `target.…`: distinct sources are compared, not imports).
   */
  filesImporting(snapshot: SnapshotReader, target: string): IndexedFile[] {
    const found = new Set<IndexedFile>([
      ...(this.byImportedName.get(target) ?? []),
      ...(this.bySourceEnd.get(target) ?? []),
    ]);
    for (const [source, files] of this.bySource)
      if (source === target || source.startsWith(`${target}/`) || source.startsWith(`${target}.`))
        for (const file of files) found.add(file);
    return inSnapshotOrder(snapshot, found);
  }

  /** Files that may declare `target` at top level or be the module it names. */
  filesDeclaring(snapshot: SnapshotReader, target: string): IndexedFile[] {
    const found = new Set<IndexedFile>([
      ...(this.byDeclared.get(target) ?? []),
      ...(this.byDeclared.get(moduleKey(target)) ?? []),
    ]);
    return inSnapshotOrder(snapshot, found);
  }
}

function inSnapshotOrder(snapshot: SnapshotReader, files: ReadonlySet<IndexedFile>): IndexedFile[] {
  const order = snapshot.derived(FILE_ORDER);
  return [...files].sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0));
}

/** One derivation per language registry (there is one in practice), so the snapshot caches the index. */
const derivations = new WeakMap<Languages, Derivation<DependentsIndex>>();

/** The snapshot's index: built on first use, then patched from one snapshot to the next by each reload. */
export function dependentsIndex(snapshot: SnapshotReader, languages: Languages): DependentsIndex {
  let derivation = derivations.get(languages);
  if (derivation === undefined)
    derivations.set(
      languages,
      (derivation = {
        build: (s) => new DependentsIndex(s.files, languages),
        patch: (previous, removed, added) => previous.patched(removed, added),
      }),
    );
  return snapshot.derived(derivation);
}
