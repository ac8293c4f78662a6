/**
 * The state one TypeScript/JavaScript file's walk builds: declarations, bindings, and contract evidence
 * waiting for the end of the walk to be resolved (a field's type or a constant may be declared below the
 * call that uses it).
 */
import type { FactBuilder } from '../shared/fact-builder.js';
import type { ContractFact } from '../../facts.js';
import type { Val } from './values.js';
import type { ValueTables } from './resolve-values.js';

/** What a variable, field or expression is known to hold. */
export type Holder =
  /** A gRPC client stub; `service` from a string argument, else `typeName` (`PaymentServiceClient`). */
  | {
      readonly t: 'grpc';
      readonly service?: Val;
      readonly typeName?: string;
      readonly via: string;
      /** `new XClient(…)`: only a stub when `XClient` is bound by an import. */
      readonly imported?: string;
      readonly argc?: number;
      /** Known only from a field's name (`paymentServiceClient`). */
      readonly nameOnly?: boolean;
    }
  /** `new pkg.shop.v1.PaymentService(…)` where `pkg` may hold a `loadPackageDefinition` result. */
  | { readonly t: 'grpcNew'; readonly root: Ref; readonly rest: readonly string[] }
  /**
   * A `loadPackageDefinition` (or legacy `grpc.load`) result, `path` the members taken from it. `lib` is the
   * identifier `load` was called on (must be imported from grpc); `loader` a same-file function whose call
   * gave it (must return such a result, see {@link FileState.pkgLoaders}).
   */
  | {
      readonly t: 'grpcPkg';
      readonly path: readonly string[];
      readonly via: string;
      readonly lib?: string;
      readonly loader?: string;
    }
  /** NestJS ClientProxy / ClientKafka. */
  | { readonly t: 'proxy' }
  /** A BullMQ queue; `imported` names the class that must come from bullmq/bull. */
  | { readonly t: 'queue'; readonly name: Val; readonly imported?: string }
  /**
   * An HTTP client: a library by key (see http-clients.ts, from a declared type), or an instance made by
   * `factory` with `options` on the binding `module` (`axios.create({ baseURL })`) or on the instance
   * `parent` (`api.extend(…)`); which library and which option is the base is known once the imports are.
   */
  | {
      readonly t: 'http';
      readonly lib?: string;
      readonly module?: string;
      readonly parent?: Holder;
      readonly factory?: string;
      readonly options?: Val;
    }
  /** An HTTP router; `via` empty when the framework follows from the imports (of `ctor`, else of the file). */
  | { readonly t: 'router'; readonly via: string; readonly prefix?: Val; readonly ctor?: string }
  /** `const stub = this.payments`: whatever the referenced binding holds. */
  | { readonly t: 'alias'; readonly ref: Ref };

/** A service-level gRPC stub waiting for the end of the walk: does the file invoke it, or hand it on? */
export interface StubRecord {
  readonly fact: Extract<ContractFact, { kind: 'grpc_client' }>;
  /** The name it is bound to (`const client = new XClient(…)`), handed on when exported or passed. */
  readonly binding?: string;
  readonly escapes: boolean;
}

/** Where a receiver's holder is looked up once the walk is complete. */
export type Ref =
  | { readonly r: 'this'; readonly cls: number; readonly field: string }
  | { readonly r: 'var'; readonly name: string }
  | { readonly r: 'holder'; readonly holder: Holder };

export interface Entry {
  readonly val?: Val;
  readonly holder?: Holder;
  /** The declared or constructed type (`repo: Repo`, `new Repo()`), as a call's receiver type. */
  readonly type?: string;
}

export interface FieldRec {
  /** From the declared type (`PaymentServiceClient`, `ClientProxy`, `@InjectQueue('x') Queue`). */
  typed?: Holder;
  /** From an initialiser or a `this.f = …` assignment; wins over `typed`. */
  assigned?: Holder;
  /** A constant initialiser (`private readonly topic = 'orders'`). */
  val?: Val;
  /** The declared or constructed type (`repo: Repo`, `= new Repo()`), as a call's receiver type. */
  type?: string;
  readonly line: number;
  readonly symbol: number;
}

export interface ClassState {
  readonly name: string;
  readonly symbol: number;
  readonly line: number;
  readonly extendsName?: string;
  readonly fields: Map<string, FieldRec>;
  /** NestJS `@Controller` path prefixes; undefined when the class is not a controller. */
  controllerPrefixes?: readonly Val[];
}

export interface ImportBinding {
  readonly source: string;
  /** The exported name (`default`, `*` or the named export). */
  readonly imported: string;
}

