/**
 * Elixir declarations: modules (`defmodule`, `defprotocol`, `defimpl`), functions and macros (`def`,
 * `defp`, `defmacro`, `defguard`, `defdelegate`; the clauses of one `name/arity` are one symbol), structs,
 * `@type`s and module attributes holding a literal (`@timeout 5_000`) as constants, with `@moduledoc` and
 * `@doc` (else the `#` comments right above) as docstrings.
 */
import type { Node } from 'web-tree-sitter';
import type { SymbolKind } from '../../facts.js';
import { endLineOf, hashCommentDoc, oneLine, startLineOf } from '../shared/tree-utils.js';
import type { FactBuilder } from '../shared/fact-builder.js';
import { declare, type ExpressionFunction, type Frame, type ModuleFrame, type Walker } from './model.js';
import {
  argumentsOf,
  attributeOf,
  callArgs,
  callName,
  doBlockOf,
  expandAlias,
  moduleName,
  named,
  operatorOf,
} from './syntax.js';
import { envRead } from './values.js';

/** Definition macros and whether what they define is public. */
export const FUNCTION_KEYWORDS: ReadonlyMap<string, boolean> = new Map([
  ['def', true],
  ['defp', false],
  ['defmacro', true],
  ['defmacrop', false],
  ['defguard', true],
  ['defguardp', false],
  ['defdelegate', true],
]);
export const MODULE_KEYWORDS: ReadonlySet<string> = new Set(['defmodule', 'defprotocol', 'defimpl']);
/** Kinds of the module symbols of `defprotocol` and `defimpl`, whose functions are methods. */
const PROTOCOL_KINDS: ReadonlySet<SymbolKind> = new Set(['interface', 'impl']);
export const STRUCT_KEYWORDS: ReadonlySet<string> = new Set(['defstruct', 'defexception']);

/** Attributes the compiler or tooling reads: never constants of the module. */
const RESERVED_ATTRIBUTES = new Set([
  'after_compile',
  'after_verify',
  'before_compile',
  'behaviour',
  'callback',
  'compile',
  'deprecated',
  'derive',
  'dialyzer',
  'enforce_keys',
  'external_resource',
  'fallback_to_any',
  'file',
  'impl',
  'macrocallback',
  'nifs',
  'on_definition',
  'on_load',
  'optional_callbacks',
  'spec',
  'since',
  'vsn',
]);
const TYPE_ATTRIBUTES = new Set(['type', 'typep', 'opaque']);
const DOC_ATTRIBUTES = new Set(['doc', 'typedoc']);
/** Attributes that may stand between a definition and the comments documenting it. */
const ANNOTATIONS = new Set(['spec', 'impl', 'deprecated', 'since', 'doc', 'typedoc']);

const LITERALS = new Set([
  'string',
  'charlist',
  'sigil',
  'integer',
  'float',
  'atom',
  'quoted_atom',
  'boolean',
  'nil',
  'char',
]);
const CONTAINERS = new Set(['list', 'tuple', 'keywords', 'pair', 'map', 'map_content']);

