/**
 * What the Go contract recognisers know about one file and one function: imports by package name, top-level
 * constants and variables, same-file helper functions, struct fields holding clients, and the local
 * bindings of the function being walked. Values are resolved lazily from the bound expression, within the
 * file only, and give up (undefined) rather than guess.
 */
import type { Node } from 'web-tree-sitter';
import type { Confidence } from '../../facts.js';
import type { FactBuilder } from '../shared/fact-builder.js';
import { isHealthService } from '../shared/grpc-health.js';
import { decodeEscapes, type UrlPart } from '../shared/native-common.js';

/** A value a name is bound to: an expression, a declared type, or a route prefix (chi `Route` callbacks). */
export interface Binding {
  readonly value?: Node;
  readonly type?: Node;
  readonly prefix?: string;
}

export interface GoClient {
  readonly service: string;
  readonly confidence: Confidence;
  /** How the stub was recognised, reused as the `via` of method-level calls on it. */
  readonly via: string;
}

export interface GoMethod {
  readonly symbol: number;
  readonly name: string;
  readonly line: number;
  /** Exported and shaped like a generated gRPC handler (unary or streaming); computed only for served types. */
  readonly handlerShape: () => boolean;
}

/**
 * Same-file helper returning a string: `func topic() string { …; return "x" }` (a literal) or the
 * env-with-default helper `func env(key, def string) string { if v := os.Getenv(key)…; return def }`.
 */
export type ValueFunc =
  { readonly kind: 'literal'; readonly node: Node } | { readonly kind: 'param'; readonly index: number };

export interface GoFile {
  readonly source: string;
  readonly facts: FactBuilder;
  /** Package name as used in this file → import path. */
  readonly imports: ReadonlyMap<string, string>;
  readonly valueFuncs: Map<string, ValueFunc>;
  /** Result type text of same-file functions (`*server`, `(*grpc.ClientConn, error)`). */
  readonly funcResults: Map<string, string>;
  /** Struct type → field → gRPC client it holds (declared type or assigned constructor). */
  readonly fieldClients: Map<string, Map<string, GoClient>>;
  /** Field name → client over all structs, null when two structs disagree (used only as a heuristic). */
  readonly anyFieldClient: Map<string, GoClient | null>;
  readonly httpClientFields: Map<string, Set<string>>;
  /** Field name → the URL parts every assignment of the file gives it, null when they disagree (fields.ts). */
  readonly fieldValues: Map<string, UrlPart[] | null>;
  readonly anyHttpClientField: Set<string>;
  readonly methods: Map<string, GoMethod[]>;
  /** Receiver types tied to a service by registration or by embedding `Unimplemented<S>Server`. */
  readonly servedTypes: { readonly type: string; readonly service: string; readonly via: string }[];
  /** Whether `Client` occurs in the source at all: without it no expression can hold a generated stub. */
  readonly mentionsClient: boolean;
  /** Which HTTP router family the file imports (`gin`, `chi`…, or `net/http`), if any. */
  readonly router: string | undefined;
  readonly kafka: { readonly segmentio: boolean; readonly confluent: boolean; readonly sarama: boolean };
  /** The file's `package` clause: package-level values of other files are referred to through it. */
  readonly packageName: string | undefined;
  /** Package-level names this file assigns inside a function: not constants (`&name` is read in go-values.ts). */
  readonly reassigned: Set<string>;
}

/** A function's (or the file's) bindings; lookups fall back to the enclosing scope. */
export class GoScope {
  private readonly bindings = new Map<string, Binding[]>();

  constructor(
    readonly file: GoFile,
    readonly parent: GoScope | undefined,
    readonly symbol: number | undefined,
    readonly receiver?: { readonly name: string; readonly type: string },
  ) {}

  child(): GoScope {
    return new GoScope(this.file, this, this.symbol, this.receiver);
  }

  bind(name: string, binding: Binding): void {
    if (name === '_' || name === '') return;
    const list = this.bindings.get(name);
    if (list === undefined) this.bindings.set(name, [binding]);
    else list.push(binding);
  }

  lookup(name: string): readonly Binding[] | undefined {
    return this.bindings.get(name) ?? this.parent?.lookup(name);
  }

  /** Whether `name` resolves to a binding of the file scope (a package-level const or var of this file). */
  isPackageLevel(name: string): boolean {
    if (this.parent === undefined) return this.bindings.has(name);
    return !this.bindings.has(name) && this.parent.isPackageLevel(name);
  }

  /** The import path when `name` is a package in this file and no local declaration hides it. */
  packagePath(name: string): string | undefined {
    return this.lookup(name) === undefined ? this.file.imports.get(name) : undefined;
  }
}

export interface Resolved {
  readonly value: string;
  /** True when the value is a default behind an environment override (the env-with-default idiom). */
  readonly inferred: boolean;
}

const MAX_DEPTH = 6;

export function unwrapParens(node: Node): Node {
  let current = node;
  while (current.type === 'parenthesized_expression' || current.type === 'literal_element') {
    const inner = current.firstNamedChild;
    if (inner === null) break;
    current = inner;
  }
  return current;
}

