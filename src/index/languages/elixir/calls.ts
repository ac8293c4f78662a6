/**
 * Elixir call sites. Everything is a `call` node, so the reader tells calls of functions from the language:
 * definitions and their heads (`def place(order)`), special forms and macros (`if`, `case`, `alias`), module
 * attributes (`@spec f(String.t())`) and map field reads (`order.total`) are no calls. A local call inside a
 * function is on its own module (`self`) unless `import M, only: [f: 1]` brings it in; `Mod.fun()` names
 * its module with aliases expanded (`alias Shop.Repo` then `Repo.insert` → `Shop.Repo`), `x |> f` and
 * `&f/1` call `f`, and `%Order{}` constructs the struct. Calls in a module body outside functions are
 * compile-time macros of a DSL (`plug`, `field`, `config`) and are left out.
 */
import type { Node } from 'web-tree-sitter';
import type { ImportFact, SymbolFact, SymbolKind } from '../../facts.js';
import type { CallSite, CallSyntax } from '../shared/call-sites.js';
import { LineScopes } from '../shared/dynamic-call-scopes.js';
import { startLineOf } from '../shared/tree-utils.js';
import { FUNCTION_KEYWORDS, MODULE_KEYWORDS, STRUCT_KEYWORDS } from './declarations.js';
import { IMPORT_KEYWORDS } from './imports.js';
import { argumentsOf, expandAlias, operatorOf } from './syntax.js';

/** Special forms and Kernel macros that shape code rather than call a function. */
const SPECIAL_FORMS = new Set([
  ...FUNCTION_KEYWORDS.keys(),
  ...MODULE_KEYWORDS,
  ...STRUCT_KEYWORDS,
  ...IMPORT_KEYWORDS,
  'if',
  'unless',
  'case',
  'cond',
  'with',
  'for',
  'fn',
  'receive',
  'try',
  'raise',
  'reraise',
  'throw',
  'quote',
  'unquote',
  'unquote_splicing',
  'super',
  'defoverridable',
  'defcallback',
  'defmacrocallback',
  '__MODULE__',
  '__ENV__',
  '__CALLER__',
  '__DIR__',
  '__STACKTRACE__',
]);
const CALLERS: ReadonlySet<SymbolKind> = new Set(['function', 'method']);
const MODULES: ReadonlySet<SymbolKind> = new Set(['module', 'interface', 'impl']);

export function elixirCallSyntax(
  symbols: readonly SymbolFact[],
  imports: readonly ImportFact[],
  aliases: ReadonlyMap<string, string>,
): CallSyntax {
  const reader = new ElixirCallReader(new LineScopes(symbols, CALLERS, MODULES), imports, aliases);
  return {
    call: (node) => reader.call(node),
    binary_operator: (node) => reader.pipe(node),
    unary_operator: (node) => reader.capture(node),
    struct: (node) => reader.struct(node),
  };
}

class ElixirCallReader {
  /** Modules the file imports, by the source its import fact writes. */
  private readonly sources: ReadonlySet<string>;
  /** Functions brought in by `import M, only: [f: 1]`: `f` → `M`. */
  private readonly importedFunctions = new Map<string, string>();

  constructor(
    private readonly lines: LineScopes,
    imports: readonly ImportFact[],
    private readonly aliases: ReadonlyMap<string, string>,
  ) {
    this.sources = new Set(imports.map((fact) => fact.source));
    for (const fact of imports)
      for (const name of fact.names ?? []) this.importedFunctions.set(name, fact.source);
  }

  call(node: Node): CallSite | undefined {
    const target = node.childForFieldName('target');
    if (target?.type === 'identifier') return this.localCall(target, node);
    if (target?.type !== 'dot') return undefined;
    const left = target.childForFieldName('left');
    const right = target.childForFieldName('right');
    if (left === null || right?.type !== 'identifier') return undefined;
    if (left.type === 'alias') return this.remoteCall(right, left.text, node);
    if (left.type === 'identifier' && left.text === '__MODULE__') {
      const caller = this.lines.callerAt(startLineOf(right));
      return caller === undefined ? undefined : { name: right.text, receiver: '__MODULE__', self: true };
    }
    // `order.total` reads a map field; only `mod.fun(…)` with parentheses calls through a variable.
    if (argumentsOf(node) === undefined) return undefined;
    return { name: right.text, receiver: left.text, at: right };
  }

