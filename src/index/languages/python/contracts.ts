/**
 * What a Python call or decorator means as a contract: which constructors build a gRPC stub, a Kafka
 * client, an HTTP client, a web router or a Celery app, and which method calls on them produce, consume or
 * call something. The walk in `python.ts` supplies where names come from (imports) and what a receiver
 * holds; this file only decides.
 */
import type { Node } from 'web-tree-sitter';
import type { Confidence } from '../../facts.js';
import { callArguments, dotted, literalString, resolveParts, type Parts, type ValueScope } from './values.js';
import {
  DAPR_CLIENT,
  HTTP_VERBS,
  PY_HTTP_LIBRARIES,
  REQUEST_SHAPES,
  type ArgumentSlot,
  type RequestShape,
} from './http-clients.js';
import { DAPR_APP } from './dapr-app.js';
import { DAPR_SUBSCRIPTIONS } from './brokers.js';
import { isHealthService } from '../shared/grpc-health.js';
import { joinHttpPath, literalOf } from '../shared/tree-utils.js';

export type KafkaLib = 'confluent_kafka' | 'aiokafka' | 'kafka-python';

/** What a name or attribute is known to hold. */
export type Binding =
  | { readonly kind: 'stub'; readonly service: string; readonly confidence: Confidence }
  | { readonly kind: 'producer'; readonly lib: KafkaLib }
  | { readonly kind: 'consumer'; readonly lib: KafkaLib }
  | { readonly kind: 'http'; readonly lib: string; readonly base?: Parts }
  | { readonly kind: 'dapr' }
  /**
   * Dapr's callback server (`dapr.ext.grpc.App`, `dapr.ext.fastapi.DaprApp`): its `@app.method(…)`
   * handlers are routes, its `@app.subscribe(…)` handlers consumers.
   */
  | { readonly kind: 'dapr_app' }
  | { readonly kind: 'router'; readonly framework: 'flask' | 'fastapi' | 'aiohttp'; readonly prefix: string }
  | { readonly kind: 'celery' };

/** Where a (possibly dotted) name comes from: the module it was imported from and its original name. */
export interface Origin {
  readonly module?: string;
  readonly name: string;
  /** Written with a module qualifier (`pb2_grpc.XStub`) rather than as a bare imported name. */
  readonly qualified: boolean;
}

/** Resolves the first segment of a dotted name through the file's imports. */
export type OriginOf = (path: string) => Origin;

const PRODUCERS: Readonly<Record<KafkaLib, readonly string[]>> = {
  confluent_kafka: ['Producer', 'SerializingProducer', 'AvroProducer'],
  aiokafka: ['AIOKafkaProducer'],
  'kafka-python': ['KafkaProducer'],
};
const CONSUMERS: Readonly<Record<KafkaLib, readonly string[]>> = {
  confluent_kafka: ['Consumer', 'DeserializingConsumer', 'AvroConsumer'],
  aiokafka: ['AIOKafkaConsumer'],
  'kafka-python': ['KafkaConsumer'],
};

function inModule(origin: Origin, root: string): boolean {
  return origin.module !== undefined && (origin.module === root || origin.module.startsWith(`${root}.`));
}

function kafkaLib(origin: Origin): KafkaLib | undefined {
  if (inModule(origin, 'confluent_kafka')) return 'confluent_kafka';
  if (inModule(origin, 'aiokafka')) return 'aiokafka';
  if (inModule(origin, 'kafka')) return 'kafka-python';
  return undefined;
}

/**
 * The binding a constructor call (or a type annotation, without arguments) creates, or undefined when the
 * callee is nothing we track.
 */
