/**
 * Resolves an import fact to its targets with the rules of the importing file's language. Files are indexed by
 * path once and every answer is memoised per (specifier, importer root) — or per importer folder for a relative
 * specifier — so the work is linear in the number of imports.
 */
import type { ImportFact } from '../facts.js';
import type { IndexedFile } from '../snapshot.js';
import { C_FAMILY, CIncludes } from '../languages/cpp/resolve-imports.js';
import { GoImports } from '../languages/go/resolve-imports.js';
import { JVM_FAMILY, JvmImports } from '../languages/shared/jvm/resolve-imports.js';
import { dirOf, isRelative, join, rootDirOf, slash } from '../languages/shared/import-paths.js';
import { PythonImports } from '../languages/python/resolve-imports.js';
import { NONE, type Resolution } from '../languages/shared/import-resolution.js';
import type { RootImportSettings } from './imports-settings.js';
import { TS_FAMILY, TypeScriptImports } from '../languages/typescript/resolve-imports.js';

export class ImportResolver {
  /** Indexed files by absolute, `/`-separated path. */
  private readonly byPath = new Map<string, IndexedFile>();
  private readonly memo = new Map<string, Resolution>();
  private readonly typescript: TypeScriptImports;
  private readonly python: PythonImports;
  private readonly c: CIncludes;
  private readonly go: GoImports;
  private readonly jvm: JvmImports;

  constructor(files: readonly IndexedFile[], settings: readonly RootImportSettings[]) {
    for (const file of files) this.byPath.set(slash(file.absolutePath), file);
    this.typescript = new TypeScriptImports(this.byPath, settings);
    this.python = new PythonImports(files, this.byPath);
    this.c = new CIncludes(this.byPath);
    this.go = new GoImports(files, settings);
    this.jvm = new JvmImports(files);
  }

  resolve(file: IndexedFile, fact: ImportFact): Resolution {
    const language = file.language;
    if (language === undefined) return NONE;
    if (fact.resolved !== undefined) {
      const target = this.byPath.get(join(rootDirOf(file), fact.resolved));
      return target ? { targets: [{ kind: 'file', file: target }], confidence: 'exact' } : NONE;
    }
    const source = fact.source;
    let family: string;
    let scope: string;
    if (TS_FAMILY.has(language)) {
      family = 'ts';
      scope = isRelative(source) ? dirOf(slash(file.absolutePath)) : file.root;
    } else if (language === 'python') {
      family = 'py';
      scope = source.startsWith('.') ? dirOf(slash(file.absolutePath)) : file.root;
    } else if (C_FAMILY.has(language)) {
      family = 'c';
      scope = dirOf(slash(file.absolutePath));
    } else if (language === 'go') {
      family = 'go';
      scope = file.root;
    } else if (JVM_FAMILY.has(language)) {
      family = 'jvm';
      scope = file.root;
    } else {
      return NONE;
    }
    const names = family === 'py' || family === 'jvm' ? (fact.names ?? []).join(',') : '';
    const key = `${family}\u0000${scope}\u0000${source}\u0000${names}`;
    const cached = this.memo.get(key);
    if (cached) return cached;
    const result = this.compute(family, file, fact);
    this.memo.set(key, result);
    return result;
  }

  private compute(family: string, file: IndexedFile, fact: ImportFact): Resolution {
    switch (family) {
      case 'ts':
        return this.typescript.resolve(file, fact.source);
      case 'py':
        return this.python.resolve(file, fact);
      case 'c':
        return this.c.resolve(file, fact.source);
      case 'go':
        return this.go.resolve(fact.source);
      case 'jvm':
        return this.jvm.resolve(file, fact);
      default:
        return NONE;
    }
  }
}
