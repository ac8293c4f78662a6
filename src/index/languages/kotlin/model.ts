/**
 * What the Kotlin declaration walk hands to contract detection: classes/objects with their properties and
 * annotations, per-body scopes, same-file constants (`const val`, top-level and object `val`s), enum
 * entries and the call sites found in bodies. The Kotlin grammar names few fields, so call and argument
 * shapes are read here once.
 */
import type { Node } from 'web-tree-sitter';
import { oneLine } from '../shared/tree-utils.js';
import type { AnnotationInfo } from '../shared/jvm/annotations.js';
import { lastSegment } from '../shared/jvm/common.js';

export interface KtVar {
  readonly name: string;
  /** Declared type without type arguments or `?`. */
  readonly type: string | undefined;
  readonly init: Node | undefined;
  readonly isParam: boolean;
  readonly annotations: readonly AnnotationInfo[];
  readonly symbol?: number;
  readonly line: number;
  readonly assigned: { readonly node: Node; readonly scope: KtScope }[];
}

export interface KtFunction {
  readonly id: number;
  readonly name: string;
  readonly line: number;
  readonly annotations: readonly AnnotationInfo[];
  readonly keywords: ReadonlySet<string>;
  /** Declared return type without type arguments, when written (`Consumer` for `: Consumer<Order>`). */
  readonly returnType?: string;
}

export interface KtClass {
  readonly id: number;
  readonly name: string;
  readonly qualified: string;
  readonly kind: 'class' | 'interface' | 'enum' | 'object' | 'companion';
  readonly nameLine: number;
  readonly outer: KtClass | undefined;
  readonly annotations: readonly AnnotationInfo[];
  /** Supertypes as written, without type arguments or constructor arguments. */
  readonly supertypes: readonly string[];
  /** Supertypes as written, type arguments included (`JpaRepository<Person, Long>`). */
  readonly supertypesWritten: readonly string[];
  /** The class it extends (the supertype called as a constructor: `CrudController<Order>()`), plain. */
  readonly superclass: string | undefined;
  readonly fields: Map<string, KtVar>;
  readonly functions: KtFunction[];
}

export interface KtScope {
  readonly cls: KtClass | undefined;
  readonly symbol: number | undefined;
  readonly vars: Map<string, KtVar>;
}

export interface KtSite {
  readonly node: Node;
  readonly scope: KtScope;
}

export interface KtConstant {
  readonly node: Node;
  /** The object or companion declaring it; undefined at the top level of the file. */
  readonly cls: KtClass | undefined;
  /** The property it is declared by (name, type, line). */
  readonly variable: KtVar;
  /** Another file can read it: not `private`. */
  readonly reachable: boolean;
}

export interface KtFile {
  readonly classes: KtClass[];
  /** `call_expression` and `assignment` nodes in source order. */
  readonly sites: KtSite[];
  readonly constants: Map<string, KtConstant[]>;
  readonly enumMembers: Map<string, string>;
  /** Simple name (or alias) → import source. */
  readonly imports: Map<string, string>;
}

export const namedChildren = (node: Node): Node[] =>
  node.namedChildren.filter((child): child is Node => child !== null && !child.type.endsWith('comment'));

/** A node's children (named and anonymous) with their types, read once. */
export interface ChildIndex {
  readonly all: readonly { readonly type: string; readonly node: Node }[];
  /** First child of each type. */
  readonly first: ReadonlyMap<string, Node>;
}

/**
 * Reads a node's children and their types in one pass. The Kotlin grammar names few fields, and scanning
 * the children again for every part costs a wasm round-trip per child.
 */
export function childIndex(node: Node): ChildIndex {
  const all: { type: string; node: Node }[] = [];
  const first = new Map<string, Node>();
  for (const child of node.children) {
    if (child === null) continue;
    const type = child.type;
    all.push({ type, node: child });
    if (!first.has(type)) first.set(type, child);
  }
  return { all, first };
}

export const childOfType = (node: Node, type: string): Node | undefined =>
  node.namedChildren.find((child): child is Node => child !== null && child.type === type);

/** A type's name without type arguments, nullability or annotations: `KafkaTemplate<String, String>?` → `KafkaTemplate`. */
export function plainType(type: Node | undefined): string | undefined {
  if (type === undefined) return undefined;
  return type.text
    .replace(/@\w+(?:\([^)]*\))?\s*/g, '')
    .replace(/<[^]*>/g, '')
    .replace(/[?\s]/g, '');
}

/** Annotations of a `modifiers` node in source order. */
export function ktAnnotations(modifiers: Node | undefined): AnnotationInfo[] {
  if (modifiers === undefined) return [];
  return namedChildren(modifiers)
    .filter((child) => child.type === 'annotation')
    .map(ktAnnotation);
}

export function ktAnnotation(node: Node): AnnotationInfo {
  // `@[target:]Type` or `@[target:]Type(args)`: the type (or its invocation) is the last child.
  const last = node.lastNamedChild;
  const invocation = last?.type === 'constructor_invocation' ? last : undefined;
  const type = invocation === undefined ? last : invocation.firstNamedChild;
  const list = invocation?.lastNamedChild;
  const args = list?.type === 'value_arguments' ? valueArguments(list) : [];
  return {
    name: lastSegment(plainType(type ?? undefined) ?? ''),
    text: oneLine(node.text, 'as-written'),
    args,
  };
}

