/**
 * Python: declarations (classes, methods, functions, module constants with decorators and docstrings),
 * imports, and contracts — gRPC servicers and stubs, Kafka producers and consumers (confluent_kafka,
 * aiokafka, kafka-python), Celery tasks, Flask/FastAPI/Django routes and requests/httpx/aiohttp calls.
 *
 * One walk of the tree. This file reads definitions, imports and bindings; the symbols themselves are built
 * in `python-symbols.ts` and call sites are read in `python-calls.ts`, which resolves calls on a receiver
 * (`self.stub.ReserveStock(…)`) after the walk, because `self.stub` may be bound in `__init__` below the
 * method that uses it.
 */
import type { Node } from 'web-tree-sitter';
import { emptyFacts, type FileFacts } from '../../facts.js';
import type { Extractor } from '../extractor.js';
import { PythonBrokerSites } from './broker-sites.js';
import { PythonCallSites } from './calls.js';
import { pythonCalls } from './call-facts.js';
import { PyCallTypes } from './call-types.js';
import { classifyCallee, type Binding } from './contracts.js';
import { LOCUST_RUN_HOST, LOCUST_USERS } from './http-clients.js';
import { decoratorFacts } from './decorators.js';
import { enclosingClass, newFrame, PyScope, receiverKey, recordLocal, type Frame } from './scope.js';
import { constantSymbol, readDefinition } from './symbols.js';
import { dotted, resolveParts } from './values.js';
import { FactBuilder } from '../shared/fact-builder.js';
import { rewriteSidecarCalls } from '../shared/dapr.js';
import { DAPR_SUBSCRIPTIONS } from './brokers.js';
import { daprSubscriptionEntries } from './dapr-pubsub.js';
import { markUncalledStubs } from '../shared/grpc-stubs.js';
import { isHealthService } from '../shared/grpc-health.js';
import { walkSites } from '../shared/site-walk.js';
import { startLineOf } from '../shared/tree-utils.js';

const SITES: ReadonlySet<string> = new Set([
  'decorated_definition',
  'class_definition',
  'function_definition',
  'import_statement',
  'import_from_statement',
  'assignment',
  'with_item',
  'call',
]);
// Interpolations hold expressions, so only comments and plain scalars are skipped.
const LEAVES: ReadonlySet<string> = new Set([
  'comment',
  'identifier',
  'integer',
  'float',
  'true',
  'false',
  'none',
]);

class PythonExtraction {
  readonly facts = new FactBuilder('python');
  private readonly scope = new PyScope();
  private readonly calls = new PythonCallSites(this.scope, this.facts);
  /** What the call graph's facts need from the walk (call-types.ts). */
  private readonly callTypes = new PyCallTypes();
  private brokers: PythonBrokerSites | undefined;
  /** Same-file Locust user classes → what their `self.client` is (with the `host` they declare). */
  private readonly locustUsers = new Map<string, Binding>();

  constructor(private readonly root: Node) {
    this.scope.collect(root);
    // Built once the module's imports are known: a broker library counts only when the file imports it.
    this.brokers = new PythonBrokerSites(this.scope);
    const module = newFrame('module');
    this.walk(root, module, undefined);
    this.calls.resolvePending();
    for (const { fact, owner } of this.brokers.resolve()) this.facts.addContract(fact, { owner });
  }

  /** The file's facts, with its call sites. */
  build(source: string): FileFacts {
    return this.facts.build({ calls: pythonCalls(this.root, source, this.callTypes, this.facts.symbols) });
  }

  /** Reads `node`'s subtree (not `node` itself). */
  private walk(node: Node, frame: Frame, owner: number | undefined): void {
    walkSites(node, SITES, LEAVES, (site, type) => this.site(site, type, frame, owner));
  }

  /** Reads one site; true when its subtree has been read already. */
  private site(node: Node, type: string, frame: Frame, owner: number | undefined): boolean {
    switch (type) {
      case 'decorated_definition': {
        const definition = node.childForFieldName('definition');
        const decorators = node.namedChildren.filter((child): child is Node => child?.type === 'decorator');
        if (definition !== null) this.definition(definition, frame, owner, node, decorators);
        return true;
      }
      case 'class_definition':
      case 'function_definition':
        this.definition(node, frame, owner, node, []);
        return true;
      case 'import_statement':
      case 'import_from_statement':
        this.importStatement(node, frame);
        return true;
      case 'assignment':
        this.assignment(node, frame, owner);
        return false;
      case 'with_item':
        this.withItem(node, frame);
        return false;
      case 'call':
        this.callTypes.noteCall(node, frame);
        this.calls.call(node, frame, owner);
        this.brokers?.call(node, frame, owner);
        return false;
      default:
        return false;
    }
  }

