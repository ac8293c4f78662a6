/** Java and Kotlin imports: a package-qualified name → the file declaring that name at top level. */
import type { ImportFact } from '../../../facts.js';
import type { IndexedFile } from '../../../snapshot.js';
import { cmp } from '../import-paths.js';
import { NONE, type Resolution } from '../import-resolution.js';

export class JvmImports {
  /** `package.Type` (and `package.function` for Kotlin) → the JVM files declaring it at top level. */
  private jvmTypes: Map<string, IndexedFile[]> | undefined;

  constructor(
    private readonly files: readonly IndexedFile[],
    /** Java or Kotlin. */
    private readonly isJvm: (file: IndexedFile) => boolean,
  ) {}

  /**
   * `import a.b.C` (or `a.b.C.member`, `a.b.Outer.Inner`) → the file declaring package `a.b` and a top-level
   * `C`. A package wildcard (`a.b.*`) names no single file. Several declaring files: the importer's root wins.
   */
  resolve(file: IndexedFile, fact: ImportFact): Resolution {
    const index = this.jvmIndex();
    const wildcard = fact.names?.length === 1 && fact.names[0] === '*';
    let name = fact.source;
    let candidates = index.get(name);
    // Members and nested types: strip trailing segments while what remains still ends in a type name.
    for (let i = 0; !candidates && !wildcard && i < 3; i++) {
      const dot = name.lastIndexOf('.');
      if (dot < 0) break;
      name = name.slice(0, dot);
      if (!/^[A-Z]/.test(name.slice(name.lastIndexOf('.') + 1))) break;
      candidates = index.get(name);
    }
    if (!candidates) return NONE;
    const local = candidates.filter((f) => f.root === file.root);
    const chosen = (local.length > 0 ? local : candidates)
      .slice()
      .sort((a, b) => cmp(a.root, b.root) || cmp(a.path, b.path));
    return {
      targets: chosen.map((f) => ({ kind: 'file', file: f })),
      confidence: chosen.length > 1 ? 'ambiguous' : 'heuristic',
    };
  }

  private jvmIndex(): Map<string, IndexedFile[]> {
    if (!this.jvmTypes) {
      const index = new Map<string, IndexedFile[]>();
      for (const file of this.files) {
        if (!this.isJvm(file)) continue;
        const pkg = file.facts.package;
        const prefix = pkg ? `${pkg}.` : '';
        for (const symbol of file.facts.symbols) {
          if (symbol.parent !== undefined || symbol.kind === 'heading' || symbol.kind === 'property')
            continue;
          const key = prefix + symbol.name;
          const list = index.get(key) ?? index.set(key, []).get(key);
          if (list && !list.includes(file)) list.push(file);
        }
      }
      this.jvmTypes = index;
    }
    return this.jvmTypes;
  }
}