/** Shared between the walker (which fills it) and the contract rules (which read it at the end). */
export interface FileState {
  readonly path: string;
  readonly classes: ClassState[];
  readonly classByName: Map<string, number>;
  readonly moduleVars: Map<string, Entry>;
  readonly importBindings: Map<string, ImportBinding>;
  readonly consts: Map<string, Val>;
  readonly enums: Map<string, Map<string, Val | undefined>>;
  readonly tables: ValueTables;
  /** Same-file functions that return a gRPC package (`return grpc.loadPackageDefinition(def)`), by name. */
  readonly pkgLoaders: Map<string, { readonly via: string; readonly lib?: string }>;
  /**
   * A declared symbol by qualified name (`main`, `Server.handle`), or by name among the members of symbol
   * `parent`; complete only after the walk.
   */
  readonly symbolAt: (
    name: string,
    parent?: number,
  ) => { readonly id: number; readonly line: number } | undefined;
  /** Service-level gRPC stubs, emitted once every call of the file is known (see grpc-stubs.ts). */
  readonly stubs: StubRecord[];
  /** gRPC services the file invokes a method of. */
  readonly calledServices: Set<string>;
  /** Names passed as call arguments: a stub bound to one is handed on. */
  readonly handedOn: Set<string>;
  /** Run after the walk, in source order; each pushes zero or more facts. */
  readonly pending: ((out: FactBuilder) => void)[];
  /** Routers of this file mounted by another of its routers (`app.use('/api', router)`), see mounts.ts. */
  readonly routerMounts: Map<Holder, { readonly prefix: string; readonly by: Holder | undefined }[]>;
  /** What the walk knew at each member call, by call node id, for the call facts (see call-types.ts). */
  readonly callNotes: Map<number, CallNote>;
}

/**
 * A call's scope, seen by the walk: the type of the local the receiver names (`null`: a local of unknown
 * type, which hides any import or module variable of that name; for a bare call, the callee is a local),
 * or the class a `this.`/`super.` call sits in.
 */
export interface CallNote {
  readonly local?: string | null;
  readonly cls?: number;
}

/** A decorator as written, with its arguments read when its name is one extraction cares about. */
export interface DecoratorInfo {
  readonly name: string;
  readonly text: string;
  readonly args: readonly Val[];
  readonly line: number;
}

const GRPC_LIBS = new Set(['grpc', '@grpc/grpc-js']);

/** True when `name` is bound by an import of grpc (`const grpc = require('@grpc/grpc-js')`). */
export function isGrpcImport(state: FileState, name: string): boolean {
  return GRPC_LIBS.has(state.importBindings.get(name)?.source ?? '');
}

/** A package that may turn out not to be one (see `liveHolder`): it must not replace a known holder. */
export function isConditional(holder: Holder): boolean {
  return holder.t === 'grpcPkg' && (holder.loader !== undefined || holder.lib !== undefined);
}

/**
 * The holder, or undefined when it is a package whose origin did not check out: `yaml.load(x)` is not
 * `grpc.load(x)`, and `build(x).shop` is a package only when `build` returns one.
 */
export function liveHolder(state: FileState, holder: Holder | undefined): Holder | undefined {
  if (holder?.t !== 'grpcPkg') return holder;
  const loader = holder.loader === undefined ? undefined : state.pkgLoaders.get(holder.loader);
  if (holder.loader !== undefined && loader === undefined) return undefined;
  const lib = holder.lib ?? loader?.lib;
  return lib === undefined || isGrpcImport(state, lib) ? holder : undefined;
}

/** The holder behind a receiver reference: a local/module binding, or a field of the class or its same-file bases. */
export function resolveRef(state: FileState, ref: Ref | undefined, depth = 0): Holder | undefined {
  const holder = liveHolder(state, resolveOnce(state, ref));
  return holder?.t === 'alias' ? (depth < 8 ? resolveRef(state, holder.ref, depth + 1) : undefined) : holder;
}

function resolveOnce(state: FileState, ref: Ref | undefined): Holder | undefined {
  if (ref === undefined) return undefined;
  if (ref.r === 'holder') return ref.holder;
  if (ref.r === 'var') return state.moduleVars.get(ref.name)?.holder;
  const seen = new Set<number>();
  let cls: ClassState | undefined = state.classes[ref.cls];
  while (cls !== undefined && !seen.has(cls.symbol)) {
    seen.add(cls.symbol);
    const field = cls.fields.get(ref.field);
    const holder = liveHolder(state, field?.assigned) ?? field?.typed;
    if (holder !== undefined) return holder;
    const base: number | undefined =
      cls.extendsName === undefined ? undefined : state.classByName.get(cls.extendsName);
    cls = base === undefined ? undefined : state.classes[base];
  }
  // Untyped JavaScript: a field named `paymentServiceClient` only suggests a stub.
  return /^\w+ServiceClient$/i.test(ref.field)
    ? { t: 'grpc', typeName: ref.field, via: 'field name', nameOnly: true }
    : undefined;
}