export function classifyCallee(origin: Origin, args: Node | null, scope: ValueScope): Binding | undefined {
  const { name } = origin;
  if (name.length > 4 && name.endsWith('Stub')) {
    const service = name.slice(0, -4);
    if (isHealthService(service, origin.module) || origin.module === undefined) return undefined;
    if (origin.module.endsWith('_pb2_grpc')) return { kind: 'stub', service, confidence: 'exact' };
    // A bare name imported from a module that re-exports generated stubs: the name is the only evidence.
    return origin.qualified ? undefined : { kind: 'stub', service, confidence: 'heuristic' };
  }
  const lib = kafkaLib(origin);
  if (lib !== undefined) {
    if (PRODUCERS[lib].includes(name)) return { kind: 'producer', lib };
    if (CONSUMERS[lib].includes(name)) return { kind: 'consumer', lib };
    return undefined;
  }
  // Argument lists are read only for the few constructors that take a base or a prefix: most calls are none.
  // aiohttp's `web.RouteTableDef()`: `@routes.get("/x")` declares a route.
  if (inModule(origin, 'aiohttp') && name === 'RouteTableDef')
    return { kind: 'router', framework: 'aiohttp', prefix: '' };
  const http = PY_HTTP_LIBRARIES.find((library) => inModule(origin, library.module));
  if (http !== undefined) {
    if (!http.clients.includes(name)) return undefined;
    const { positional, keywords } = callArguments(args);
    const node = http.base === undefined ? undefined : slotArgument(http.base, positional, keywords);
    const binding: Binding = { kind: 'http', lib: http.lib };
    return node === undefined ? binding : { ...binding, base: resolveParts(node, scope) };
  }
  if (inModule(origin, DAPR_CLIENT.module) && DAPR_CLIENT.clients.some((client) => client === name))
    return { kind: 'dapr' };
  if (inModule(origin, DAPR_APP.module) && DAPR_APP.servers.some((server) => server === name))
    return { kind: 'dapr_app' };
  if (
    DAPR_SUBSCRIPTIONS.apps.some((app) => inModule(origin, app.module) && app.classes.some((c) => c === name))
  )
    return { kind: 'dapr_app' };
  if (!['flask', 'fastapi', 'celery'].some((root) => inModule(origin, root))) return undefined;
  const { keywords } = callArguments(args);
  if (inModule(origin, 'flask') && (name === 'Flask' || name === 'Blueprint')) {
    return { kind: 'router', framework: 'flask', prefix: literalString(keywords.get('url_prefix')) ?? '' };
  }
  if (inModule(origin, 'fastapi') && (name === 'FastAPI' || name === 'APIRouter')) {
    return { kind: 'router', framework: 'fastapi', prefix: literalString(keywords.get('prefix')) ?? '' };
  }
  if (inModule(origin, 'celery') && name === 'Celery') return { kind: 'celery' };
  return undefined;
}

/** The consumer topics a Kafka consumer constructor names positionally (aiokafka, kafka-python). */
export function constructorTopics(binding: Binding, args: Node | null): readonly Node[] {
  if (binding.kind !== 'consumer' || binding.lib === 'confluent_kafka') return [];
  return callArguments(args).positional;
}

/** The argument a slot names: its keyword when given, else its position. */
export function slotArgument(
  slot: ArgumentSlot,
  positional: readonly Node[],
  keywords: ReadonlyMap<string, Node>,
): Node | undefined {
  const byKeyword = slot.keyword === undefined ? undefined : keywords.get(slot.keyword);
  return byKeyword ?? (slot.position === undefined ? undefined : positional[slot.position]);
}

/** A request described by `shape` in a call's arguments: its method and URL; undefined when either is unknown. */
export function requestOf(
  shape: RequestShape,
  args: Node | null,
): { readonly verb: string; readonly url: Node } | undefined {
  const { positional, keywords } = callArguments(args);
  const url = slotArgument(shape.url, positional, keywords);
  if (url === undefined) return undefined;
  if (shape.verb !== undefined) return { verb: shape.verb, url };
  const methodNode =
    shape.method === undefined ? undefined : slotArgument(shape.method, positional, keywords);
  const written = literalString(methodNode)?.toUpperCase();
  if (written !== undefined) return /^[A-Z]+$/.test(written) ? { verb: written, url } : undefined;
  // A method the code computes (`requests.request(method, url)` in a wrapper) may be any of them.
  if (methodNode !== undefined) return { verb: 'ANY', url };
  const body = shape.body === undefined ? undefined : slotArgument(shape.body, positional, keywords);
  return { verb: body === undefined || body.type === 'none' ? 'GET' : 'POST', url };
}

