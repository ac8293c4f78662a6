/**
 * gRPC client stubs of a TypeScript/JavaScript file: a method invoked on a stub is a call; a stub that is
 * only constructed (or injected) and never seen invoking a method is reported with `constructedOnly`, which
 * the graph never turns into an edge. A stub handed on (returned, exported, passed to a function, put in an
 * object) may be invoked elsewhere, so it stays a service-level client.
 */
import type { Node } from 'web-tree-sitter';
import type { FactBuilder } from '../shared/fact-builder.js';
import { args, grpcTarget, receiverRef, type Site } from './holders.js';
import { liveHolder, resolveRef, type FileState, type Holder } from './model.js';
import { unwrap } from './values.js';

/** Methods of a generated stub that are plumbing, not RPCs. */
const STUB_PLUMBING = new Set([
  'close',
  'getChannel',
  'waitForReady',
  'makeUnaryRequest',
  'makeClientStreamRequest',
  'makeServerStreamRequest',
  'makeBidiStreamRequest',
  'then',
  'catch',
  'bind',
  'call',
  'apply',
  'toString',
]);
/** Expression wrappers that do not change where a value goes. */
const WRAPPERS = new Set([
  'parenthesized_expression',
  'as_expression',
  'satisfies_expression',
  'non_null_expression',
  'await_expression',
]);
/** Places where a value stays in this file: bound to a name, a field, or dropped. */
const KEPT = new Set(['expression_statement', 'public_field_definition', 'member_expression']);
/** Calls that take a stub's method as a value: `promisify(client.getCart)`. */
const METHOD_TAKERS = new Set(['promisify', 'util.promisify']);

function symbolOf(site: Site): { symbol?: number } {
  return site.symbol === undefined ? {} : { symbol: site.symbol };
}

/** Where a constructed stub goes: handed on, or bound to a name (whose use is checked at the end). */
function stubUse(node: Node): { readonly escapes: boolean; readonly binding?: string } {
  let up = node.parent;
  while (up !== null && WRAPPERS.has(up.type)) up = up.parent;
  if (up === null || KEPT.has(up.type)) return { escapes: false };
  if (up.type === 'variable_declarator') {
    const name = up.childForFieldName('name');
    const exported = up.parent?.parent?.type === 'export_statement';
    if (name?.type !== 'identifier') return { escapes: true };
    return { escapes: exported, binding: name.text };
  }
  if (up.type === 'assignment_expression') {
    const left = up.childForFieldName('left');
    if (left?.type === 'identifier') return { escapes: false, binding: left.text };
    const target = left?.text.replace(/\s+/g, '') ?? '';
    return { escapes: !target.startsWith('this.') || target.split('.').length > 2 };
  }
  // Returned, passed, exported, put in an object or array: it may be invoked elsewhere.
  return { escapes: true };
}

/** A stub constructed (`new XClient`, `getService`, `createClient`): recorded, emitted at the end. */
export function noteStub(state: FileState, holder: Holder | undefined, node: Node, site: Site): void {
  if (holder?.t !== 'grpc' && holder?.t !== 'grpcNew') return;
  const use = stubUse(node);
  state.pending.push(() => {
    const target = grpcTarget(state, holder);
    if (target === undefined) return;
    state.stubs.push({
      fact: {
        kind: 'grpc_client',
        service: target.service,
        ...symbolOf(site),
        line: site.line,
        confidence: target.exact ? 'exact' : 'heuristic',
        via: target.via,
      },
      ...(use.binding === undefined ? {} : { binding: use.binding }),
      escapes: use.escapes,
    });
  });
}

/** `stub.method(…)` (or the method taken as a value): a call of that method; false when no stub. */
export function emitStubCall(
  state: FileState,
  out: FactBuilder,
  holder: Holder | undefined,
  method: string,
  site: Site,
): boolean {
  if (holder?.t !== 'grpc' && holder?.t !== 'grpcNew') return false;
  const target = STUB_PLUMBING.has(method) ? undefined : grpcTarget(state, holder);
  if (target === undefined) return true;
  const exact = target.exact && !(holder.t === 'grpc' && holder.nameOnly === true);
  state.calledServices.add(target.service);
  out.addContract({
    kind: 'grpc_client',
    service: target.service,
    method,
    ...symbolOf(site),
    line: site.line,
    confidence: exact ? 'exact' : 'heuristic',
    via: target.via,
  });
  return true;
}

/** `recv.m` as a value: its receiver and method name. */
function methodRef(
  node: Node,
  site: Site,
): { readonly method: string; readonly receiver: ReturnType<typeof receiverRef> } | undefined {
  const n = unwrap(node);
  if (n.type !== 'member_expression') return undefined;
  const object = n.childForFieldName('object');
  const method = n.childForFieldName('property')?.text;
  if (object === null || method === undefined) return undefined;
  const receiver = receiverRef(object, site);
  return receiver === undefined ? undefined : { method, receiver };
}

/**
 * A stub's method taken as a value is invoked too: `promisify(client.getCart)`,
 * `client.getCart.bind(client)`. Names passed as arguments are noted as handed on.
 */
export function noteStubUses(state: FileState, call: Node, callee: Node, site: Site): void {
  const list = args(call);
  for (const arg of list) {
    const a = unwrap(arg);
    if (a.type === 'identifier' && site.locals(a.text) === undefined) state.handedOn.add(a.text);
  }
  const refs: Node[] = [];
  if (METHOD_TAKERS.has(callee.text)) refs.push(...list);
  const property =
    callee.type === 'member_expression' ? callee.childForFieldName('property')?.text : undefined;
  const object = callee.type === 'member_expression' ? callee.childForFieldName('object') : null;
  if (object !== null && (property === 'bind' || property === 'call' || property === 'apply'))
    refs.push(object);
  for (const node of refs) {
    const ref = methodRef(node, site);
    if (ref === undefined) continue;
    state.pending.push((out) => {
      emitStubCall(state, out, resolveRef(state, ref.receiver), ref.method, site);
    });
  }
}

/**
 * The service-level stubs, after every call is known: a stub whose service the file never invokes and
 * that is not handed on is constructed only. Injected typed fields never assigned here count as stubs.
 */
export function finishStubs(state: FileState, out: FactBuilder, exportedNames: ReadonlySet<string>): void {
  for (const cls of state.classes) {
    for (const field of cls.fields.values()) {
      if (liveHolder(state, field.assigned) !== undefined || field.typed?.t !== 'grpc') continue;
      const target = grpcTarget(state, field.typed);
      if (target === undefined) continue;
      state.stubs.push({
        fact: {
          kind: 'grpc_client',
          service: target.service,
          symbol: field.symbol,
          line: field.line,
          confidence: target.exact ? 'exact' : 'heuristic',
          via: target.via,
        },
        escapes: false,
      });
    }
  }
  for (const stub of state.stubs) {
    const handedOn =
      stub.escapes ||
      (stub.binding !== undefined && (exportedNames.has(stub.binding) || state.handedOn.has(stub.binding)));
    const constructedOnly = !handedOn && !state.calledServices.has(stub.fact.service);
    const { kind, service, ...rest } = stub.fact;
    out.addContract(constructedOnly ? { kind, service, constructedOnly: true, ...rest } : stub.fact);
  }
}
