/**
 * Python call sites: clients and consumers built by a call, `add_*Servicer_to_server`, requests/httpx calls,
 * Django `path()`, route decorators called as functions, and calls on a receiver. A receiver call
 * (`self.stub.ReserveStock(…)`) is kept until the walk ends, because `self.stub` may be bound in `__init__`
 * below the method that uses it.
 */
import type { Node } from 'web-tree-sitter';
import {
  classifyCallee,
  constructorTopics,
  requestOf,
  routeFromDecorator,
  type Binding,
  type Origin,
} from './contracts.js';
import { djangoRoute } from './decorators.js';
import { daprAppIdHeader, httpCallFact, urlText, withAppId } from './http-calls.js';
import { PY_HTTP_LIBRARIES, REQUEST_SHAPES, URLLIB_REQUEST } from './http-clients.js';
import { receiverCall, receiverCallFacts, type ReceiverCall } from './receivers.js';
import { routeFunctionFacts, routerMethodFacts } from './routes.js';
import { mountFacts, tornadoRoutes } from './mounts.js';
import { lookupBinding, receiverKey, type Frame, type PyScope } from './scope.js';
import { callArguments, dotted, resolveParts } from './values.js';
import type { FactBuilder } from '../shared/fact-builder.js';
import { isHealthService } from '../shared/grpc-health.js';
import { startLineOf, topicOf } from '../shared/tree-utils.js';

const SERVICER_ADD = /^add_(\w+)Servicer_to_server$/;

export class PythonCallSites {
  private readonly pending: ReceiverCall[] = [];
  /** Same-file Celery tasks by function name → queue name, for `.delay()` producers. */
  private readonly tasks = new Map<string, string>();

  constructor(
    private readonly scope: PyScope,
    /** Where contract facts go, each owned by the symbol enclosing its site when there is one. */
    private readonly facts: FactBuilder,
  ) {}

  /** A module-level Celery task, so that `name.delay()` in this file produces to its queue. */
  registerTask(name: string, queue: string): void {
    this.tasks.set(name, queue);
  }

  /** Resolves the receiver calls kept during the walk, now that every binding of the file is known. */
  resolvePending(): void {
    for (const call of this.pending) this.resolveReceiverCall(call, lookupBinding(call.frame, call.receiver));
  }

  bindingOf(node: Node | null, frame: Frame): Binding | undefined {
    if (node === null) return undefined;
    if (node.type === 'await') return this.bindingOf(node.namedChildren[0] ?? null, frame);
    if (node.type === 'identifier') return lookupBinding(frame, node.text);
    if (node.type !== 'call') return undefined;
    const callee = dotted(node.childForFieldName('function'));
    if (callee === undefined) return undefined;
    return classifyCallee(
      this.scope.originOf(callee),
      node.childForFieldName('arguments'),
      this.scope.valueScope(frame),
    );
  }

  call(node: Node, frame: Frame, owner: number | undefined): void {
    const callee = node.childForFieldName('function');
    const args = node.childForFieldName('arguments');
    const line = startLineOf(node);
    const path = dotted(callee);
    if (path !== undefined) this.namedCall(path, args, frame, line, owner);
    if (callee?.type === 'call') this.decoratorCall(callee, args, frame, line, owner);
    else if (callee?.type === 'attribute') this.attributeCall(callee, args, frame, line, owner);
  }

  /**
   * A call of a name the file imports or defines: a stub or consumer built, `add_*Servicer_to_server`, a
   * requests/httpx call, Django's `path()`.
   */
  private namedCall(
    path: string,
    args: Node | null,
    frame: Frame,
    line: number,
    owner: number | undefined,
  ): void {
    const values = this.scope.valueScope(frame);
    const origin = this.scope.originOf(path);
    const binding = classifyCallee(origin, args, values);
    if (binding?.kind === 'stub') {
      this.facts.addContract(
        {
          kind: 'grpc_client',
          service: binding.service,
          line,
          confidence: binding.confidence,
          via: 'pb2_grpc stub',
        },
        { owner },
      );
    }
    if (binding?.kind === 'consumer') {
      for (const topicNode of constructorTopics(binding, args)) {
        const topic = topicOf(resolveParts(topicNode, values));
        if (topic !== undefined) {
          this.facts.addContract(
            {
              kind: 'topic_consumer',
              topic,
              broker: 'kafka',
              line,
              confidence: 'exact',
              via: `${binding.lib} consumer`,
            },
            { owner },
          );
        }
      }
    }
    const added = SERVICER_ADD.exec(origin.name)?.[1];
    if (added !== undefined && !isHealthService(added, origin.module)) {
      this.facts.addContract(
        { kind: 'grpc_server', service: added, line, confidence: 'exact', via: 'add_*Servicer_to_server' },
        { owner },
      );
    }
    this.moduleRequest(origin, args, frame, line, owner);
    for (const route of routeFunctionFacts(origin, args, line)) this.facts.addContract(route, { owner });
    for (const route of tornadoRoutes(origin, args, this.facts.symbols))
      this.facts.addContract(route, route.symbol === undefined ? { owner } : {});
    if (origin.module === 'django.urls' && origin.name === 'path') {
      const route = djangoRoute(args, line);
      if (route !== undefined) this.facts.addContract(route, { owner });
    }
  }