/** `defmodule A.B`, `defprotocol P`, `defimpl P, for: T`: a symbol, then its body in the module's frame. */
export function readModule(walker: Walker, node: Node, keyword: string, frame: Frame): void {
  const { positional, keywords } = callArgs(node);
  const outer = frame.module?.name;
  let qualified: string | undefined;
  if (keyword === 'defimpl') {
    // The implementation module is `Protocol.Type`, wherever it is written.
    const protocol = moduleName(positional[0], outer);
    const forNode = keywords.get('for');
    const target = forNode === undefined ? outer : (moduleName(forNode, outer) ?? oneLine(forNode.text));
    qualified = protocol === undefined || target === undefined ? undefined : `${protocol}.${target}`;
  } else {
    const first = positional[0];
    // A nested `defmodule Inner` is `Outer.Inner`; `__MODULE__.Inner` already names the outer module.
    qualified =
      first?.type === 'alias' && outer !== undefined ? `${outer}.${first.text}` : moduleName(first, outer);
  }
  const body = doBlockOf(node);
  if (qualified === undefined) {
    if (body !== undefined) walker.visitChildren(body, frame);
    return;
  }
  const dot = qualified.lastIndexOf('.');
  const kind = keyword === 'defmodule' ? 'module' : keyword === 'defprotocol' ? 'interface' : 'impl';
  const args = argumentsOf(node);
  const signature = `${keyword} ${oneLine(args?.text ?? '')}`;
  const scope = dot < 0 ? undefined : qualified.slice(0, dot);
  const symbol = declare(
    walker.facts,
    node,
    kind,
    qualified.slice(dot + 1),
    scope,
    signature,
    frame.module?.id,
  );
  const doc = commentDoc(node);
  if (doc !== undefined) symbol.docstring = doc;
  if (keyword === 'defimpl') {
    const protocol = moduleName(positional[0], outer);
    if (protocol !== undefined) symbol.supertypes = [protocol];
  }
  const module: ModuleFrame = {
    name: qualified,
    id: symbol.id,
    attributes: new Map(),
    functions: body === undefined ? new Map() : expressionFunctions(body),
    uses: new Set(),
  };
  if (body !== undefined) walker.visitChildren(body, { module, owner: symbol.id, routes: '' });
}

/**
 * The functions of a module body whose single clause, unguarded and with plain parameter names, is one
 * expression, by `name/arity`: `def base_url, do: "https://…"`, `def process_url(url), do: …`.
 */
function expressionFunctions(body: Node): Map<string, ExpressionFunction> {
  const functions = new Map<string, ExpressionFunction>();
  const clauses = new Map<string, number>();
  for (const node of named(body)) {
    const keyword = node.type === 'call' ? callName(node) : undefined;
    if (keyword?.receiver !== undefined || (keyword?.name !== 'def' && keyword?.name !== 'defp')) continue;
    const { positional, keywords } = callArgs(node);
    const head = positional[0];
    const declared = head === undefined ? undefined : headOf(head);
    if (head === undefined || declared === undefined) continue;
    const key = `${declared.name}/${declared.arity}`;
    clauses.set(key, (clauses.get(key) ?? 0) + 1);
    const block = named(doBlockOf(node));
    const expression = keywords.get('do') ?? (block.length === 1 ? block[0] : undefined);
    const params = head.type === 'call' ? named(argumentsOf(head)) : [];
    const plain = head.type !== 'binary_operator' && params.every((param) => param.type === 'identifier');
    if (expression !== undefined && plain)
      functions.set(key, { params: params.map((param) => param.text), body: expression });
  }
  // A function of several clauses has no single expression.
  for (const [key, count] of clauses) if (count > 1) functions.delete(key);
  return functions;
}

/** The name and arity a definition head declares: `name(a, b) when …` → `name/2`. */
function headOf(head: Node): { readonly name: string; readonly arity: number } | undefined {
  const call = operatorOf(head) === 'when' ? head.childForFieldName('left') : head;
  if (call?.type === 'identifier') return { name: call.text, arity: 0 };
  if (call?.type !== 'call') return undefined;
  const target = call.childForFieldName('target');
  if (target?.type !== 'identifier' || target.text === 'unquote') return undefined;
  return { name: target.text, arity: named(argumentsOf(call)).length };
}

/** `def name(args) [when guard] do … end` or `…, do: expr`: a function symbol, then its body. */
export function readFunction(walker: Walker, node: Node, keyword: string, frame: Frame): void {
  const module = frame.module;
  const args = named(argumentsOf(node));
  const head = args[0];
  const declared = head === undefined ? undefined : headOf(head);
  const body = doBlockOf(node);
  let owner = frame.owner;
  if (module !== undefined && head !== undefined && declared !== undefined) {
    owner = declareFunction(walker.facts, node, keyword, head, declared, module, body);
  } else if (module !== undefined) {
    module.lastClause = undefined;
  }
  const inner: Frame = { ...frame, owner, locals: new Map(), routes: undefined };
  if (body !== undefined) walker.visitChildren(body, inner);
  for (const value of callArgs(node).keywords.values()) walker.visit(value, inner);
}