  private definition(
    node: Node,
    frame: Frame,
    owner: number | undefined,
    outer: Node,
    decorators: Node[],
  ): void {
    const definition = readDefinition(node, frame, owner, outer, decorators);
    if (definition === undefined) return;
    const { symbol, body, qualifiedName } = definition;
    // Functions nested in functions are locals, unless decorated: then they are registered handlers.
    const declared =
      frame.kind !== 'function' || (decorators.length > 0 && node.type === 'function_definition');
    const id = declared ? this.facts.addSymbol(symbol) : undefined;
    const inner = id ?? owner;
    if (node.type === 'class_definition') {
      this.classDefinition(node, body, frame, inner, declared ? qualifiedName : undefined);
    } else {
      this.functionDefinition(node, body, frame, inner, decorators, qualifiedName);
    }
  }

  private classDefinition(
    node: Node,
    body: Node,
    frame: Frame,
    owner: number | undefined,
    className?: string,
  ): void {
    const bases = node.childForFieldName('superclasses');
    let servicer: string | undefined;
    for (const base of bases?.namedChildren ?? []) {
      const path = dotted(base);
      const last = path?.slice(path.lastIndexOf('.') + 1) ?? '';
      if (path === undefined || last.length <= 8 || !last.endsWith('Servicer')) continue;
      const service = last.slice(0, -8);
      if (isHealthService(service, this.scope.originOf(path).module)) continue;
      servicer = service;
      const line = startLineOf(node.childForFieldName('name') ?? node);
      this.facts.addContract(
        { kind: 'grpc_server', service, line, confidence: 'exact', via: 'Servicer subclass' },
        { owner },
      );
    }
    const classFrame = newFrame('class', frame, {
      ...(className === undefined ? {} : { className }),
      ...(servicer === undefined ? {} : { servicer }),
    });
    const locust = this.locustClient(node, frame);
    if (locust !== undefined) classFrame.attrs.set('client', locust);
    if (bases !== null) this.walk(bases, frame, owner);
    this.walk(body, classFrame, owner);
  }

  /**
   * A Locust user (or task set) class calls the system under test through `self.client`, relative to the
   * class's `host` attribute, inherited from a same-file base class when it does not set its own.
   */
  private locustClient(node: Node, frame: Frame): Binding | undefined {
    const name = node.childForFieldName('name')?.text;
    let inherited: Binding | undefined;
    for (const base of node.childForFieldName('superclasses')?.namedChildren ?? []) {
      const path = dotted(base);
      if (path === undefined) continue;
      const origin = this.scope.originOf(path);
      const known = this.locustUsers.get(path);
      if (known !== undefined) inherited = known;
      else if (
        LOCUST_USERS.some((user) => user.module === origin.module && user.classes.includes(origin.name))
      )
        inherited = LOCUST_RUN_HOST;
    }
    if (inherited === undefined || name === undefined) return undefined;
    const host = frame.kind === 'module' ? this.scope.valueScope().member(name, 'host') : undefined;
    const binding: Binding = host === undefined ? inherited : { kind: 'http', lib: 'locust', base: host };
    if (frame.kind === 'module') this.locustUsers.set(name, binding);
    return binding;
  }

  private functionDefinition(
    node: Node,
    body: Node,
    frame: Frame,
    owner: number | undefined,
    decorators: readonly Node[],
    qualifiedName: string,
  ): void {
    const functionFrame = newFrame('function', frame);
    const parameters = node.childForFieldName('parameters')?.namedChildren ?? [];
    let positional = 0;
    for (const parameter of parameters) {
      if (parameter === null) continue;
      if (/^(typed_|default_|typed_default_)?parameter$|^identifier$/.test(parameter.type)) positional++;
      this.parameter(parameter, functionFrame, owner);
    }
    if (frame.kind === 'module') this.bindLocustTaskUser(parameters, functionFrame);
    const line = startLineOf(node.childForFieldName('name') ?? node);
    const name = node.childForFieldName('name')?.text ?? '';
    // Generated servicer methods take exactly (self, request, context); helpers do not.
    if (frame.kind === 'class' && frame.servicer !== undefined && !name.startsWith('_') && positional === 3) {
      this.facts.addContract(
        {
          kind: 'grpc_server',
          service: frame.servicer,
          method: name,
          line,
          confidence: 'exact',
          via: 'Servicer method',
        },
        { owner },
      );
    }
    let subscriptions = false;
    for (const decorator of decorators)
      subscriptions = this.decorator(decorator, frame, owner, line, qualifiedName, name) || subscriptions;
    if (subscriptions) {
      for (const fact of daprSubscriptionEntries(body, this.scope.valueScope(functionFrame)))
        this.facts.addContract(fact, { owner });
    }
    this.walk(body, functionFrame, owner);
  }

