/**
 * gRPC C++: a class deriving from `PaymentService::Service` (or `AsyncService`/`CallbackService`) serves
 * that service, its `ServerContext` methods being the handlers; `PaymentService::NewStub(channel)` builds a
 * stub, and calls on a variable or member holding one (`stub_->ProcessPayment(…)`) are method-level calls.
 * Namespaced names keep their qualification, written with dots (`shop::v1::X` → `shop.v1.X`).
 */
import type { Node } from 'web-tree-sitter';
import type { FactBuilder } from '../shared/fact-builder.js';
import { isHealthService } from '../shared/grpc-health.js';
import { startLineOf } from '../shared/tree-utils.js';

export interface CppFile {
  readonly source: string;
  readonly facts: FactBuilder;
  /** Class (qualified) → member name → service of the stub it holds. */
  readonly stubFields: Map<string, Map<string, string>>;
}

export interface CppClass {
  readonly symbol: number;
  readonly qualifiedName: string;
  readonly nameLine: number;
  readonly bases: readonly Node[];
  readonly methods: {
    readonly symbol: number;
    readonly name: string;
    readonly line: number;
    readonly params: Node | null;
  }[];
  readonly fields: { readonly name: string; readonly type: Node; readonly node: Node }[];
}

export interface CppWalk {
  /** A function definition (its initialiser list and body are walked). */
  readonly node: Node;
  readonly symbol: number;
  /** Qualified name of the class whose method this is. */
  readonly owner: string | undefined;
}

interface Scope {
  readonly file: CppFile;
  readonly symbol: number;
  readonly owner: string | undefined;
  readonly locals: Map<string, string>;
}

const dotted = (scopes: string): string =>
  scopes
    .replace(/::$/, '')
    .split('::')
    .filter((s) => s !== '')
    .join('.');

function servedService(base: Node): string | undefined {
  const match = /((?:\w+::)*\w+)::(?:Service|AsyncService|CallbackService)\b/.exec(
    base.text.replace(/\s+/g, ''),
  );
  return match?.[1] === undefined ? undefined : dotted(match[1]);
}

function stubService(typeText: string): string | undefined {
  const match = /((?:\w+::)*\w+)::Stub(?:Interface)?\b/.exec(typeText.replace(/\s+/g, ''));
  return match?.[1] === undefined ? undefined : dotted(match[1]);
}

export function collectCppGrpc(file: CppFile, walks: readonly CppWalk[], classes: readonly CppClass[]): void {
  for (const cls of classes) {
    const services = cls.bases.flatMap((b) => servedService(b) ?? []).filter((s) => !isHealthService(s));
    for (const service of services) {
      file.facts.addContract({
        kind: 'grpc_server',
        service,
        symbol: cls.symbol,
        line: cls.nameLine,
        confidence: 'exact',
        via: 'X::Service',
      });
      for (const method of cls.methods) {
        if (!/\b(Callback)?ServerContext\b/.test(method.params?.text ?? '')) continue;
        file.facts.addContract({
          kind: 'grpc_server',
          service,
          method: method.name,
          symbol: method.symbol,
          line: method.line,
          confidence: 'exact',
          via: 'X::Service',
        });
      }
    }
    for (const field of cls.fields) {
      const service = stubService(field.type.text);
      if (service === undefined || isHealthService(service)) continue;
      let fields = file.stubFields.get(cls.qualifiedName);
      if (fields === undefined) file.stubFields.set(cls.qualifiedName, (fields = new Map()));
      fields.set(field.name, service);
      file.facts.addContract({
        kind: 'grpc_client',
        service,
        symbol: cls.symbol,
        line: startLineOf(field.node),
        confidence: 'exact',
        via: 'X::Stub member',
      });
    }
  }
  // A file never naming `Stub` holds no stub: its function bodies need no walk.
  if (!/\bNewStub\b|::Stub\b/.test(file.source)) return;
  for (const walk of walks) {
    const scope: Scope = { file, symbol: walk.symbol, owner: walk.owner, locals: new Map() };
    // One native query in pre-order (declarations before their uses) instead of visiting every node.
    for (const node of walk.node.descendantsOfType(['declaration', 'call_expression'])) {
      if (node?.type === 'declaration') bindDeclaration(node, scope);
      else if (node !== null) onCall(node, scope);
    }
  }
}

