/**
 * What a C# file sees of the constants other files declare (`cs:<namespace>.<class>.<Name>`, `cs:<class>.<Name>`
 * in the global namespace; a nested class keeps its outer classes): a reference (`Topics.Created`, maybe
 * namespace-qualified) resolves under the global namespace, the file's own namespace or an enclosing one, or
 * a namespace it imports with `using`. The resolution itself is `code-constants.ts`.
 */
import type { IndexedFile } from '../snapshot.js';
import type { ConstantRules } from './code-constants.js';

/** The namespaces a file sees without qualification: its own, each enclosing one, its `using` imports. */
function visibleNamespaces(file: IndexedFile): Set<string> {
  const visible = new Set<string>(['']);
  const own = file.facts.package ?? '';
  for (let ns = own; ns !== ''; ns = ns.slice(0, Math.max(ns.lastIndexOf('.'), 0))) visible.add(ns);
  for (const fact of file.facts.imports) visible.add(fact.source);
  return visible;
}

export const CSHARP_CONSTANTS: ConstantRules = {
  prefix: 'cs:',
  sees: (namespace, _ref, from) => visibleNamespaces(from).has(namespace),
};
