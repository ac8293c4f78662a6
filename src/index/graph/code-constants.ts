/**
 * String constants that cross files, for languages whose files cannot see a constant another file declares
 * (C# `cs:`, Java `jv:`). The declaring file exports each visible string constant as a property keyed
 * `<prefix><qualifier>.<classes>.<NAME>`, and a reference the referring file cannot resolve is written
 * `${<prefix><reference>}` — the reference as the code spells it, maybe already qualified. A reference
 * resolves to the constants whose key ends with it and whose remaining qualifier the referring file sees;
 * what a file sees is the language's rule (`csharp-constants.ts`, `java-constants.ts`). The root's own
 * constants come first, then the workspace's (a shared library); each only when the visible candidates
 * agree on one value.
 */
import type { PropertyFact } from '../facts.js';
import type { IndexedFile } from '../snapshot.js';

/** One language's constants: the key prefix and which qualifiers a file sees a reference under. */
export interface ConstantRules {
  /** `cs:`, `jv:`. */
  readonly prefix: string;
  /**
   * Whether `from` sees the constants of `qualifier` (the key's part before the reference; `''` when the
   * key is the reference itself, which every file sees) under the reference `ref`.
   */
  sees(qualifier: string, ref: string, from: IndexedFile): boolean;
}

interface CodeConstant {
  readonly root: string;
  /** The key without its prefix: qualifier, classes and name, dotted. */
  readonly path: string;
  readonly value: string;
}

const lastSegmentOf = (path: string): string => path.slice(path.lastIndexOf('.') + 1);

export class CodeConstants {
  /** Constants by their name, the one segment every reference ends with. */
  private readonly byName = new Map<string, CodeConstant[]>();

  constructor(private readonly rules: ConstantRules) {}

  /** `${cs:Topics.Created}` → `Topics.Created` for the `cs:` rules; undefined for any other value. */
  placeholderOf(value: string): string | undefined {
    const trimmed = value.trim();
    const open = `\${${this.rules.prefix}`;
    if (!trimmed.startsWith(open) || !trimmed.endsWith('}')) return undefined;
    const ref = trimmed.slice(open.length, -1);
    return ref === '' || ref.includes('}') ? undefined : ref;
  }

  ownsKey(key: string): boolean {
    return key.startsWith(this.rules.prefix);
  }

  add(file: IndexedFile, property: PropertyFact): void {
    const path = property.key.slice(this.rules.prefix.length);
    const name = lastSegmentOf(path);
    const list = this.byName.get(name) ?? this.byName.set(name, []).get(name);
    list?.push({ root: file.root, path, value: property.value });
  }

  /** The value `ref` (`Topics.Created`, `App.Topics.Created`) names as seen from `from`, if one. */
  resolve(ref: string, from: IndexedFile): string | undefined {
    const candidates = this.byName.get(lastSegmentOf(ref)) ?? [];
    const seen = candidates.filter((constant) => {
      if (constant.path === ref) return true;
      if (!constant.path.endsWith(`.${ref}`)) return false;
      return this.rules.sees(constant.path.slice(0, constant.path.length - ref.length - 1), ref, from);
    });
    const single = (list: readonly CodeConstant[]): string | undefined => {
      const distinct = new Set(list.map((constant) => constant.value));
      return distinct.size === 1 ? list[0]?.value : undefined;
    };
    const sameRoot = seen.filter((constant) => constant.root === from.root);
    return sameRoot.length > 0 ? single(sameRoot) : single(seen);
  }
}