function bindDeclaration(node: Node, scope: Scope): void {
  const typed = stubService(node.childForFieldName('type')?.text ?? '');
  for (const declarator of node.childrenForFieldName('declarator')) {
    if (declarator === null) continue;
    const name = (
      declarator.type === 'init_declarator' ? declarator.childForFieldName('declarator') : declarator
    )?.text;
    const value = declarator.type === 'init_declarator' ? declarator.childForFieldName('value') : null;
    const service = typed ?? (value?.type === 'call_expression' ? newStubService(value) : undefined);
    if (name !== undefined && service !== undefined) scope.locals.set(name.replace(/^[*&\s]+/, ''), service);
  }
}

function newStubService(call: Node): string | undefined {
  const fn = call.childForFieldName('function');
  const text = fn?.type === 'qualified_identifier' ? fn.text.replace(/\s+/g, '') : '';
  const match = /^(?:::)?((?:\w+::)*\w+)::NewStub$/.exec(text);
  return match?.[1] === undefined ? undefined : dotted(match[1]);
}

function stubOf(node: Node, scope: Scope): { service: string; exact: boolean } | undefined {
  if (node.type === 'identifier' || node.type === 'field_identifier') {
    const local = scope.locals.get(node.text);
    if (local !== undefined) return { service: local, exact: true };
    const member =
      scope.owner === undefined ? undefined : scope.file.stubFields.get(scope.owner)?.get(node.text);
    if (member !== undefined) return { service: member, exact: true };
    for (const fields of scope.file.stubFields.values()) {
      const guess = fields.get(node.text);
      if (guess !== undefined) return { service: guess, exact: false };
    }
    return undefined;
  }
  if (node.type === 'field_expression') {
    const argument = node.childForFieldName('argument');
    const field = node.childForFieldName('field');
    // `this->stub_` is the member; `stub_->async()` (the callback API) is the stub itself.
    if (argument?.type === 'this' && field !== null) return stubOf(field, scope);
    return undefined;
  }
  if (node.type === 'call_expression') {
    const fn = node.childForFieldName('function');
    const argument = fn?.type === 'field_expression' ? fn.childForFieldName('argument') : null;
    const name = fn?.type === 'field_expression' ? fn.childForFieldName('field')?.text : undefined;
    if (argument !== null && (name === 'async' || name === 'experimental_async'))
      return stubOf(argument, scope);
    if (argument !== null && name === 'get') return stubOf(argument, scope);
    const created = newStubService(node);
    return created === undefined ? undefined : { service: created, exact: true };
  }
  if (node.type === 'parenthesized_expression' || node.type === 'pointer_expression') {
    const inner = node.childForFieldName('argument') ?? node.namedChild(0);
    return inner === null ? undefined : stubOf(inner, scope);
  }
  return undefined;
}

function onCall(call: Node, scope: Scope): void {
  const fn = call.childForFieldName('function');
  if (fn === null) return;
  const created = newStubService(call);
  if (created !== undefined) {
    if (!isHealthService(created)) {
      const line = startLineOf(fn.childForFieldName('name') ?? fn);
      scope.file.facts.addContract({
        kind: 'grpc_client',
        service: created,
        symbol: scope.symbol,
        line,
        confidence: 'exact',
        via: 'X::NewStub',
      });
    }
    return;
  }
  if (fn.type !== 'field_expression') return;
  const argument = fn.childForFieldName('argument');
  const field = fn.childForFieldName('field');
  // Generated RPC methods keep the proto's PascalCase names; `stub_.reset()` is the smart pointer's.
  if (argument === null || field === null || !/^[A-Z]/.test(field.text)) return;
  const stub = stubOf(argument, scope);
  if (stub === undefined || isHealthService(stub.service)) return;
  scope.file.facts.addContract({
    kind: 'grpc_client',
    service: stub.service,
    // The generated async variants of `M` are `AsyncM`/`PrepareAsyncM`: the RPC is `M`.
    method: field.text.replace(/^(PrepareAsync|Async)(?=[A-Z])/, ''),
    symbol: scope.symbol,
    line: startLineOf(field),
    confidence: stub.exact ? 'exact' : 'heuristic',
    via: 'X::Stub call',
  });
}