function declareFunction(
  facts: FactBuilder,
  node: Node,
  keyword: string,
  head: Node,
  declared: { readonly name: string; readonly arity: number },
  module: ModuleFrame,
  body: Node | undefined,
): number {
  const key = `${declared.name}/${declared.arity}`;
  const previous = module.lastClause?.key === key ? facts.symbol(module.lastClause.id) : undefined;
  if (previous !== undefined) {
    // Another clause of the same function: one symbol spans them all, and no single body range exists.
    previous.endLine = endLineOf(node);
    delete previous.bodyStartLine;
    delete previous.bodyEndLine;
    module.doc = undefined;
    return previous.id;
  }
  const signature =
    keyword === 'defdelegate'
      ? `${keyword} ${oneLine(argumentsOf(node)?.text ?? '')}`
      : `${keyword} ${oneLine(head.text)}`;
  // A protocol declares methods its implementations define: both are the protocol's dispatch targets.
  const kind = PROTOCOL_KINDS.has(facts.symbol(module.id)?.kind ?? 'module') ? 'method' : 'function';
  const symbol = declare(facts, node, kind, declared.name, module.name, signature, module.id);
  symbol.exported = FUNCTION_KEYWORDS.get(keyword) ?? false;
  const doc = takeDoc(module, node);
  if (doc !== undefined) symbol.docstring = doc;
  if (body !== undefined) {
    const first = startLineOf(body) + 1;
    const last = endLineOf(body) - 1;
    if (last >= first) {
      symbol.bodyStartLine = first;
      symbol.bodyEndLine = last;
    }
  }
  module.lastClause = { key, id: symbol.id };
  return symbol.id;
}

/** `defstruct …` / `defexception …`: the module's struct, named like the module. */
export function readStruct(facts: FactBuilder, node: Node, keyword: string, frame: Frame): void {
  const module = frame.module;
  if (module === undefined) return;
  const dot = module.name.lastIndexOf('.');
  const signature = node.text.includes('\n') ? `${keyword} …` : oneLine(node.text);
  const scope = dot < 0 ? undefined : module.name.slice(0, dot);
  const symbol = declare(facts, node, 'struct', module.name.slice(dot + 1), scope, signature, module.id);
  const doc = commentDoc(node);
  if (doc !== undefined) symbol.docstring = doc;
}

/**
 * `@name value` in a module body: docs, types, reserved attributes, or a constant (remembered for value
 * resolution whatever it holds, a symbol when it is a literal). False for an attribute read (`@name`).
 */
export function readAttribute(
  facts: FactBuilder,
  node: Node,
  module: ModuleFrame,
  aliases: ReadonlyMap<string, string>,
): boolean {
  const attribute = attributeOf(node);
  if (attribute?.call === undefined) return false;
  const { name, call } = attribute;
  const value = callArgs(call).positional[0];
  if (name === 'moduledoc') {
    const symbol = facts.symbol(module.id);
    const doc = value === undefined ? undefined : docText(value);
    if (symbol !== undefined && doc !== undefined) {
      if (doc === false) delete symbol.docstring;
      else symbol.docstring = doc;
    }
  } else if (DOC_ATTRIBUTES.has(name)) {
    module.doc = value === undefined ? undefined : docText(value);
  } else if (name === 'behaviour') {
    addDecorator(facts, module, oneLine(node.text));
    const behaviour = moduleName(value, module.name);
    if (behaviour !== undefined) addSupertype(facts, module, expandAlias(behaviour, aliases));
  } else if (TYPE_ATTRIBUTES.has(name)) {
    readType(facts, node, name, value, module);
  } else if (!RESERVED_ATTRIBUTES.has(name) && value !== undefined) {
    module.attributes.set(name, value);
    if (isLiteral(value)) {
      const signature = node.text.includes('\n') ? `@${name} …` : oneLine(node.text);
      declare(facts, node, 'const', `@${name}`, module.name, signature, module.id);
    }
  }
  return true;
}