  /** `x |> f`: the piped-into name is a call of `f` with `x` first. */
  pipe(node: Node): CallSite | undefined {
    const right = node.childForFieldName('right');
    if (operatorOf(node) !== '|>' || right?.type !== 'identifier') return undefined;
    return this.local(right);
  }

  /** `&f/1`: a reference to the local function `f`, called by whoever receives it. */
  capture(node: Node): CallSite | undefined {
    if (node.childForFieldName('operator')?.text !== '&') return undefined;
    const operand = node.childForFieldName('operand');
    const left = operand !== null && operatorOf(operand) === '/' ? operand.childForFieldName('left') : null;
    return left?.type === 'identifier' ? this.local(left) : undefined;
  }

  /** `%Order{…}` builds the struct of `Order` (aliases expanded); `%__MODULE__{}` the module's own. */
  struct(node: Node): CallSite | undefined {
    const written = node.namedChildren.find((child) => child?.type === 'alias')?.text;
    if (written === undefined) {
      const own = node.text === '__MODULE__' ? this.lines.containerAt(startLineOf(node)) : undefined;
      return own === undefined ? undefined : { name: own.name, construct: true };
    }
    const full = expandAlias(written, this.aliases);
    const name = full.slice(full.lastIndexOf('.') + 1);
    return { name, construct: true, ...(this.sources.has(full) ? { module: full } : {}) };
  }

  /** `Repo.insert(x)`: the module's function, the module named by the import it comes through. */
  private remoteCall(name: Node, written: string, node: Node): CallSite | undefined {
    if (this.lines.callerAt(startLineOf(name)) === undefined && inAttribute(node)) return undefined;
    const full = expandAlias(written, this.aliases);
    return {
      name: name.text,
      receiver: written,
      receiverType: full,
      ...(this.sources.has(full) ? { module: full } : {}),
      at: name,
    };
  }

  /**
   * `helper(x)`: unless it is a form of the language, a definition's head or a module attribute (`@impl true`
   * between the clauses of one function lies inside that function's lines, but calls nothing).
   */
  private localCall(target: Node, node: Node): CallSite | undefined {
    if (SPECIAL_FORMS.has(target.text) || isDefinitionHead(node) || inAttribute(node)) return undefined;
    return this.local(target);
  }

  /** A local name called inside a function: the imported function, else the module's own. */
  private local(name: Node): CallSite | undefined {
    if (this.lines.callerAt(startLineOf(name)) === undefined) return undefined;
    const module = this.importedFunctions.get(name.text);
    return module === undefined ? { name: name.text, self: true } : { name: name.text, module };
  }
}

/** `def place(order)`, `defp f(x) when …`, `defdelegate f(x), to: M`: the head names what is defined. */
function isDefinitionHead(call: Node): boolean {
  let holder = call.parent;
  if (holder !== null && operatorOf(holder) === 'when') {
    // The guard on the right of `when` calls its functions; the head is on the left.
    if (holder.childForFieldName('left')?.id !== call.id) return false;
    holder = holder.parent;
  }
  if (holder?.type !== 'arguments') return false;
  const definition = holder.parent?.childForFieldName('target');
  return definition?.type === 'identifier' && FUNCTION_KEYWORDS.has(definition.text);
}

/** Inside a module attribute (`@spec f(String.t()) :: :ok`, `@type t :: Keyword.t()`). */
function inAttribute(node: Node): boolean {
  for (let current = node.parent; current !== null; current = current.parent) {
    if (current.type === 'unary_operator' && current.childForFieldName('operator')?.text === '@') return true;
    if (current.type === 'do_block' || current.type === 'source') return false;
  }
  return false;
}