export function goStringLiteral(node: Node): string | undefined {
  if (node.type === 'raw_string_literal') return node.text.slice(1, -1);
  if (node.type === 'interpreted_string_literal') return decodeEscapes(node.text.slice(1, -1));
  return undefined;
}

export function argumentsOf(call: Node): Node[] {
  const args = call.childForFieldName('arguments');
  return args === null ? [] : args.namedChildren.filter((n): n is Node => n !== null && n.type !== 'comment');
}

/** A string from a literal, a same-file const/var, `&x`, a concatenation, or a same-file value helper. */
export function stringValue(node: Node, scope: GoScope, depth = 0): Resolved | undefined {
  if (depth > MAX_DEPTH) return undefined;
  const expr = unwrapParens(node);
  const literal = goStringLiteral(expr);
  if (literal !== undefined) return { value: literal, inferred: false };
  switch (expr.type) {
    case 'identifier':
      return agree(scope.lookup(expr.text), (b) =>
        b.value === undefined ? undefined : stringValue(b.value, scope, depth + 1),
      );
    case 'unary_expression': {
      const operand = expr.childForFieldName('operand');
      return expr.child(0)?.type === '&' && operand !== null
        ? stringValue(operand, scope, depth + 1)
        : undefined;
    }
    case 'binary_expression': {
      if (expr.childForFieldName('operator')?.type !== '+') return undefined;
      const left = expr.childForFieldName('left');
      const right = expr.childForFieldName('right');
      const l = left === null ? undefined : stringValue(left, scope, depth + 1);
      const r = right === null ? undefined : stringValue(right, scope, depth + 1);
      return l === undefined || r === undefined
        ? undefined
        : { value: l.value + r.value, inferred: l.inferred || r.inferred };
    }
    case 'call_expression':
      return valueFuncCall(expr, scope, depth);
    default:
      return undefined;
  }
}

function valueFuncCall(call: Node, scope: GoScope, depth: number): Resolved | undefined {
  const fn = call.childForFieldName('function');
  if (fn?.type !== 'identifier' || scope.lookup(fn.text) !== undefined) return undefined;
  const helper = scope.file.valueFuncs.get(fn.text);
  if (helper === undefined) return undefined;
  const args = argumentsOf(call);
  const source =
    helper.kind === 'literal' ? (args.length === 0 ? helper.node : undefined) : args[helper.index];
  if (source === undefined) return undefined;
  // The helper's own literal is resolved at file level: its locals are not ours.
  const resolved = stringValue(source, helper.kind === 'literal' ? fileScopeOf(scope) : scope, depth + 1);
  return resolved === undefined ? undefined : { value: resolved.value, inferred: true };
}

function fileScopeOf(scope: GoScope): GoScope {
  let current = scope;
  while (current.parent !== undefined) current = current.parent;
  return current;
}

/** Every string of a `[]string{…}` literal (or a name bound to one) that resolves; unresolved items are dropped. */
export function stringList(
  node: Node,
  scope: GoScope,
  depth = 0,
  item: (node: Node, scope: GoScope) => Resolved | undefined = stringValue,
): Resolved[] {
  if (depth > MAX_DEPTH) return [];
  const expr = unwrapParens(node);
  if (expr.type === 'identifier') {
    const bindings = scope.lookup(expr.text) ?? [];
    for (const binding of bindings) {
      if (binding.value !== undefined) {
        const list = stringList(binding.value, scope, depth + 1, item);
        if (list.length > 0) return list;
      }
    }
    if (bindings.length > 0) return [];
  }
  if (expr.type !== 'composite_literal') {
    const single = item(expr, scope);
    return single === undefined ? [] : [single];
  }
  const body = expr.childForFieldName('body');
  const out: Resolved[] = [];
  for (const element of body?.namedChildren ?? []) {
    if (element === null || element.type !== 'literal_element') continue;
    const value = item(unwrapParens(element), scope);
    if (value !== undefined) out.push(value);
  }
  return out;
}

/** One result when every binding that yields something yields the same thing; otherwise nothing. */
export function agree<T>(
  bindings: readonly Binding[] | undefined,
  read: (binding: Binding) => T | undefined,
  keyOf: (value: T) => string = keyOfValue,
): T | undefined {
  if (bindings === undefined) return undefined;
  let result: T | undefined;
  for (const binding of bindings) {
    const value = read(binding);
    if (value === undefined) {
      // An assigned value we cannot read (a call, a parameter's use) may be the live one: refuse rather
      // than guess. A bare declaration (`var t string`, a parameter) only hides outer names.
      if (binding.value !== undefined) return undefined;
      continue;
    }
    if (result !== undefined && keyOf(result) !== keyOf(value)) return undefined;
    result = value;
  }
  return result;
}

function keyOfValue(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && value !== null && 'value' in value) return String(value.value);
  return JSON.stringify(value);
}

/** The named type behind `T`, `*T`, `pkg.T`, `T[U]` — its last identifier. */
export function baseTypeName(type: Node | null): string | undefined {
  let current = type;
  while (current !== null) {
    switch (current.type) {
      case 'type_identifier':
        return current.text;
      case 'pointer_type':
        current = current.namedChild(0);
        break;
      case 'generic_type':
        current = current.childForFieldName('type');
        break;
      case 'qualified_type':
        current = current.childForFieldName('name');
        break;
      default:
        return undefined;
    }
  }
  return undefined;
}

