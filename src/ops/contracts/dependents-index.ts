/**
 * Lookups for `contracts dependents` that do not scan the workspace on every call: the imports that could
 * name a target, and the files that could declare it, keyed by every name a target may be written as. Built
 * once per snapshot on the first call. A lookup returns candidates only, in snapshot order (files, then
 * imports, are added in that order): the caller applies its own exact test to each, so the answer is the
 * scan's answer.
 */
import type { Derivation, IndexedFile, SnapshotReader } from '../../index/reader.js';
import type { MeshServices } from '../services.js';

type Languages = MeshServices['languages'];
type ImportFact = IndexedFile['facts']['imports'][number];

export interface ImportCandidate {
  readonly file: IndexedFile;
  /** Position of the import among the file's imports: the first match of a file is the one reported. */
  readonly position: number;
  readonly fact: ImportFact;
}

/** `a/b.c:d` → every prefix ending before a separator, and the whole: `a`, `a/b`, `a/b.c`, `a/b.c:d`. */
function prefixes(source: string): string[] {
  const out = [source];
  for (let i = 0; i < source.length; i++)
    if (source[i] === '/' || source[i] === '.') out.push(source.slice(0, i));
  return out;
}

/** Every suffix starting after a separator, and the whole: `x/y/z` → `x/y/z`, `y/z`, `z`. */
function suffixes(text: string, separator: string): string[] {
  const out = [text];
  for (let i = text.indexOf(separator); i >= 0; i = text.indexOf(separator, i + 1))
    out.push(text.slice(i + 1));
  return out;
}

const lastSegment = (source: string): string =>
  source
    .split(/[/.:\\]/)
    .filter(Boolean)
    .pop() ?? source;

/** `src/orders/order.model.ts` → `src/orders/order.model` (`.d.ts` counts as one extension). */
export const withoutExtension = (path: string): string => path.replace(/(?:\.d)?\.[^./]+$/, '');

function add<V>(map: Map<string, V[]>, key: string, value: V): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else if (list[list.length - 1] !== value) list.push(value);
}

export class DependentsIndex {
  private readonly imports = new Map<string, ImportCandidate[]>();
  private readonly declarers = new Map<string, IndexedFile[]>();

  constructor(snapshot: SnapshotReader, languages: Languages) {
    for (const file of snapshot.files) {
      file.facts.imports.forEach((fact, position) => {
        const candidate = { file, position, fact };
        const keys = new Set([...prefixes(fact.source), lastSegment(fact.source), ...(fact.names ?? [])]);
        for (const key of keys) add(this.imports, key, candidate);
      });
      const stem = withoutExtension(file.path);
      const dotted = languages(file.language)?.moduleName?.(stem);
      const keys = new Set([...suffixes(stem, '/'), ...(dotted === undefined ? [] : suffixes(dotted, '.'))]);
      for (const symbol of file.facts.symbols)
        if (symbol.parent === undefined) {
          keys.add(symbol.name);
          keys.add(symbol.qualifiedName);
        }
      for (const key of keys) add(this.declarers, key, file);
    }
  }

  /** Imports that may name `target` (by package, imported name or last segment). */
  importsNaming(target: string): readonly ImportCandidate[] {
    return this.imports.get(target) ?? [];
  }

  /** Files that may declare `target` at top level or be the module it names. */
  filesDeclaring(target: string): readonly IndexedFile[] {
    return this.declarers.get(target) ?? [];
  }
}

/** One derivation per language registry (there is one in practice), so the snapshot caches the index. */
const derivations = new WeakMap<Languages, Derivation<DependentsIndex>>();

/** The snapshot's index, built on first use and dropped with the snapshot. */
export function dependentsIndex(snapshot: SnapshotReader, languages: Languages): DependentsIndex {
  let derivation = derivations.get(languages);
  if (derivation === undefined)
    derivations.set(languages, (derivation = { build: (s) => new DependentsIndex(s, languages) }));
  return snapshot.derived(derivation);
}