  /**
   * Locust calls a module-level task function with the running user (`def index(l): l.client.get("/")`, listed
   * in a TaskSet's `tasks`): in a file that imports locust, the first parameter's `client` is the user's client.
   */
  private bindLocustTaskUser(parameters: readonly (Node | null)[], frame: Frame): void {
    const first = parameters[0];
    if (first?.type !== 'identifier' || !this.scope.importsModule('locust')) return;
    frame.bindings.set(`${first.text}.client`, LOCUST_RUN_HOST);
  }

  private parameter(parameter: Node, frame: Frame, owner: number | undefined): void {
    const nameNode =
      parameter.type === 'identifier'
        ? parameter
        : (parameter.childForFieldName('name') ?? parameter.namedChildren[0]);
    if (nameNode?.type !== 'identifier') return;
    recordLocal(frame, nameNode.text);
    this.callTypes.parameter(frame, nameNode.text, parameter.childForFieldName('type'));
    const typePath = dotted(parameter.childForFieldName('type')?.namedChildren[0]);
    if (typePath === undefined) return;
    const origin = this.scope.originOf(typePath);
    const binding = classifyCallee(origin, null, this.scope.valueScope(frame));
    if (binding === undefined) return;
    frame.bindings.set(nameNode.text, binding);
    if (binding.kind === 'stub') {
      const line = startLineOf(parameter);
      this.facts.addContract(
        {
          kind: 'grpc_client',
          service: binding.service,
          line,
          confidence: binding.confidence,
          via: 'typed stub parameter',
        },
        { owner },
      );
    }
  }

  /** Records what a decorator declares; true when it makes the function Dapr's `/dapr/subscribe` route. */
  private decorator(
    decorator: Node,
    frame: Frame,
    owner: number | undefined,
    line: number,
    qualifiedName: string,
    name: string,
  ): boolean {
    const { facts, task } = decoratorFacts(decorator, frame, this.scope, line, qualifiedName);
    for (const fact of facts) this.facts.addContract(fact, { owner });
    if (task !== undefined && frame.kind === 'module') this.calls.registerTask(name, task);
    return facts.some(
      (fact) => fact.kind === 'http_route' && fact.method === 'GET' && fact.path === DAPR_SUBSCRIPTIONS.route,
    );
  }

  private importStatement(node: Node, frame: Frame): void {
    const line = startLineOf(node);
    if (frame.kind !== 'module') this.scope.addImportAliases(node);
    this.callTypes.addImport(node);
    if (node.type === 'import_statement') {
      for (const child of node.childrenForFieldName('name')) {
        const source = child?.type === 'aliased_import' ? child.childForFieldName('name')?.text : child?.text;
        if (source !== undefined) this.facts.addImport({ source, line });
      }
      return;
    }
    const source = node.childForFieldName('module_name')?.text;
    if (source === undefined) return;
    const names = node
      .childrenForFieldName('name')
      .map((child) =>
        child?.type === 'aliased_import' ? child.childForFieldName('name')?.text : child?.text,
      )
      .filter((name): name is string => name !== undefined);
    this.facts.addImport(names.length === 0 ? { source, line } : { source, names, line });
  }

  private assignment(node: Node, frame: Frame, owner: number | undefined): void {
    const left = node.childForFieldName('left');
    const right = node.childForFieldName('right');
    if (left === null) return;
    this.callTypes.bind(frame, left, right, node.childForFieldName('type'));
    if (
      frame.kind === 'module' &&
      left.type === 'identifier' &&
      node.parent?.type === 'expression_statement'
    ) {
      const constant = constantSymbol(node, left.text, owner);
      if (constant !== undefined) this.facts.addSymbol(constant);
    }
    if (right === null) return;
    this.brokers?.assignment(left, right, frame);
    if (left.type === 'identifier')
      recordLocal(frame, left.text, resolveParts(right, this.scope.valueScope(frame)));
    const binding = this.calls.bindingOf(right, frame);
    if (binding === undefined) return;
    const key = receiverKey(left);
    if (key === undefined) return;
    if (key.startsWith('self.')) enclosingClass(frame)?.attrs.set(key.slice(5), binding);
    else frame.bindings.set(key, binding);
  }

  private withItem(node: Node, frame: Frame): void {
    const pattern = node.childForFieldName('value');
    if (pattern?.type !== 'as_pattern') return;
    const target = pattern.childForFieldName('alias')?.namedChildren[0];
    if (target?.type !== 'identifier') return;
    this.callTypes.bind(frame, target, pattern.namedChildren[0] ?? null, null);
    const binding = this.calls.bindingOf(pattern.namedChildren[0] ?? null, frame);
    if (binding !== undefined) frame.bindings.set(target.text, binding);
  }
}

export const extractPython: Extractor = (input) => {
  if (input.tree === undefined) return emptyFacts('python');
  const facts = new PythonExtraction(input.tree.rootNode).build(input.source);
  return rewriteSidecarCalls(markUncalledStubs(facts));
};
