/**
 * The Rust file model and value resolution: `let` bindings, same-file `const`/`static` items, string and
 * string-array literals, `format!` templates and env-var bases (`std::env::var("X")` → `env:X`). Every
 * resolver gives up (undefined) rather than guess.
 */
import type { Node } from 'web-tree-sitter';
import type { Confidence } from '../../facts.js';
import type { FactBuilder } from '../shared/fact-builder.js';
import { decodeEscapes } from '../shared/native-common.js';

/** The HTTP client crates whose calls are recognised. */
export type HttpLibrary = 'reqwest' | 'awc';

export interface RustClient {
  readonly service: string;
  readonly confidence: Confidence;
  readonly via: string;
}

export interface RustFile {
  readonly source: string;
  readonly facts: FactBuilder;
  /** Name bound by a `use` (or `extern crate`) → its full path. */
  readonly uses: Map<string, string>;
  /** `const`/`static` name → value expressions (several when modules repeat a name). */
  readonly consts: Map<string, Node[]>;
  readonly fieldClients: Map<string, Map<string, RustClient>>;
  readonly anyFieldClient: Map<string, RustClient | null>;
  /** Struct → fields typed `reqwest::Client` / `awc::Client`, with the library. */
  readonly httpClientFields: Map<string, Map<string, HttpLibrary>>;
  readonly flags: { tonic: boolean; rdkafka: boolean; reqwest: boolean; awc: boolean };
  /** Whether `Client` occurs in the source at all: without it no expression can hold a generated stub. */
  readonly mentionsClient: boolean;
}

export interface RustImpl {
  readonly trait: Node;
  readonly type: string;
  readonly line: number;
  readonly symbol: number;
  readonly methods: {
    readonly symbol: number;
    readonly name: string;
    readonly line: number;
    readonly isAsync: boolean;
  }[];
}

export interface RustWalk {
  readonly node: Node;
  readonly symbol: number;
  /** The impl's type, which `self` has. */
  readonly owner: string | undefined;
  readonly params: Node | null;
}

export interface RustBinding {
  readonly value?: Node;
  readonly type?: Node;
}

export class RustScope {
  private readonly bindings = new Map<string, RustBinding[]>();

  constructor(
    readonly file: RustFile,
    readonly parent: RustScope | undefined,
    readonly symbol: number | undefined,
    readonly owner: string | undefined,
  ) {}

  child(): RustScope {
    return new RustScope(this.file, this, this.symbol, this.owner);
  }

  bind(name: string, binding: RustBinding): void {
    if (name === '_') return;
    const list = this.bindings.get(name);
    if (list === undefined) this.bindings.set(name, [binding]);
    else list.push(binding);
  }

  lookup(name: string): readonly RustBinding[] | undefined {
    return this.bindings.get(name) ?? this.parent?.lookup(name);
  }
}

const MAX_DEPTH = 6;

export function rustString(node: Node): string | undefined {
  if (node.type === 'string_literal') return decodeEscapes(node.text.slice(1, -1));
  if (node.type === 'raw_string_literal')
    return node.namedChildren.find((c) => c?.type === 'string_content')?.text ?? '';
  return undefined;
}

export function argumentsOf(call: Node): Node[] {
  const args = call.childForFieldName('arguments');
  return args === null
    ? []
    : args.namedChildren.filter(
        (n): n is Node => n !== null && n.type !== 'line_comment' && n.type !== 'block_comment',
      );
}

/** The method name and receiver of `recv.method(…)`, or undefined for other calls. */
export function methodCall(
  call: Node,
): { readonly name: string; readonly nameNode: Node; readonly receiver: Node } | undefined {
  const fn = call.childForFieldName('function');
  if (fn?.type !== 'field_expression') return undefined;
  const field = fn.childForFieldName('field');
  const receiver = fn.childForFieldName('value');
  return field === null || receiver === null ? undefined : { name: field.text, nameNode: field, receiver };
}

const TRANSPARENT_METHODS = new Set([
  'unwrap',
  'expect',
  'clone',
  'to_string',
  'to_owned',
  'into',
  'as_str',
  'as_ref',
  'borrow',
]);

/** Strips what does not change which value (or stub) an expression denotes: `&x`, `x?`, `.await`, `.unwrap()`, `.clone()`. */
export function peel(node: Node): Node {
  let current = node;
  for (let i = 0; i < 16; i++) {
    switch (current.type) {
      case 'parenthesized_expression':
      case 'try_expression':
      case 'await_expression':
        current = current.namedChild(0) ?? current;
        continue;
      case 'reference_expression':
        current = current.childForFieldName('value') ?? current;
        continue;
      case 'call_expression': {
        const call = methodCall(current);
        if (call !== undefined && TRANSPARENT_METHODS.has(call.name)) {
          current = call.receiver;
          continue;
        }
        return current;
      }
      default:
        return current;
    }
  }
  return current;
}

