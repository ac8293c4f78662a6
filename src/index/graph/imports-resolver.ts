/**
 * Resolves an import fact to its targets with the rules of the importing file's language (its spec's
 * `imports`). Files are indexed by path once, each language family's resolver is built on first use, and
 * every answer is memoised per (family, scope, specifier[, names]), so the work is linear in the number of
 * imports.
 */
import type { ImportFact } from '../facts.js';
import type { ImportContext, ResolveImport } from '../languages/language-spec.js';
import { languageSpec } from '../languages/registry.js';
import { join, rootDirOf, slash } from '../languages/shared/import-paths.js';
import { NONE, type Resolution } from '../languages/shared/import-resolution.js';
import type { IndexedFile } from '../snapshot.js';
import type { RootImportSettings } from './imports-settings.js';

export class ImportResolver {
  /** Indexed files by absolute, `/`-separated path. */
  private readonly byPath = new Map<string, IndexedFile>();
  private readonly memo = new Map<string, Resolution>();
  private readonly families = new Map<string, ResolveImport>();
  private readonly context: Omit<ImportContext, 'inFamily'>;

  constructor(files: readonly IndexedFile[], settings: readonly RootImportSettings[]) {
    for (const file of files) this.byPath.set(slash(file.absolutePath), file);
    this.context = { files, byPath: this.byPath, settings };
  }

  resolve(file: IndexedFile, fact: ImportFact): Resolution {
    if (fact.resolved !== undefined) {
      const target = this.byPath.get(join(rootDirOf(file), fact.resolved));
      return target ? { targets: [{ kind: 'file', file: target }], confidence: 'exact' } : NONE;
    }
    const rules = languageSpec(file.language)?.imports;
    if (rules === undefined) return NONE;
    const names = rules.byNames === true ? (fact.names ?? []).join(',') : '';
    const key = `${rules.family}\u0000${rules.scope(file, fact)}\u0000${fact.source}\u0000${names}`;
    const cached = this.memo.get(key);
    if (cached) return cached;
    let resolve = this.families.get(rules.family);
    if (resolve === undefined) {
      const family = rules.family;
      resolve = rules.create({
        ...this.context,
        inFamily: (other) => languageSpec(other.language)?.imports?.family === family,
      });
      this.families.set(family, resolve);
    }
    const result = resolve(file, fact);
    this.memo.set(key, result);
    return result;
  }
}
