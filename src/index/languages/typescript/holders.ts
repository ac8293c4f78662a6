/**
 * What a TypeScript/JavaScript binding holds: a gRPC stub, a NestJS ClientProxy, a BullMQ queue, an HTTP
 * client or a router, read from a declared type or an initialiser, and the gRPC service a stub resolves to
 * once the whole file is known.
 */
import type { Node } from 'web-tree-sitter';
import { resolveRef, type Entry, type FileState, type Holder, type Ref } from './model.js';
import { memberPath, toVal, unwrap, type Val } from './values.js';
import { resolveIdentifierLike, resolveString } from './resolve-values.js';
import { isHealthService } from '../shared/grpc-health.js';
import { HTTP_CLIENT_TYPES, HTTP_CLIENTS } from './http-clients.js';

/** Every factory method of a client library (`create`, `extend`, `defaults`). */
const HTTP_FACTORIES = new Set(
  Object.values(HTTP_CLIENTS).flatMap((lib) => Object.keys(lib.factories ?? {})),
);

/**
 * `axios.create({ baseURL })`, `got.extend({ prefixUrl })`, `api.extend(…)` on an instance: a configured
 * client whose library is checked once the imports are known. The options are kept whole; which key is
 * the base depends on the library.
 */
function httpInstance(
  receiver: string,
  factory: string,
  options: Val | undefined,
  site: Site,
): Holder | undefined {
  const local = site.locals(receiver);
  const extra = options === undefined ? {} : { options };
  if (local === undefined) return { t: 'http', module: receiver, factory, ...extra };
  return local.holder?.t === 'http' ? { t: 'http', parent: local.holder, factory, ...extra } : undefined;
}

/** Where a call sits: enclosing class index and symbol id, and the locals visible there. */
export interface Site {
  readonly cls?: number;
  readonly symbol?: number;
  readonly line: number;
  readonly locals: (name: string) => Entry | undefined;
}

const PROXY_TYPES = new Set([
  'ClientProxy',
  'ClientKafka',
  'ClientRMQ',
  'ClientRedis',
  'ClientNats',
  'ClientMqtt',
  'ClientTCP',
]);
const ROUTER_TYPES = new Set(['Express', 'Application', 'Router', 'FastifyInstance', 'Hono']);

/** The main type name of an annotation: `: Queue<Job> | undefined` → `Queue`, `: grpc.Client` → `Client`. */
export function typeName(annotation: Node | null): string | undefined {
  if (annotation === null) return undefined;
  const match = /^\s*:?\s*(?:readonly\s+)?([\w$.]+)/.exec(annotation.text);
  const name = match?.[1];
  return name === undefined ? undefined : name.slice(name.lastIndexOf('.') + 1);
}

/** What a declared type says a field/parameter holds; `injectQueue` is `@InjectQueue(name)`'s argument. */
export function holderFromType(type: string | undefined, injectQueue: Val | undefined): Holder | undefined {
  if (type === undefined) return undefined;
  if (/^\w+ServiceClient$/.test(type) && !isHealthService(type.slice(0, -'Client'.length)))
    return { t: 'grpc', typeName: type, via: 'typed field' };
  if (PROXY_TYPES.has(type)) return { t: 'proxy' };
  if (type === 'Queue' && injectQueue !== undefined) return { t: 'queue', name: injectQueue };
  const http = Object.hasOwn(HTTP_CLIENT_TYPES, type) ? HTTP_CLIENT_TYPES[type] : undefined;
  if (http !== undefined) return { t: 'http', lib: http };
  if (ROUTER_TYPES.has(type))
    return { t: 'router', via: type === 'FastifyInstance' ? 'fastify' : type === 'Hono' ? 'hono' : '' };
  return undefined;
}

export function args(call: Node): Node[] {
  const list = call.childForFieldName('arguments');
  if (list === null) return [];
  return list.namedChildren.filter((n): n is Node => n !== null && n.type !== 'comment');
}

export function prop(val: Val | undefined, name: string): Val | undefined {
  return val?.k === 'obj' ? val.props.get(name) : undefined;
}