/** `@type t :: …`, `@typep`, `@opaque`: a type symbol (`@typep` is private). */
function readType(
  facts: FactBuilder,
  node: Node,
  keyword: string,
  value: Node | undefined,
  module: ModuleFrame,
): void {
  const left = value !== undefined && operatorOf(value) === '::' ? value.childForFieldName('left') : null;
  const declared = left === null ? undefined : headOf(left);
  if (left === null || declared === undefined) return;
  const signature = node.text.includes('\n') ? `@${keyword} ${oneLine(left.text)} :: …` : oneLine(node.text);
  const symbol = declare(facts, node, 'type', declared.name, module.name, signature, module.id);
  symbol.exported = keyword !== 'typep';
  const doc = takeDoc(module, node);
  if (doc !== undefined) symbol.docstring = doc;
}

/** Adds a behaviour, protocol or used module to the module symbol's supertypes. */
export function addSupertype(facts: FactBuilder, module: ModuleFrame, name: string): void {
  const symbol = facts.symbol(module.id);
  if (symbol !== undefined && !(symbol.supertypes ?? []).includes(name))
    symbol.supertypes = [...(symbol.supertypes ?? []), name];
}

/** Adds `text` (`use GenServer`, `@behaviour Plug`) to the module symbol's decorators. */
export function addDecorator(facts: FactBuilder, module: ModuleFrame, text: string): void {
  const symbol = facts.symbol(module.id);
  if (symbol !== undefined) symbol.decorators = [...(symbol.decorators ?? []), text];
}

/** A literal value, or a container of literals, or an environment read. */
function isLiteral(node: Node): boolean {
  if (LITERALS.has(node.type)) return true;
  if (envRead(node) !== undefined) return true;
  if (node.type === 'unary_operator') {
    const operand = node.childForFieldName('operand');
    return node.childForFieldName('operator')?.text === '-' && operand !== null && isLiteral(operand);
  }
  if (!CONTAINERS.has(node.type)) return false;
  return named(node).every((child) => child.type === 'keyword' || isLiteral(child));
}

/** The pending `@doc` of the module, else the comments above `node`; clears the pending doc. */
function takeDoc(module: ModuleFrame, node: Node): string | undefined {
  const pending = module.doc;
  module.doc = undefined;
  if (pending === false) return undefined;
  return pending ?? commentDoc(node);
}

/** A doc attribute's text: a string or sigil, dedented; `false` for `@doc false`. */
function docText(node: Node): string | false | undefined {
  if (node.type === 'boolean' && node.text === 'false') return false;
  if (node.type !== 'string' && node.type !== 'sigil') return undefined;
  const text = named(node)
    .filter((part) => part.type !== 'sigil_name' && part.type !== 'sigil_modifiers')
    .map((part) => part.text)
    .join('');
  return dedent(text) || undefined;
}

/** Common indentation removed, blank edges dropped (a heredoc is indented like its code). */
function dedent(text: string): string {
  const lines = text.split(/\r?\n/);
  const indents = lines
    .filter((line) => line.trim() !== '')
    .map((line) => /^\s*/.exec(line)?.[0].length ?? 0);
  const indent = indents.length === 0 ? 0 : Math.min(...indents);
  return lines
    .map((line) => line.slice(indent).trimEnd())
    .join('\n')
    .trim();
}

/** Whether `node` is an annotation attribute (`@spec`, `@impl true`) that may precede a definition. */
function isAnnotation(node: Node): boolean {
  const name = attributeOf(node)?.name;
  return name !== undefined && ANNOTATIONS.has(name);
}

/** The `#` comment lines right above a declaration (annotations such as `@spec` may stand between). */
function commentDoc(node: Node): string | undefined {
  let sibling = node.previousNamedSibling;
  let expected = startLineOf(node) - 1;
  while (sibling !== null && isAnnotation(sibling) && endLineOf(sibling) === expected) {
    expected = startLineOf(sibling) - 1;
    sibling = sibling.previousNamedSibling;
  }
  return hashCommentDoc(sibling, expected + 1, (comment) => comment.previousNamedSibling);
}
