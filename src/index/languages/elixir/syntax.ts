/**
 * Reading the Elixir grammar's shapes. Everything in Elixir is a call: `def`, `defmodule`, `get "/x"` and
 * `HTTPoison.get(url)` are all `call` nodes, told apart by their target (an identifier for a local call or
 * macro, a `dot` for `Module.fun`), with keyword arguments collected in a trailing `keywords` node.
 */
import type { Node } from 'web-tree-sitter';

/** Named children without comments. */
export function named(node: Node | null | undefined): Node[] {
  return (node?.namedChildren ?? []).filter(
    (child): child is Node => child !== null && child.type !== 'comment',
  );
}

/** The called name and, for `Module.fun(…)`, the module as written (`HTTPoison`, `Task.Supervisor`). */
export interface CallName {
  readonly name: string;
  readonly receiver?: string;
}

export function callName(call: Node): CallName | undefined {
  const target = call.childForFieldName('target');
  if (target?.type === 'identifier') return { name: target.text };
  if (target?.type !== 'dot') return undefined;
  const left = target.childForFieldName('left');
  const right = target.childForFieldName('right');
  if (left?.type !== 'alias' || right?.type !== 'identifier') return undefined;
  return { name: right.text, receiver: left.text };
}

/** A call's arguments: positional ones in order and the trailing `key: value` pairs. */
export interface CallArgs {
  readonly positional: readonly Node[];
  readonly keywords: ReadonlyMap<string, Node>;
}

export function callArgs(call: Node): CallArgs {
  const positional: Node[] = [];
  const keywords = new Map<string, Node>();
  for (const argument of named(argumentsOf(call))) {
    if (argument.type === 'keywords') readKeywords(argument, keywords);
    else positional.push(argument);
  }
  return { positional, keywords };
}

/** The `arguments` node of a call (a call without arguments, `foo`, has none). */
export function argumentsOf(call: Node): Node | undefined {
  return named(call).find((child) => child.type === 'arguments');
}

/** The `do … end` block of a call, if it has one. */
export function doBlockOf(call: Node): Node | undefined {
  return named(call).find((child) => child.type === 'do_block');
}

/**
 * The arguments a call receives when it is the right side of a pipe: `x |> Req.get!(url: u)` passes `x`
 * first, so the piped value is prepended to the positional arguments.
 */
export function pipedArgs(call: Node): CallArgs {
  const args = callArgs(call);
  const parent = call.parent;
  if (
    parent?.type !== 'binary_operator' ||
    parent.childForFieldName('operator')?.text !== '|>' ||
    parent.childForFieldName('right')?.id !== call.id
  ) {
    return args;
  }
  const left = parent.childForFieldName('left');
  return left === null ? args : { positional: [left, ...args.positional], keywords: args.keywords };
}

/** Pairs of a keyword list (`[a: 1, b: 2]`) or a bare `keywords` node, added to `into`. */
export function readKeywords(node: Node, into: Map<string, Node>): Map<string, Node> {
  const list = node.type === 'list' ? named(node).find((child) => child.type === 'keywords') : node;
  if (list?.type !== 'keywords') return into;
  for (const pair of named(list)) {
    const key = pair.childForFieldName('key');
    const value = pair.childForFieldName('value');
    if (key !== null && value !== null) into.set(key.text.replace(/:\s*$/, '').replace(/^"|"$/g, ''), value);
  }
  return into;
}

/** A string without interpolation (escapes kept as written); undefined for anything else. */
export function literalString(node: Node | null | undefined): string | undefined {
  if (node === null || node === undefined || node.type !== 'string') return undefined;
  const parts = named(node);
  if (parts.some((part) => part.type === 'interpolation')) return undefined;
  return parts.map((part) => part.text).join('');
}

/** `:get` → `get`, `:"a b"` → `a b`; undefined for anything but an atom. */
export function atomName(node: Node | null | undefined): string | undefined {
  if (node === null || node === undefined) return undefined;
  if (node.type === 'atom') return node.text.replace(/^:/, '');
  if (node.type === 'quoted_atom') return literalString(named(node).find((child) => child.type === 'string'));
  return undefined;
}

/** The atoms or strings of a list (`[:index, :show]`, `~w(index show)a` is not read). */
export function literalList(node: Node | undefined): string[] {
  if (node === undefined) return [];
  const items = node.type === 'list' ? named(node) : [node];
  return items
    .map((item) => atomName(item) ?? literalString(item))
    .filter((item): item is string => item !== undefined);
}

/** An attribute node `@name …`: its name and the call under the `@` (undefined for other nodes). */
export function attributeOf(node: Node): { readonly name: string; readonly call?: Node } | undefined {
  if (node.type !== 'unary_operator' || node.childForFieldName('operator')?.text !== '@') return undefined;
  const operand = node.childForFieldName('operand');
  if (operand?.type === 'identifier') return { name: operand.text };
  if (operand?.type !== 'call') return undefined;
  const name = callName(operand);
  return name === undefined || name.receiver !== undefined ? undefined : { name: name.name, call: operand };
}

/**
 * A module name as written, with `__MODULE__` replaced by the enclosing module: `Foo.Bar`,
 * `__MODULE__`, `__MODULE__.Sub`. Undefined for anything else.
 */
export function moduleName(node: Node | null | undefined, current: string | undefined): string | undefined {
  if (node === null || node === undefined) return undefined;
  if (node.type === 'alias') return node.text;
  if (node.type === 'identifier' && node.text === '__MODULE__') return current;
  if (node.type === 'dot') {
    const left = moduleName(node.childForFieldName('left'), current);
    const right = node.childForFieldName('right');
    return left === undefined || right?.type !== 'alias' ? undefined : `${left}.${right.text}`;
  }
  return undefined;
}

/** The binary operator's symbol (`|>`, `<>`, `=`, `when`, `::`), or undefined for other nodes. */
export function operatorOf(node: Node): string | undefined {
  return node.type === 'binary_operator' ? node.childForFieldName('operator')?.text : undefined;
}

/** A module name as written, its first segment replaced by the module an `alias` gave that name. */
export function expandAlias(name: string, aliases: ReadonlyMap<string, string>): string {
  const dot = name.indexOf('.');
  const first = dot < 0 ? name : name.slice(0, dot);
  const full = aliases.get(first);
  return full === undefined ? name : `${full}${dot < 0 ? '' : name.slice(dot)}`;
}