/** What an initialiser expression holds (pure: no fact is emitted here). */
export function holderFromExpr(expr: Node, site: Site): Holder | undefined {
  const n = unwrap(expr);
  if (n.type === 'call_expression') return holderFromCall(n, site);
  if (n.type === 'identifier') {
    const local = site.locals(n.text);
    return local === undefined ? { t: 'alias', ref: { r: 'var', name: n.text } } : local.holder;
  }
  const member = n.type === 'member_expression' ? memberPath(n) : undefined;
  if (member?.length === 2 && member[0] === 'this' && site.cls !== undefined)
    return { t: 'alias', ref: { r: 'this', cls: site.cls, field: member[1] ?? '' } };
  if (n.type === 'member_expression') return holderFromPackagePath(n, site);
  if (n.type === 'new_expression') return holderFromNew(n, site);
  return undefined;
}

/** A client, router or package a call returns: `getService`, `axios.create`, `express()`, `createClient`… */
function holderFromCall(n: Node, site: Site): Holder | undefined {
  const callee = n.childForFieldName('function');
  const path = callee === null ? undefined : memberPath(callee);
  const last = path?.[path.length - 1];
  const list = args(n);
  const first = list[0];
  if (last === 'getService') {
    const typeArg = n.childForFieldName('type_arguments')?.firstNamedChild;
    return {
      t: 'grpc',
      via: 'getService',
      ...(first === undefined ? {} : { service: toVal(first, site.locals, site.cls) }),
      ...(typeArg === null || typeArg === undefined
        ? {}
        : { typeName: typeArg.text.replace(/<.*$/s, '').split('.').pop() ?? '' }),
    };
  }
  if (path?.join('.') === 'ClientProxyFactory.create') return { t: 'proxy' };
  if (path?.length === 2 && path[0] !== 'this' && last !== undefined && HTTP_FACTORIES.has(last))
    return httpInstance(
      path[0] ?? '',
      last,
      first === undefined ? undefined : toVal(first, site.locals, site.cls),
      site,
    );
  if (path !== undefined && ['express', 'express.Router', 'Router'].includes(path.join('.')))
    return { t: 'router', via: 'express' };
  if (path !== undefined && ['fastify', 'Fastify'].includes(path.join('.')))
    return { t: 'router', via: 'fastify' };
  if (
    last === 'createClient' &&
    first !== undefined &&
    first.type === 'identifier' &&
    /Definition$/.test(first.text)
  ) {
    return {
      t: 'grpc',
      via: 'createClient',
      service: { k: 'str', v: first.text.replace(/Definition$/, '') },
    };
  }
  return packageCall(n, path);
}

/** `(grpc.loadPackageDefinition(def) as any).shop.payment.v1`: a path into a loaded gRPC package. */
function holderFromPackagePath(n: Node, site: Site): Holder | undefined {
  const rest: string[] = [];
  let current: Node = n;
  while (current.type === 'member_expression') {
    rest.unshift(current.childForFieldName('property')?.text ?? '');
    const object = current.childForFieldName('object');
    if (object === null) return undefined;
    current = unwrap(object);
  }
  // `loadProto(path).shop.v1`: a same-file function call may return a package (checked after the walk).
  const inner =
    current.type === 'call_expression'
      ? packageCall(current, undefined, true)
      : holderFromExpr(current, site);
  return inner?.t === 'grpcPkg' ? { ...inner, path: [...inner.path, ...rest] } : undefined;
}

/** `new X(…)`: a BullMQ queue, a router, a generated gRPC client, or a client from a loaded package. */
function holderFromNew(n: Node, site: Site): Holder | undefined {
  const ctor = n.childForFieldName('constructor');
  const path = ctor === null ? undefined : memberPath(ctor);
  if (path === undefined) return undefined;
  const list = args(n);
  const first = list[0] === undefined ? undefined : toVal(list[0], site.locals, site.cls);
  const name = path[path.length - 1] ?? '';
  if (path.length === 1) {
    if (name === 'Queue' && first !== undefined) return { t: 'queue', name: first, imported: 'Queue' };
    if (name === 'Router' || name === 'KoaRouter') {
      const prefix = prop(first, 'prefix');
      return { t: 'router', via: '', ctor: name, ...(prefix === undefined ? {} : { prefix }) };
    }
    if (name === 'Hono') return { t: 'router', via: 'hono' };
    if (/.Client$/.test(name))
      return { t: 'grpc', typeName: name, via: `new ${name}`, imported: name, argc: list.length };
    return undefined;
  }
  const root = path[0] ?? '';
  if (root === 'this') return undefined;
  if (/.Client$/.test(name))
    return { t: 'grpc', typeName: name, via: `new ${name}`, imported: root, argc: list.length };
  const local = site.locals(root);
  const ref: Ref | undefined =
    local === undefined ? { r: 'var', name: root } : local.holder && { r: 'holder', holder: local.holder };
  return ref === undefined ? undefined : { t: 'grpcNew', root: ref, rest: path.slice(1) };
}

