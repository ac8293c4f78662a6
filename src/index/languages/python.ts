/**
 * Python: declarations (classes, methods, functions, module constants with decorators and docstrings),
 * imports, and contracts — gRPC servicers and stubs, Kafka producers and consumers (confluent_kafka,
 * aiokafka, kafka-python), Celery tasks, Flask/FastAPI/Django routes and requests/httpx/aiohttp calls.
 *
 * One walk of the tree. Calls on a receiver (`self.stub.ReserveStock(…)`) are resolved after the walk,
 * because `self.stub` may be bound in `__init__` below the method that uses it.
 */
import type { Node } from 'web-tree-sitter';
import type { ContractFact, FileFacts, ImportFact, SymbolFact } from '../facts.js';
import { emptyFacts } from '../facts.js';
import type { Extractor } from './extractor.js';
import {
  classifyCallee,
  constructorTopics,
  httpRequest,
  isHealthService,
  routeFromDecorator,
  type Binding,
} from './python-contracts.js';
import { cleanDoc, docstringNode, signatureOf } from './python-decl.js';
import { decoratorFacts, djangoRoute } from './python-decorators.js';
import { httpCallFact, receiverCall, receiverCallFacts, type ReceiverCall } from './python-receivers.js';
import {
  enclosingClass,
  lookupBinding,
  newFrame,
  PyScope,
  receiverKey,
  recordLocal,
  type Frame,
} from './python-scope.js';
import { callArguments, dotted, literalString, resolveParts } from './python-values.js';
import { endLineOf, oneLine, startLineOf, topicOf, walkSites, type Parts } from './tree-utils.js';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

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
const CONSTANT_NAME = /^_*[A-Z][A-Z0-9_]*$/;
const SERVICER_ADD = /^add_(\w+)Servicer_to_server$/;

class PythonExtraction {
  readonly symbols: Mutable<SymbolFact>[] = [];
  readonly imports: ImportFact[] = [];
  readonly contracts: ContractFact[] = [];
  private readonly scope = new PyScope();
  private readonly pending: ReceiverCall[] = [];
  /** Same-file Celery tasks by function name → queue name, for `.delay()` producers. */
  private readonly tasks = new Map<string, string>();