/** The struct type a value expression builds: `&T{…}`, `T{…}`, `new(T)`, or a same-file `newT()` returning `*T`. */
export function typeOfExpr(node: Node, scope: GoScope, depth = 0): string | undefined {
  if (depth > MAX_DEPTH) return undefined;
  const expr = unwrapParens(node);
  switch (expr.type) {
    case 'identifier': {
      if (scope.receiver?.name === expr.text) return scope.receiver.type;
      return agree(scope.lookup(expr.text), (b) => {
        if (b.type !== undefined) return baseTypeName(b.type);
        return b.value === undefined ? undefined : typeOfExpr(b.value, scope, depth + 1);
      });
    }
    case 'unary_expression':
      return expr.child(0)?.type === '&'
        ? typeOfExpr(expr.childForFieldName('operand') ?? expr, scope, depth + 1)
        : undefined;
    case 'composite_literal': {
      const type = expr.childForFieldName('type');
      return type?.type === 'type_identifier' ? type.text : undefined;
    }
    case 'call_expression': {
      const fn = expr.childForFieldName('function');
      if (fn?.type !== 'identifier') return undefined;
      if (fn.text === 'new') return baseTypeName(argumentsOf(expr)[0] ?? null);
      const result = scope.file.funcResults.get(fn.text);
      const match = result === undefined ? null : /^\(?\*?([A-Za-z_]\w*)\b/.exec(result);
      return match?.[1];
    }
    default:
      return undefined;
  }
}

/** The last identifier of an expression, the name a URL placeholder gets (`order.ID` → `ID`). */
export function lastIdentifier(node: Node): string | undefined {
  const expr = unwrapParens(node);
  switch (expr.type) {
    case 'identifier':
    case 'field_identifier':
      return expr.text;
    case 'selector_expression':
      return expr.childForFieldName('field')?.text;
    case 'call_expression': {
      const first = argumentsOf(expr)[0];
      const fn = expr.childForFieldName('function');
      return first !== undefined ? lastIdentifier(first) : fn === null ? undefined : lastIdentifier(fn);
    }
    case 'index_expression':
    case 'unary_expression':
      return lastIdentifier(expr.childForFieldName('operand') ?? expr.namedChild(0) ?? expr);
    default:
      return undefined;
  }
}

/** Go's package name for an import path: the last element, without `/vN`, `.vN`, `go-` or `-go`. */
export function defaultPackageName(importPath: string): string {
  const segments = importPath.split('/').filter((s) => s !== '');
  let last = segments.pop() ?? importPath;
  if (/^v\d+$/.test(last) && segments.length > 0) last = segments.pop() ?? last;
  return last
    .replace(/\.v\d+$/, '')
    .replace(/^go-/, '')
    .replace(/[-.]go$/, '')
    .replace(/[^A-Za-z0-9_]/g, '_');
}

/** `pb.InventoryServiceClient`: a generated client interface from an imported package (health excluded). */
export function clientType(type: Node, file: GoFile): GoClient | undefined {
  if (type.type !== 'qualified_type') return undefined;
  const pkg = type.childForFieldName('package')?.text;
  const service = /^(\w+)Client$/.exec(type.childForFieldName('name')?.text ?? '')?.[1];
  if (pkg === undefined || service === undefined || isHealthService(service)) return undefined;
  // `redis.UniversalClient` has the same shape as `pb.InventoryServiceClient`: only a package that looks
  // generated from protobuf makes the type a stub.
  const path = file.imports.get(pkg);
  if (path === undefined || !looksGenerated(pkg, path)) return undefined;
  return { service, confidence: 'exact', via: '*Client type' };
}

/**
 * `pb`, `paymentpb`, `paymentv1`, or an import path with a `…pb`/`…proto…`/`gen`/`grpc`/`api` element. A
 * trailing `/vN` alone proves nothing: `github.com/redis/go-redis/v9` is versioned too.
 */
export function looksGenerated(alias: string, importPath: string): boolean {
  return /(pb|v\d+)$/i.test(alias) || /(^|\/)(\w*pb|\w*proto\w*|gen|grpc|api)(\/|$)/i.test(importPath);
}

export function isHttpClientType(type: Node, file: GoFile): boolean {
  const inner = type.type === 'pointer_type' ? type.namedChild(0) : type;
  if (inner?.type !== 'qualified_type' || inner.childForFieldName('name')?.text !== 'Client') return false;
  return file.imports.get(inner.childForFieldName('package')?.text ?? '') === 'net/http';
}

export function setFieldClient(file: GoFile, struct: string, field: string, client: GoClient): void {
  let fields = file.fieldClients.get(struct);
  if (fields === undefined) file.fieldClients.set(struct, (fields = new Map()));
  fields.set(field, client);
  const known = file.anyFieldClient.get(field);
  file.anyFieldClient.set(field, known === undefined || known?.service === client.service ? client : null);
}