/**
 * A call that yields a gRPC package: `grpc.loadPackageDefinition(def)`, `grpc.load(path)` (legacy grpc, when
 * `grpc` is imported), or with `viaLoader` any `f(…)`/`this.f(…)`, valid when `f` returns a package.
 */
export function packageCall(
  call: Node,
  calleePath?: readonly string[],
  viaLoader = false,
): Extract<Holder, { t: 'grpcPkg' }> | undefined {
  const callee = call.childForFieldName('function');
  const path = calleePath ?? (callee === null ? undefined : memberPath(callee));
  const last = path?.[path.length - 1];
  if (path === undefined || last === undefined) return undefined;
  if (last === 'loadPackageDefinition') return { t: 'grpcPkg', path: [], via: 'loadPackageDefinition' };
  if (last === 'load' && path.length === 2 && path[0] !== 'this')
    return { t: 'grpcPkg', path: [], via: 'grpc.load', lib: path[0] };
  if (viaLoader && (path.length === 1 || (path.length === 2 && path[0] === 'this')))
    return { t: 'grpcPkg', path: [], via: 'loadPackageDefinition', loader: last };
  return undefined;
}

/** The receiver of `x.m(…)` as a reference resolved after the walk. */
export function receiverRef(object: Node, site: Site): Ref | undefined {
  const n = unwrap(object);
  if (n.type === 'identifier') {
    const local = site.locals(n.text);
    if (local === undefined) return { r: 'var', name: n.text };
    return local.holder === undefined ? undefined : { r: 'holder', holder: local.holder };
  }
  if (n.type === 'member_expression') {
    const path = memberPath(n);
    if (path?.length === 2 && path[0] === 'this' && site.cls !== undefined)
      return { r: 'this', cls: site.cls, field: path[1] ?? '' };
  }
  if (n.type === 'call_expression' || n.type === 'new_expression' || n.type === 'member_expression') {
    const holder = holderFromExpr(n, site);
    return holder === undefined ? undefined : { r: 'holder', holder };
  }
  return undefined;
}

interface GrpcTarget {
  readonly service: string;
  readonly exact: boolean;
  readonly via: string;
}

export function grpcTarget(state: FileState, holder: Holder | undefined): GrpcTarget | undefined {
  if (holder === undefined) return undefined;
  let target: GrpcTarget | undefined;
  if (holder.t === 'grpcNew') {
    const pkg = resolveRef(state, holder.root);
    if (pkg?.t === 'grpcPkg')
      target = {
        service: [...pkg.path, ...holder.rest].join('.'),
        exact: true,
        via: (pkg.loader === undefined ? undefined : state.pkgLoaders.get(pkg.loader)?.via) ?? pkg.via,
      };
  } else if (holder.t === 'grpc') {
    if (holder.imported !== undefined) {
      if (!state.importBindings.has(holder.imported)) return undefined;
      // A generated grpc-js/ts-proto client is built with an address and credentials.
      if (!/ServiceClient$/.test(holder.typeName ?? '') && (holder.argc ?? 0) < 2) return undefined;
    }
    // The string argument when it resolves, else the type argument (`getService<PaymentServiceClient>`),
    // else the argument's last identifier.
    const named = holder.service === undefined ? undefined : resolveString(holder.service, state.tables);
    const typed =
      holder.typeName !== undefined && /.Client$/.test(holder.typeName) ? holder.typeName : undefined;
    if (named !== undefined) target = { service: named.value, exact: named.exact, via: holder.via };
    else if (typed !== undefined) {
      const exact = holder.nameOnly !== true && /ServiceClient$/.test(typed);
      target = { service: typed.slice(0, -'Client'.length), exact, via: holder.via };
    } else if (holder.service !== undefined) {
      const last = resolveIdentifierLike(holder.service, state.tables);
      if (last !== undefined) target = { service: last.value, exact: false, via: holder.via };
    }
  }
  return target === undefined || target.service === '' || isHealthService(target.service)
    ? undefined
    : target;
}
