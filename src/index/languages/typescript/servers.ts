/**
 * grpc-js servers: `server.addService(<definition>, <implementation>)`. The definition is a
 * `loadPackageDefinition`/`grpc.load` package member (`pkg.shop.PaymentService.service`), or a generated
 * definition (`PaymentServiceService` from `*_grpc_pb` or ts-proto); the implementation's keys are the methods.
 */
import type { Node } from 'web-tree-sitter';
import type { FactBuilder } from '../shared/fact-builder.js';
import { args, grpcTarget, holderFromExpr, packageCall, type Site } from './holders.js';
import type { FileState, Holder, Ref } from './model.js';
import { memberPath, stringValue, unwrap } from './values.js';
import { isHealthService } from '../shared/grpc-health.js';

/** The definition argument as data: where it may resolve to a package member, and its name as written. */
interface Definition {
  /** `grpcNew`-shaped: a package root and the members taken from it. */
  readonly holder?: Holder;
  /** The service name as written: the identifier before `.service`, or a generated definition's service. */
  readonly name: string;
  /** The root identifier, when an import of it makes a generated definition exact. */
  readonly imported?: string;
  /** Written `<Service>Service`, the generated spelling: proof enough of gRPC when imported. */
  readonly generated?: boolean;
}

/** An implementation key and where its handler may be declared. */
interface Handler {
  readonly method: string;
  readonly line: number;
  /** Qualified name of a same-file function, or a member name of `cls` (`this.handle`). */
  readonly name?: string;
  readonly cls?: number;
}

/** Module paths of generated gRPC code: `./gen/payment_grpc_pb`, `../protos/demo`, `@shop/grpc-stubs`. */
const GENERATED_SOURCE = /grpc|proto|_pb(?:\.[cm]?[jt]s)?$|(?:^|\/)gen(?:erated)?(?:\/|$)/i;

function definition(arg: Node, site: Site): Definition | undefined {
  const n = unwrap(arg);
  const property = n.type === 'member_expression' ? n.childForFieldName('property') : null;
  if (property?.text === 'service') {
    const objectNode = n.childForFieldName('object');
    if (objectNode === null) return undefined;
    const object = unwrap(objectNode);
    const path = memberPath(object);
    const name = path?.[path.length - 1] ?? object.childForFieldName('property')?.text ?? '';
    if (path === undefined) {
      // `grpc.loadPackageDefinition(def).shop.PaymentService.service`, `loadProto(p).shop.X.service`.
      const holder = holderFromExpr(object, site);
      return holder?.t === 'grpcPkg'
        ? { holder: { t: 'grpcNew', root: { r: 'holder', holder }, rest: [] }, name }
        : { name };
    }
    const root = path[0] ?? '';
    let ref: Ref | undefined;
    let rest: readonly string[] = [];
    if (root === 'this') {
      if (path.length >= 3 && site.cls !== undefined) {
        ref = { r: 'this', cls: site.cls, field: path[1] ?? '' };
        rest = path.slice(2);
      }
    } else if (path.length >= 2) {
      const local = site.locals(root);
      ref =
        local === undefined
          ? { r: 'var', name: root }
          : local.holder && { r: 'holder', holder: local.holder };
      rest = path.slice(1);
    }
    return { ...(ref === undefined ? {} : { holder: { t: 'grpcNew', root: ref, rest } }), name };
  }
  // A generated definition: grpc-tools and ts-proto name it `<Service>Service`.
  const path = memberPath(n);
  const last = path?.[path.length - 1];
  if (path === undefined || last === undefined || path[0] === 'this' || !/Service$/.test(last))
    return undefined;
  const generated = /ServiceService$/.test(last);
  const name = generated ? last.slice(0, -'Service'.length) : last;
  return {
    name,
    ...(site.locals(path[0] ?? '') === undefined ? { imported: path[0] } : {}),
    ...(generated ? { generated } : {}),
  };
}