export function agree<T>(values: readonly (T | undefined)[], keyOf: (value: T) => string): T | undefined {
  let result: T | undefined;
  for (const value of values) {
    if (value === undefined) return undefined;
    if (result !== undefined && keyOf(result) !== keyOf(value)) return undefined;
    result = value;
  }
  return result;
}

/** Values bound to a name: local `let` bindings first (they hide constants), then the file's consts. */
export function valuesOf(name: string, scope: RustScope): readonly Node[] | undefined {
  const local = scope.lookup(name);
  if (local !== undefined) {
    const values = local.flatMap((b) => (b.value === undefined ? [] : [b.value]));
    return values.length === 0 ? undefined : values;
  }
  return scope.file.consts.get(name);
}

export function stringValue(node: Node, scope: RustScope, depth = 0): string | undefined {
  if (depth > MAX_DEPTH) return undefined;
  const expr = peel(node);
  const literal = rustString(expr);
  if (literal !== undefined) return literal;
  if (expr.type === 'identifier') return stringOfName(expr.text, scope, depth);
  if (expr.type === 'scoped_identifier') {
    // `topics::ORDERS` or `Self::TOPIC`: a same-file const by its last segment.
    const name = expr.childForFieldName('name')?.text;
    return name === undefined || scope.file.consts.get(name) === undefined
      ? undefined
      : stringOfName(name, scope, depth);
  }
  return undefined;
}

export function stringOfName(name: string, scope: RustScope, depth = 0): string | undefined {
  const values = valuesOf(name, scope);
  if (values === undefined || depth > MAX_DEPTH) return undefined;
  return agree(
    values.map((v) => stringValue(v, scope, depth + 1)),
    (s) => s,
  );
}

/** Strings of `&["a", B]`, `[…]`, `vec![…]`, or a name bound to one; unresolved items are dropped. */
export function stringList(node: Node, scope: RustScope, depth = 0): string[] {
  if (depth > MAX_DEPTH) return [];
  const expr = peel(node);
  if (expr.type === 'identifier') {
    const values = valuesOf(expr.text, scope);
    const lists = (values ?? []).map((v) => stringList(v, scope, depth + 1)).filter((l) => l.length > 0);
    return lists.length === 1 ? (lists[0] ?? []) : [];
  }
  let items: Node[];
  if (expr.type === 'array_expression') items = expr.namedChildren.filter((n): n is Node => n !== null);
  else if (expr.type === 'macro_invocation' && macroName(expr) === 'vec') {
    items = tokenTree(expr)?.namedChildren.filter((n): n is Node => n !== null) ?? [];
  } else {
    const single = stringValue(expr, scope, depth + 1);
    return single === undefined ? [] : [single];
  }
  return items.flatMap((item) => {
    const value = stringValue(item, scope, depth + 1);
    return value === undefined ? [] : [value];
  });
}

export function macroName(macro: Node): string | undefined {
  const path = macro.childForFieldName('macro');
  return path?.type === 'scoped_identifier' ? path.childForFieldName('name')?.text : path?.text;
}

export function tokenTree(macro: Node): Node | undefined {
  return macro.namedChildren.find((c) => c?.type === 'token_tree') ?? undefined;
}

/** The last identifier of an expression: the name its URL placeholder gets (`order.id` → `id`). */
export function lastIdentifier(node: Node): string | undefined {
  const expr = peel(node);
  switch (expr.type) {
    case 'identifier':
      return expr.text;
    case 'field_expression':
      return expr.childForFieldName('field')?.text;
    case 'scoped_identifier':
      return expr.childForFieldName('name')?.text;
    case 'call_expression': {
      const first = argumentsOf(expr)[0];
      const fn = expr.childForFieldName('function');
      return first !== undefined ? lastIdentifier(first) : fn === null ? undefined : lastIdentifier(fn);
    }
    default:
      return undefined;
  }
}

/** `Foo` for `Foo`, `Foo<T>`, `crate::x::Foo`, `&Foo`. */
export function rustTypeName(type: Node | null): string | undefined {
  let current = type;
  while (current !== null) {
    switch (current.type) {
      case 'type_identifier':
      case 'identifier':
        return current.text;
      case 'generic_type':
        current = current.childForFieldName('type');
        break;
      case 'scoped_type_identifier':
      case 'scoped_identifier':
        current = current.childForFieldName('name');
        break;
      case 'reference_type':
        current = current.childForFieldName('type');
        break;
      default:
        return undefined;
    }
  }
  return undefined;
}

/** The path of a type as written, without generic arguments or a reference: `reqwest::Client`, `XClient`. */
export function typePath(type: Node | null): string | undefined {
  if (type === null) return undefined;
  if (type.type === 'generic_type') return typePath(type.childForFieldName('type'));
  if (type.type === 'reference_type') return typePath(type.childForFieldName('type'));
  return type.type === 'type_identifier' || type.type === 'scoped_type_identifier' ? type.text : undefined;
}