  /**
   * `x.m(…)`: on a client built in place it is read now; on a receiver (`self.stub.M(req)`) it waits for
   * the end of the walk, when every binding of the file is known.
   */
  private attributeCall(
    callee: Node,
    args: Node | null,
    frame: Frame,
    line: number,
    owner: number | undefined,
  ): void {
    const method = callee.childForFieldName('attribute')?.text ?? '';
    const object = callee.childForFieldName('object');
    const call = (receiver: string, called: string): ReceiverCall =>
      receiverCall(
        this.scope.valueScope(frame),
        frame,
        receiver,
        called,
        args,
        line,
        owner,
        this.scope.valueScope(frame, true),
      );
    if (object?.type === 'call') {
      // A client used where it is built: `httpx.AsyncClient().get(url)`, `KafkaProducer().send("t")`.
      const built = this.bindingOf(object, frame);
      if (built !== undefined) this.resolveReceiverCall(call('', method), built);
      return;
    }
    const originOf = (path: string) => this.scope.originOf(path);
    for (const mount of mountFacts(method, args, line, originOf, (name) => this.scope.isImported(name)))
      this.facts.addContract(mount, { owner });
    if (dotted(object)?.endsWith('router') === true && this.scope.importsModule('aiohttp')) {
      for (const route of routerMethodFacts(method, args, line)) this.facts.addContract(route, { owner });
    }
    // A dotted receiver counts only when the file bound it explicitly (a Locust task's `user.client`).
    const path = dotted(object);
    let key =
      receiverKey(object) ??
      (path !== undefined && lookupBinding(frame, path) !== undefined ? path : undefined);
    let called = method;
    if (
      key === undefined &&
      (method === 'future' || method === 'with_call') &&
      object?.type === 'attribute'
    ) {
      // `stub.Method.future(req)`: the RPC is the attribute before the invocation helper.
      key = receiverKey(object.childForFieldName('object'));
      called = object.childForFieldName('attribute')?.text ?? '';
    }
    if (key !== undefined && !called.startsWith('__')) this.pending.push(call(key, called));
  }

  /**
   * A route decorator called as a function: `self.app.post("/prompt")(self.handle_prompt)`,
   * `router.get("/x")(handler)` — the same registration as `@router.get("/x")` on the handler.
   */
  private decoratorCall(
    decorator: Node,
    args: Node | null,
    frame: Frame,
    line: number,
    owner: number | undefined,
  ): void {
    const { positional, keywords } = callArguments(args);
    if (positional.length !== 1 || keywords.size > 0) return;
    const object = decorator.childForFieldName('function')?.childForFieldName('object') ?? null;
    const key = receiverKey(object);
    const binding = key === undefined ? undefined : lookupBinding(frame, key);
    const route = routeFromDecorator(decorator, binding, this.scope.valueScope(frame));
    if (route === undefined) return;
    // `fastapi @post` → `fastapi post()`: the decorator was called, not applied.
    const via = `${route.via.replace('@', '')}()`;
    for (const method of route.methods) {
      this.facts.addContract({ kind: 'http_route', method, path: route.path, line, via }, { owner });
    }
  }

  private resolveReceiverCall(call: ReceiverCall, binding: Binding | undefined): void {
    for (const fact of receiverCallFacts(call, binding, this.tasks))
      this.facts.addContract(fact, { owner: call.owner });
  }

  /** A request sent by a library's module function: `requests.get(url)`, `httpx.request(m, url)`, `urlopen(…)`. */
  private moduleRequest(
    origin: Origin,
    args: Node | null,
    frame: Frame,
    line: number,
    owner: number | undefined,
  ): void {
    const library = PY_HTTP_LIBRARIES.find((lib) => lib.module === origin.module);
    if (library === undefined || !library.functions.includes(origin.name)) return;
    const shape = REQUEST_SHAPES.get(origin.name);
    let request = shape === undefined ? undefined : requestOf(shape, args);
    const built = request?.url.type === 'call' ? request.url : undefined;
    if (origin.name === 'urlopen' && built !== undefined) {
      // `urlopen(Request(url, method="PUT"))`: the request object names the URL and the method.
      const callee = dotted(built.childForFieldName('function'));
      const target = callee === undefined ? undefined : this.scope.originOf(callee);
      if (target?.module === library.module && target.name === 'Request')
        request = requestOf(URLLIB_REQUEST, built.childForFieldName('arguments'));
    }
    if (request === undefined) return;
    const values = this.scope.valueScope(frame);
    const urlValues = this.scope.valueScope(frame, true);
    const url = resolveParts(request.url, urlValues);
    const via = `${library.lib} ${origin.name}`;
    const fact = withAppId(
      httpCallFact(request.verb, url, undefined, via, line, urlText(request.url)),
      daprAppIdHeader(args, values),
    );
    const inferred = urlValues.used?.inferred === true;
    this.facts.addContract(inferred ? { ...fact, confidence: 'heuristic' } : fact, { owner });
  }
}