function handlers(arg: Node | undefined, site: Site): Handler[] {
  const n = arg === undefined ? undefined : unwrap(arg);
  if (n?.type !== 'object') return [];
  const out: Handler[] = [];
  for (const child of n.namedChildren) {
    if (child === null) continue;
    const line = child.startPosition.row + 1;
    if (child.type === 'shorthand_property_identifier') {
      out.push({
        method: child.text,
        line,
        ...(site.locals(child.text) === undefined ? { name: child.text } : {}),
      });
      continue;
    }
    const key = child.childForFieldName(child.type === 'pair' ? 'key' : 'name');
    if (key === null || (child.type !== 'pair' && child.type !== 'method_definition')) continue;
    const method =
      key.type === 'string' ? stringValue(key) : key.type === 'property_identifier' ? key.text : undefined;
    if (method === undefined || method === '') continue;
    let value = child.type === 'pair' ? child.childForFieldName('value') : null;
    // `Server.charge.bind(this)` names the same handler as `Server.charge`.
    const callee = value?.type === 'call_expression' ? value.childForFieldName('function') : null;
    if (callee?.type === 'member_expression' && callee.childForFieldName('property')?.text === 'bind')
      value = callee.childForFieldName('object');
    const path = value === null ? undefined : memberPath(unwrap(value));
    if (path?.[0] === 'this' && path.length === 2 && site.cls !== undefined)
      out.push({ method, line, name: path[1] ?? '', cls: site.cls });
    else if (path !== undefined && path[0] !== 'this' && site.locals(path[0] ?? '') === undefined)
      out.push({ method, line, name: path.join('.') });
    else out.push({ method, line });
  }
  return out;
}

/** Some import names gRPC (`@grpc/grpc-js`, `grpc`, `./gen/payment_grpc_pb`): a by-name service is plausible. */
function hasGrpcImport(state: FileState): boolean {
  for (const binding of state.importBindings.values()) if (/grpc/i.test(binding.source)) return true;
  return false;
}

/** `<server>.addService(<definition>, <implementation>)`: a service-level server and one fact per method. */
export function addServiceCall(state: FileState, node: Node, site: Site): void {
  const [first, second, ...more] = args(node);
  if (first === undefined || second === undefined || more.length > 0) return;
  const def = definition(first, site);
  if (def === undefined) return;
  const methods = handlers(second, site);
  state.pending.push((out: FactBuilder) => {
    const target = def.holder === undefined ? undefined : grpcTarget(state, def.holder);
    let service: string;
    let exact: boolean;
    if (target !== undefined) {
      service = target.service;
      exact = target.exact;
    } else if (
      def.imported !== undefined &&
      (def.generated === true ||
        GENERATED_SOURCE.test(state.importBindings.get(def.imported)?.source ?? '')) &&
      state.importBindings.has(def.imported)
    ) {
      service = def.name;
      exact = true;
    } else if (/^[A-Z]\w*$/.test(def.name) && hasGrpcImport(state)) {
      service = def.name;
      exact = false;
    } else return;
    if (isHealthService(service)) return;
    const confidence = exact ? 'exact' : 'heuristic';
    const symbol = site.symbol === undefined ? {} : { symbol: site.symbol };
    out.addContract({
      kind: 'grpc_server',
      service,
      ...symbol,
      line: site.line,
      confidence,
      via: 'addService',
    });
    for (const h of methods) {
      const cls = h.cls === undefined ? undefined : state.classes[h.cls];
      const declared =
        h.name === undefined ? undefined : state.symbolAt(h.name, cls === undefined ? undefined : cls.symbol);
      out.addContract({
        kind: 'grpc_server',
        service,
        method: h.method,
        ...(declared === undefined ? symbol : { symbol: declared.id }),
        line: declared?.line ?? h.line,
        confidence,
        via: 'addService',
      });
    }
  });
}

/**
 * `function loadProto(p) { return grpc.loadPackageDefinition(…) }`: calls of `loadProto` yield a package.
 * Only a call returned directly counts (a `return` statement or an arrow function's expression body).
 */
export function noteLoader(state: FileState, call: Node): void {
  const pkg = packageCall(call);
  if (pkg === undefined) return;
  let up = call.parent;
  while (up !== null && ['parenthesized_expression', 'as_expression', 'await_expression'].includes(up.type))
    up = up.parent;
  let fn: Node | null = null;
  if (up?.type === 'arrow_function') fn = up;
  else if (up?.type === 'return_statement') {
    fn = up.parent;
    while (fn !== null && fn.type === 'statement_block') fn = fn.parent;
  }
  if (fn === null) return;
  let nameNode: Node | null = null;
  if (fn.type === 'function_declaration' || fn.type === 'method_definition')
    nameNode = fn.childForFieldName('name');
  else if (['arrow_function', 'function_expression', 'function'].includes(fn.type)) {
    const owner = fn.parent;
    if (owner?.type === 'variable_declarator') nameNode = owner.childForFieldName('name');
    else if (owner?.type === 'pair') nameNode = owner.childForFieldName('key');
  }
  if (nameNode === null || (nameNode.type !== 'identifier' && nameNode.type !== 'property_identifier'))
    return;
  state.pkgLoaders.set(nameNode.text, { via: pkg.via, ...(pkg.lib === undefined ? {} : { lib: pkg.lib }) });
}
