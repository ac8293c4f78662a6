/**
 * What the Elixir readers share while one file is walked: the facts gathered so far, and the frame a node
 * is read in (its module, the symbol that owns it, the function's variables, the route prefix).
 */
import type { Node } from 'web-tree-sitter';
import type { SymbolKind } from '../../facts.js';
import type { FactBuilder, MutableSymbol } from '../shared/fact-builder.js';
import type { Parts } from '../shared/tree-utils.js';
import { declarationAt } from '../shared/tree-utils.js';
import type { ValueScope } from './values.js';

/** A function whose body is one expression (`def base_url, do: "https://…"`), with its parameter names. */
export interface ExpressionFunction {
  readonly params: readonly string[];
  readonly body: Node;
}

/** A module being read (`defmodule`, `defprotocol`, `defimpl`). */
export interface ModuleFrame {
  /** Qualified name, `Shop.Orders.Cart`. */
  readonly name: string;
  readonly id: number;
  /** The latest value of each module attribute (`@base_url "…"`), in source order up to the current node. */
  readonly attributes: Map<string, Node>;
  /** The module's one-expression functions by `name/arity`, wherever they are defined in its body. */
  readonly functions: ReadonlyMap<string, ExpressionFunction>;
  /** Modules named by `use` in the module body. */
  readonly uses: Set<string>;
  /** Which routing DSL the module body speaks, from its `use` lines. */
  router?: 'phoenix' | 'plug';
  /** The base URL a `use Tesla` module plugs in with `Tesla.Middleware.BaseUrl`. */
  teslaBase?: Parts;
  /** The `@doc` waiting for the next definition; `false` for `@doc false` (hidden, so no comment doc either). */
  doc?: string | false;
  /** The last function defined (`name/arity`), whose next clauses extend it rather than adding a symbol. */
  lastClause?: { readonly key: string; readonly id: number };
}

export interface Frame {
  readonly module?: ModuleFrame;
  /** The enclosing symbol (a function, else the module) that contracts found here belong to. */
  readonly owner?: number;
  /** Variables bound so far in the enclosing function; absent outside function bodies. */
  readonly locals?: Map<string, Node>;
  /** The route prefix where the module's routing macros declare routes; absent elsewhere. */
  readonly routes?: string;
}

export function valueScope(frame: Frame): ValueScope {
  return {
    attribute: (name) => frame.module?.attributes.get(name),
    local: (name) => frame.locals?.get(name),
    function: (name) => frame.module?.functions.get(`${name}/0`)?.body,
  };
}

/** Adds a declaration at `node`, qualified by `scope`, to the file's facts; returns it, to be completed. */
export function declare(
  facts: FactBuilder,
  node: Node,
  kind: SymbolKind,
  name: string,
  scope: string | undefined,
  signature: string,
  parent: number | undefined,
): MutableSymbol {
  const id = facts.addSymbol({ ...declarationAt(node, kind, name, scope, signature), parent });
  return facts.symbol(id) as MutableSymbol;
}

/** What the readers of declarations and routes call back into to read a body in a new frame. */
export interface Walker {
  readonly facts: FactBuilder;
  visit(node: Node, frame: Frame): void;
  visitChildren(node: Node, frame: Frame): void;
}
