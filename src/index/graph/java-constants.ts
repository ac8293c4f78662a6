/**
 * What a Java or Kotlin file sees of the constants other files declare (`jv:<package>.<classes>.<NAME>`; a
 * nested class keeps its outer classes; Kotlin exports under the same keys, a top-level constant as
 * `jv:<package>.NAME`, seen like a class of its package: `languages/kotlin/cross-file-constants.ts`). The extractor writes a reference it cannot resolve as the code spells it
 * (`Holder.NAME`, `Outer.Inner.NAME`, `a.b.Holder.NAME`) or, for a static import, with the imported class
 * (`a.b.Holder.NAME`). The reference resolves under the file's own package (its classes need no import), a
 * wildcard import (`import a.b.*;`, and `import static a.b.Holder.*;` for a bare `NAME`), or a single-type
 * import of the reference's first class (`import a.b.Holder;` for `Holder.NAME`). A fully qualified reference
 * is its own key. Unlike C#, an enclosing package is not seen. The resolution itself is `code-constants.ts`.
 */
import type { IndexedFile } from '../snapshot.js';
import type { ConstantRules } from './code-constants.js';

function sees(pkg: string, ref: string, from: IndexedFile): boolean {
  if (pkg === (from.facts.package ?? '')) return true;
  const firstClass = ref.slice(0, ref.includes('.') ? ref.indexOf('.') : ref.length);
  return from.facts.imports.some((fact) =>
    fact.names?.includes('*') === true
      ? fact.source === pkg
      : ref.includes('.') &&
        fact.source === `${pkg}.${firstClass}` &&
        fact.names?.includes(firstClass) === true,
  );
}

export const JAVA_CONSTANTS: ConstantRules = { prefix: 'jv:', sees };