/** `name = value` and positional arguments of a `value_arguments` node. */
export function valueArguments(list: Node | undefined): { name: string | undefined; value: Node }[] {
  const out: { name: string | undefined; value: Node }[] = [];
  for (const arg of list?.namedChildren ?? []) {
    if (arg === null || arg.type !== 'value_argument') continue;
    // `name = value` has two named children (the name first); a positional argument has one.
    const value = arg.lastNamedChild;
    if (value === null) continue;
    const first = arg.firstNamedChild;
    const named =
      first !== null && first.id !== value.id && first.type === 'identifier' && arg.namedChildCount === 2;
    out.push({ name: named ? first.text : undefined, value });
  }
  return out;
}

export interface KtCall {
  readonly name: string;
  readonly nameNode: Node;
  /** The receiver of `a.b(…)` / `a?.b(…)`; undefined for a plain call. */
  readonly receiver: Node | undefined;
  readonly args: readonly { name: string | undefined; value: Node }[];
  readonly lambda: Node | undefined;
}

/**
 * The parts of a `call_expression`. A call with a trailing lambda after parentheses is nested by the grammar
 * (`get("/x") { … }` = call(call(get, args), lambda)); the inner call carries the name and arguments.
 */
export function callOf(call: Node): KtCall | undefined {
  let callee: Node | undefined;
  let args: Node | undefined;
  let lambda: Node | undefined;
  for (const part of call.namedChildren) {
    if (part === null) continue;
    const type = part.type;
    if (callee === undefined) callee = part;
    else if (type === 'value_arguments') args = part;
    else if (type === 'annotated_lambda') lambda = part;
  }
  if (callee?.type === 'call_expression' && lambda !== undefined) {
    const inner = callee;
    callee = undefined;
    for (const part of inner.namedChildren) {
      if (part === null) continue;
      if (callee === undefined) callee = part;
      else if (part.type === 'value_arguments') args = part;
    }
  }
  if (callee === undefined) return undefined;
  if (callee.type === 'identifier') {
    return { name: callee.text, nameNode: callee, receiver: undefined, args: valueArguments(args), lambda };
  }
  if (callee.type === 'navigation_expression') {
    const receiver = callee.firstNamedChild;
    const nameNode = callee.lastNamedChild;
    if (nameNode?.type !== 'identifier' || receiver === null || receiver.id === nameNode.id) return undefined;
    return { name: nameNode.text, nameNode, receiver, args: valueArguments(args), lambda };
  }
  return undefined;
}

export function findField(name: string, cls: KtClass | undefined): KtVar | undefined {
  for (let current = cls; current !== undefined; current = current.outer) {
    const field = current.fields.get(name);
    if (field !== undefined) return field;
  }
  return undefined;
}

/** The variable an expression reads: `x`, `this.x`. */
export function varOf(node: Node, scope: KtScope): KtVar | undefined {
  if (node.type === 'identifier') return scope.vars.get(node.text) ?? findField(node.text, scope.cls);
  if (node.type === 'navigation_expression') {
    const pieces = namedChildren(node);
    if (pieces.length === 2 && pieces[0]?.type === 'this_expression' && pieces[1]?.type === 'identifier') {
      return findField(pieces[1].text, scope.cls);
    }
  }
  return undefined;
}

/** A function or constructor parameter (`val` constructor parameters are the class's properties). */
export function addParam(node: Node, into: Map<string, KtVar>): void {
  const parts = childIndex(node);
  const nameNode = parts.first.get('identifier');
  if (nameNode === undefined) return;
  const modifiers = parts.first.get('modifiers');
  into.set(nameNode.text, {
    name: nameNode.text,
    type: plainType(parts.first.get('user_type') ?? parts.first.get('nullable_type')),
    init: undefined,
    isParam: true,
    annotations: modifiers === undefined ? [] : ktAnnotations(modifiers),
    line: nameNode.startPosition.row + 1,
    assigned: [],
  });
}

/** A local `val`/`var` inside a body. */
export function addLocal(node: Node, into: Map<string, KtVar>): void {
  const parts = childIndex(node);
  const declaration = parts.first.get('variable_declaration');
  const declParts = declaration === undefined ? undefined : childIndex(declaration);
  const nameNode = declParts?.first.get('identifier');
  if (declParts === undefined || nameNode === undefined) return;
  const equals = parts.first.get('=');
  into.set(nameNode.text, {
    name: nameNode.text,
    type: plainType(declParts.first.get('user_type') ?? declParts.first.get('nullable_type')),
    init:
      equals === undefined
        ? undefined
        : parts.all.find((part) => part.node.startIndex > equals.startIndex && !part.type.endsWith('comment'))
            ?.node,
    isParam: false,
    annotations: [],
    line: nameNode.startPosition.row + 1,
    assigned: [],
  });
}

/** Annotations that the grammar detached from the declaration after them (see `KotlinWalker.detached`). */
export interface DetachedAnnotations {
  readonly first: Node;
  readonly annotations: readonly AnnotationInfo[];
}

/**
 * Reads `@A @B("x")` that the Kotlin grammar parsed as an expression (`annotated_expression` holding the
 * last annotation's arguments as a `parenthesized_expression`) back into annotations.
 */
export function detachedAnnotations(node: Node, source: string): AnnotationInfo[] {
  const out: AnnotationInfo[] = [];
  let current: Node | undefined = node;
  while (current?.type === 'annotated_expression') {
    const parts = namedChildren(current);
    const annotation = parts[0];
    const rest = parts[1];
    if (annotation?.type !== 'annotation') break;
    if (rest?.type === 'parenthesized_expression' && !annotation.text.includes('(')) {
      const inner = namedChildren(rest)[0];
      const info = ktAnnotation(annotation);
      out.push({
        name: info.name,
        text: oneLine(source.slice(annotation.startIndex, rest.endIndex), 'as-written'),
        args: inner === undefined ? [] : [{ name: undefined, value: inner }],
      });
      break;
    }
    out.push(ktAnnotation(annotation));
    current = rest;
  }
  return out;
}
