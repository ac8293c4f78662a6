/**
 * Elixir imports: `alias`, `import`, `use` and `require`, each naming a module (`alias Shop.{Cart, Order}`
 * names two). `use` also tells what the module is: a Phoenix or Plug router, a Tesla client, a GenServer
 * (kept as a decorator on the module symbol).
 */
import type { Node } from 'web-tree-sitter';
import { oneLine, startLineOf } from '../shared/tree-utils.js';
import { addDecorator, addSupertype } from './declarations.js';
import type { FactBuilder } from '../shared/fact-builder.js';
import type { Frame } from './model.js';
import { argumentsOf, atomName, callArgs, expandAlias, moduleName, named, readKeywords } from './syntax.js';

export const IMPORT_KEYWORDS: ReadonlySet<string> = new Set(['alias', 'import', 'use', 'require']);

/** The modules an import's first argument names: one, or several for `Base.{A, B.C}`. */
function importedModules(node: Node | undefined, current: string | undefined): string[] {
  if (node?.type === 'dot') {
    const right = node.childForFieldName('right');
    if (right?.type === 'tuple') {
      const base = moduleName(node.childForFieldName('left'), current);
      if (base === undefined) return [];
      return named(right)
        .filter((item) => item.type === 'alias')
        .map((item) => `${base}.${item.text}`);
    }
  }
  const single = moduleName(node, current);
  return single === undefined ? [] : [single];
}

/** The function names of `import M, only: [a: 1, b: 2]`. */
function onlyNames(only: Node | undefined): string[] | undefined {
  if (only?.type !== 'list') return undefined;
  const names = [...readKeywords(only, new Map()).keys()];
  return names.length === 0 ? undefined : [...new Set(names)];
}

/**
 * Reads an import; an `alias` also records the short name it gives the module in `aliases` (`alias A.B` →
 * `B`, `alias A.B, as: C` → `C`), and a module-level `use` makes the used module a supertype.
 */
export function readImport(
  facts: FactBuilder,
  node: Node,
  keyword: string,
  frame: Frame,
  aliases: Map<string, string>,
): void {
  const { positional, keywords } = callArgs(node);
  const line = startLineOf(node);
  const names = keyword === 'import' ? onlyNames(keywords.get('only')) : undefined;
  const sources = importedModules(positional[0], frame.module?.name);
  for (const source of sources) {
    facts.addImport(names === undefined ? { source, line } : { source, names, line });
  }
  if (keyword === 'alias') recordAliases(sources, keywords.get('as'), aliases);
  const module = frame.module;
  const used = sources[0];
  if (keyword !== 'use' || module === undefined || used === undefined || frame.locals !== undefined) return;
  module.uses.add(used);
  addDecorator(facts, module, `use ${oneLine(argumentsOf(node)?.text ?? used)}`);
  addSupertype(facts, module, expandAlias(used, aliases));
  // `use MyAppWeb, :router` is how a generated Phoenix app's router brings in `Phoenix.Router`.
  if (used === 'Phoenix.Router' || atomName(positional[1]) === 'router') module.router = 'phoenix';
  else if (used === 'Plug.Router') module.router = 'plug';
}

function recordAliases(sources: readonly string[], as: Node | undefined, aliases: Map<string, string>): void {
  const only = sources.length === 1 ? sources[0] : undefined;
  if (as?.type === 'alias' && only !== undefined) {
    aliases.set(as.text, only);
    return;
  }
  for (const source of sources) aliases.set(source.slice(source.lastIndexOf('.') + 1), source);
}
