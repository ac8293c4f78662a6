/**
 * C# constants that cross files. A C# file cannot see a constant another file declares (`Topics.Created`,
 * `Constants.PUBSUB`), so the extractor exports every visible string constant as a property keyed
 * `cs:<namespace>.<class>.<Name>` (`cs:<class>.<Name>` in the global namespace; a nested class keeps its
 * outer classes) and writes a reference it cannot resolve as `${cs:<class>.<Name>}` — the reference as
 * the code spells it, so maybe already namespace-qualified. A reference resolves to the constants whose key
 * ends with it and whose namespace the referring file sees: the global namespace, its own namespace or an
 * enclosing one, or a namespace it imports with `using`. The root's own constants come first, then the
 * workspace's (a shared library project); each only when the visible candidates agree on one value.
 */
import type { PropertyFact } from '../facts.js';
import type { IndexedFile } from '../snapshot.js';

interface CsConstant {
  readonly root: string;
  /** The key without `cs:` — namespace, classes and name, dotted. */
  readonly path: string;
  readonly value: string;
}

/** `${cs:Topics.Created}` → `Topics.Created`. */
export function csPlaceholderOf(value: string): string | undefined {
  return /^\$\{cs:([^}]+)\}$/.exec(value.trim())?.[1];
}

export const isCsConstantKey = (key: string): boolean => key.startsWith('cs:');

/** The namespaces a file sees without qualification: its own, each enclosing one, its `using` imports. */
function visibleNamespaces(file: IndexedFile): Set<string> {
  const visible = new Set<string>(['']);
  const own = file.facts.package ?? '';
  for (let ns = own; ns !== ''; ns = ns.slice(0, Math.max(ns.lastIndexOf('.'), 0))) visible.add(ns);
  for (const fact of file.facts.imports) visible.add(fact.source);
  return visible;
}

export class CsConstants {
  /** Constants by their last two segments (`Topics.Created`), the shortest form a reference takes. */
  private readonly byTail = new Map<string, CsConstant[]>();

  add(file: IndexedFile, property: PropertyFact): void {
    const path = property.key.slice(3);
    const tail = path.split('.').slice(-2).join('.');
    const list = this.byTail.get(tail) ?? this.byTail.set(tail, []).get(tail);
    list?.push({ root: file.root, path, value: property.value });
  }

  /** The value `ref` (`Topics.Created`, `App.Topics.Created`) names as seen from `from`, if one. */
  resolve(ref: string, from: IndexedFile): string | undefined {
    const candidates = this.byTail.get(ref.split('.').slice(-2).join('.')) ?? [];
    const visible = visibleNamespaces(from);
    const seen = candidates.filter((constant) => {
      if (constant.path === ref) return true;
      if (!constant.path.endsWith(`.${ref}`)) return false;
      return visible.has(constant.path.slice(0, constant.path.length - ref.length - 1));
    });
    const single = (list: readonly CsConstant[]): string | undefined => {
      const distinct = new Set(list.map((constant) => constant.value));
      return distinct.size === 1 ? list[0]?.value : undefined;
    };
    const sameRoot = seen.filter((constant) => constant.root === from.root);
    return sameRoot.length > 0 ? single(sameRoot) : single(seen);
  }
}