  constructor(root: Node) {
    this.scope.collect(root);
    const module = newFrame('module');
    this.walk(root, module, undefined);
    for (const call of this.pending) this.resolveReceiverCall(call, lookupBinding(call.frame, call.receiver));
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
        this.call(node, frame, owner);
        return false;
      default:
        return false;
    }
  }

  private addSymbol(symbol: Omit<Mutable<SymbolFact>, 'id'>): number {
    const id = this.symbols.length;
    this.symbols.push({ id, ...symbol });
    return id;
  }

  private contract(fact: ContractFact, owner: number | undefined): void {
    this.contracts.push(owner === undefined ? fact : { ...fact, symbol: owner });
  }

  private definition(
    node: Node,
    frame: Frame,
    owner: number | undefined,
    outer: Node,
    decorators: Node[],
  ): void {
    const nameNode = node.childForFieldName('name');
    const body = node.childForFieldName('body');
    if (nameNode === null || body === null) return;
    const name = nameNode.text;
    const parentClass = frame.kind === 'class' ? frame.className : undefined;
    const qualifiedName = parentClass === undefined ? name : `${parentClass}.${name}`;
    // Functions nested in functions are locals, unless decorated: then they are registered handlers.
    const declared =
      frame.kind !== 'function' || (decorators.length > 0 && node.type === 'function_definition');
    const docNode = docstringNode(body);
    const symbol: Omit<Mutable<SymbolFact>, 'id'> = {
      kind: node.type === 'class_definition' ? 'class' : frame.kind === 'class' ? 'method' : 'function',
      name,
      qualifiedName,
      signature: signatureOf(node),
      startLine: startLineOf(outer),
      endLine: endLineOf(node),
    };
    if (docNode !== undefined) symbol.docstring = cleanDoc(literalString(docNode) ?? '');
    if (decorators.length > 0) symbol.decorators = decorators.map((decorator) => oneLine(decorator.text));
    if (owner !== undefined) symbol.parent = owner;
    if (node.type === 'function_definition') {
      const first = body.namedChildren.find(
        (child) => child !== null && child.type !== 'comment' && child.id !== docNode?.parent?.id,
      );
      const signatureEnd = endLineOf(
        node.childForFieldName('return_type') ?? node.childForFieldName('parameters') ?? nameNode,
      );
      if (first !== undefined && first !== null && startLineOf(first) > signatureEnd) {
        symbol.bodyStartLine = startLineOf(first);
        symbol.bodyEndLine = endLineOf(body);
      }
    }
    const id = declared ? this.addSymbol(symbol) : undefined;
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
      this.contract(
        { kind: 'grpc_server', service, line, confidence: 'exact', via: 'Servicer subclass' },
        owner,
      );
    }
    const classFrame = newFrame('class', frame, {
      ...(className === undefined ? {} : { className }),
      ...(servicer === undefined ? {} : { servicer }),
    });
    if (bases !== null) this.walk(bases, frame, owner);
    this.walk(body, classFrame, owner);
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
    const line = startLineOf(node.childForFieldName('name') ?? node);
    const name = node.childForFieldName('name')?.text ?? '';
    // Generated servicer methods take exactly (self, request, context); helpers do not.
    if (frame.kind === 'class' && frame.servicer !== undefined && !name.startsWith('_') && positional === 3) {
      this.contract(
        {
          kind: 'grpc_server',
          service: frame.servicer,
          method: name,
          line,
          confidence: 'exact',
          via: 'Servicer method',
        },
        owner,
      );
    }
    for (const decorator of decorators) this.decorator(decorator, frame, owner, line, qualifiedName, name);
    this.walk(body, functionFrame, owner);
  }

  private parameter(parameter: Node, frame: Frame, owner: number | undefined): void {
    const nameNode =
      parameter.type === 'identifier'
        ? parameter
        : (parameter.childForFieldName('name') ?? parameter.namedChildren[0]);
    if (nameNode?.type !== 'identifier') return;
    recordLocal(frame, nameNode.text);
    const typePath = dotted(parameter.childForFieldName('type')?.namedChildren[0]);
    if (typePath === undefined) return;
    const origin = this.scope.originOf(typePath);
    const binding = classifyCallee(origin, null, this.scope.valueScope(frame));
    if (binding === undefined) return;
    frame.bindings.set(nameNode.text, binding);
    if (binding.kind === 'stub') {
      const line = startLineOf(parameter);
      this.contract(
        {
          kind: 'grpc_client',
          service: binding.service,
          line,
          confidence: binding.confidence,
          via: 'typed stub parameter',
        },
        owner,
      );
    }
  }

  private decorator(
    decorator: Node,
    frame: Frame,
    owner: number | undefined,
    line: number,
    qualifiedName: string,
    name: string,
  ): void {
    const { facts, task } = decoratorFacts(decorator, frame, this.scope, line, qualifiedName);
    for (const fact of facts) this.contract(fact, owner);
    if (task !== undefined && frame.kind === 'module') this.tasks.set(name, task);
  }

  private importStatement(node: Node, frame: Frame): void {
    const line = startLineOf(node);
    if (frame.kind !== 'module') this.scope.addImportAliases(node);
    if (node.type === 'import_statement') {
      for (const child of node.childrenForFieldName('name')) {
        const source = child?.type === 'aliased_import' ? child.childForFieldName('name')?.text : child?.text;
        if (source !== undefined) this.imports.push({ source, line });
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
    this.imports.push(names.length === 0 ? { source, line } : { source, names, line });
  }

  private bindingOf(node: Node | null, frame: Frame): Binding | undefined {
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

  private assignment(node: Node, frame: Frame, owner: number | undefined): void {
    const left = node.childForFieldName('left');
    const right = node.childForFieldName('right');
    if (left === null) return;
    if (
      frame.kind === 'module' &&
      left.type === 'identifier' &&
      node.parent?.type === 'expression_statement'
    ) {
      this.constantSymbol(node, left.text, owner);
    }
    if (right === null) return;
    if (left.type === 'identifier')
      recordLocal(frame, left.text, resolveParts(right, this.scope.valueScope(frame)));
    const binding = this.bindingOf(right, frame);
    if (binding === undefined) return;
    const key = receiverKey(left);
    if (key === undefined) return;
    if (key.startsWith('self.')) enclosingClass(frame)?.attrs.set(key.slice(5), binding);
    else frame.bindings.set(key, binding);
  }

  private constantSymbol(node: Node, name: string, owner: number | undefined): void {
    const annotated = node.childForFieldName('type') !== null;
    if (!CONSTANT_NAME.test(name) && !annotated) return;
    const startLine = startLineOf(node);
    const endLine = endLineOf(node);
    const type = node.childForFieldName('type')?.text;
    const head = type === undefined ? name : `${name}: ${type}`;
    const symbol: Omit<Mutable<SymbolFact>, 'id'> = {
      kind: CONSTANT_NAME.test(name) ? 'const' : 'variable',
      name,
      qualifiedName: name,
      signature: startLine === endLine ? oneLine(node.text) : `${head} = …`,
      startLine,
      endLine,
    };
    if (owner !== undefined) symbol.parent = owner;
    this.addSymbol(symbol);
  }

  private withItem(node: Node, frame: Frame): void {
    const pattern = node.childForFieldName('value');
    if (pattern?.type !== 'as_pattern') return;
    const target = pattern.childForFieldName('alias')?.namedChildren[0];
    if (target?.type !== 'identifier') return;
    const binding = this.bindingOf(pattern.namedChildren[0] ?? null, frame);
    if (binding !== undefined) frame.bindings.set(target.text, binding);
  }

  private call(node: Node, frame: Frame, owner: number | undefined): void {
    const callee = node.childForFieldName('function');
    const args = node.childForFieldName('arguments');
    const line = startLineOf(node);
    const path = dotted(callee);
    const values = this.scope.valueScope(frame);
    if (path !== undefined) {
      const origin = this.scope.originOf(path);
      const binding = classifyCallee(origin, args, values);
      if (binding?.kind === 'stub') {
        this.contract(
          {
            kind: 'grpc_client',
            service: binding.service,
            line,
            confidence: binding.confidence,
            via: 'pb2_grpc stub',
          },
          owner,
        );
      }
      if (binding?.kind === 'consumer') {
        for (const topicNode of constructorTopics(binding, args)) {
          const topic = topicOf(resolveParts(topicNode, values));
          if (topic !== undefined) {
            this.contract(
              { kind: 'topic_consumer', topic, line, confidence: 'exact', via: `${binding.lib} consumer` },
              owner,
            );
          }
        }
      }
      const added = SERVICER_ADD.exec(origin.name)?.[1];
      if (added !== undefined && !isHealthService(added, origin.module)) {
        this.contract(
          { kind: 'grpc_server', service: added, line, confidence: 'exact', via: 'add_*Servicer_to_server' },
          owner,
        );
      }
      const lib = origin.module === 'requests' || origin.module === 'httpx' ? origin.module : undefined;
      const request = lib === undefined ? undefined : httpRequest(origin.name, args);
      if (lib !== undefined && request !== undefined) {
        const urlValues = this.scope.valueScope(frame, true);
        const url = resolveParts(request.url, urlValues);
        const inferred = urlValues.used?.inferred === true;
        this.httpCall(request.verb, url, `${lib} ${origin.name}`, line, owner, inferred);
      }
      if (origin.module === 'django.urls' && origin.name === 'path') {
        const route = djangoRoute(args, line);
        if (route !== undefined) this.contract(route, owner);
      }
    }
    if (callee?.type === 'call') {
      this.decoratorCall(callee, args, frame, line, owner);
      return;
    }
    if (callee?.type !== 'attribute') return;
    const method = callee.childForFieldName('attribute')?.text ?? '';
    const object = callee.childForFieldName('object');
    if (object?.type === 'call') {
      // A client used where it is built: `httpx.AsyncClient().get(url)`, `KafkaProducer().send("t")`.
      const built = this.bindingOf(object, frame);
      if (built !== undefined)
        this.resolveReceiverCall(
          receiverCall(
            this.scope.valueScope(frame),
            frame,
            '',
            method,
            args,
            line,
            owner,
            this.scope.valueScope(frame, true),
          ),
          built,
        );
      return;
    }
    let key = receiverKey(object);
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
    if (key !== undefined && !called.startsWith('__')) {
      this.pending.push(
        receiverCall(
          this.scope.valueScope(frame),
          frame,
          key,
          called,
          args,
          line,
          owner,
          this.scope.valueScope(frame, true),
        ),
      );
    }
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
    const route = routeFromDecorator(decorator, key === undefined ? undefined : lookupBinding(frame, key));
    if (route === undefined) return;
    // `fastapi @post` → `fastapi post()`: the decorator was called, not applied.
    const via = `${route.via.replace('@', '')}()`;
    for (const method of route.methods) {
      this.contract({ kind: 'http_route', method, path: route.path, line, via }, owner);
    }
  }

  private resolveReceiverCall(call: ReceiverCall, binding: Binding | undefined): void {
    for (const fact of receiverCallFacts(call, binding, this.tasks)) this.contract(fact, call.owner);
  }

  private httpCall(
    verb: string,
    url: Parts,
    via: string,
    line: number,
    owner: number | undefined,
    inferred: boolean,
  ): void {
    const fact = httpCallFact(verb, url, undefined, via, line);
    if (fact !== undefined) this.contract(inferred ? { ...fact, confidence: 'heuristic' } : fact, owner);
  }
}

export const extractPython: Extractor = (input) => {
  if (input.tree === undefined) return emptyFacts('python');
  const extraction = new PythonExtraction(input.tree.rootNode);
  const facts: FileFacts = {
    language: 'python',
    symbols: extraction.symbols,
    imports: extraction.imports,
    contracts: [...extraction.contracts].sort((a, b) => a.line - b.line),
  };
  return facts;
};