/** A call on an HTTP client or module: its method and URL argument; undefined when it is no request. */
export function httpRequest(
  method: string,
  args: Node | null,
): { readonly verb: string; readonly url: Node } | undefined {
  const shape = REQUEST_SHAPES.get(method);
  return shape === undefined || method === 'urlopen' ? undefined : requestOf(shape, args);
}

const PRODUCE_METHODS: Readonly<Record<KafkaLib, readonly string[]>> = {
  confluent_kafka: ['produce'],
  aiokafka: ['send', 'send_and_wait'],
  'kafka-python': ['send'],
};

/** Whether `method` publishes on a producer of `lib` (`send` alone is too common a name to trust elsewhere). */
export function isProduceMethod(lib: KafkaLib, method: string): boolean {
  return PRODUCE_METHODS[lib].includes(method);
}

/** The topic argument of a produce call (`produce("t", …)`, `send(topic="t")`, `send_task(name="t")`). */
export function topicArgument(args: Node | null): Node | undefined {
  const { positional, keywords } = callArguments(args);
  return positional[0] ?? keywords.get('topic') ?? keywords.get('name');
}

/** The topic expressions of `subscribe([...])` / `subscribe(topics=[...])`. */
export function subscribedTopics(args: Node | null): readonly Node[] {
  const { positional, keywords } = callArguments(args);
  const list = positional[0] ?? keywords.get('topics');
  if (list === undefined) return [];
  if (list.type === 'list' || list.type === 'tuple' || list.type === 'set') {
    return list.namedChildren.filter((item): item is Node => item !== null && item.type !== 'comment');
  }
  return [list];
}

const ROUTE_VERBS = new Set([...HTTP_VERBS, 'route', 'api_route']);
const CONVENTIONAL_ROUTERS = /^(app|api|router|bp|blueprint)$|_(router|bp|blueprint|api)$/;

export interface RouteDecl {
  readonly methods: readonly string[];
  readonly path: string;
  readonly via: string;
}

/**
 * A route from a decorator such as `@app.get("/x")`, `@bp.route("/x", methods=[...])` or
 * `@router.api_route("/x", methods=[...])`. `receiver` is what the decorated object is known to hold.
 */
export function routeFromDecorator(
  call: Node,
  receiver: Binding | undefined,
  values?: ValueScope,
): RouteDecl | undefined {
  const callee = call.childForFieldName('function');
  if (callee?.type !== 'attribute') return undefined;
  const method = callee.childForFieldName('attribute')?.text ?? '';
  const objectName = dotted(callee.childForFieldName('object'));
  if (!ROUTE_VERBS.has(method) || objectName === undefined) return undefined;
  const { positional, keywords } = callArguments(call.childForFieldName('arguments'));
  const pathNode = positional[0] ?? keywords.get('rule') ?? keywords.get('path');
  const raw =
    literalString(pathNode) ?? (pathNode && values ? literalOf(resolveParts(pathNode, values)) : undefined);
  if (raw === undefined) return undefined;
  const router = receiver?.kind === 'router' ? receiver : undefined;
  // aiohttp's `@routes.route("GET", "/x")` puts the method first: not Flask's shape.
  if (router?.framework === 'aiohttp' && method === 'route') return undefined;
  if (router === undefined) {
    // Unproven receivers: `.route("/…")` is Flask's own shape; a verb needs a router-like name too.
    const last = objectName.slice(objectName.lastIndexOf('.') + 1);
    if (!raw.startsWith('/') || (method !== 'route' && !CONVENTIONAL_ROUTERS.test(last))) return undefined;
  }
  let methods: string[];
  if (method === 'route' || method === 'api_route') {
    const list = keywords.get('methods');
    const named = list?.namedChildren.map((item) => (item === null ? undefined : literalString(item))) ?? [];
    methods = named.filter((item): item is string => item !== undefined).map((item) => item.toUpperCase());
    if (methods.length === 0) methods = list === undefined ? ['GET'] : [];
  } else {
    methods = [method.toUpperCase()];
  }
  const framework = router?.framework ?? (method === 'route' ? 'flask' : 'python');
  return { methods, path: joinHttpPath(router?.prefix ?? '', raw), via: `${framework} @${method}` };
}
