/**
 * Go contracts, found in one walk of every function body and top-level initialiser: gRPC registrations
 * (`pb.Register<S>Server`) and the handlers of the registered type, stubs (`pb.New<S>Client(conn)`) and the
 * calls made on them; Kafka producers/consumers through go-events.ts and HTTP routes/calls through
 * go-http.ts.
 */
import type { Node } from 'web-tree-sitter';
import { finishAmqp, onAmqpCall } from './amqp.js';
import { keyedFields, onConsumerCall, onKafkaComposite } from './events.js';
import { onMessagingCall, onMessagingComposite } from './messaging.js';
import { daprSubscriptionRoute } from './dapr-handlers.js';
import { goHttpCall, type Callbacks } from './http.js';
import {
  agree,
  argumentsOf,
  clientType,
  looksGenerated,
  setFieldClient,
  stringValue,
  typeOfExpr,
  unwrapParens,
  GoScope,
  type GoClient,
  type GoFile,
} from './scope.js';
import { isHealthService } from '../shared/grpc-health.js';
import { startLineOf } from '../shared/tree-utils.js';

export interface GoWalk {
  readonly node: Node;
  readonly symbol: number;
  readonly receiver?: { readonly name: string; readonly type: string };
}

export function collectGoContracts(file: GoFile, fileScope: GoScope, walks: readonly GoWalk[]): void {
  for (const walk of walks) {
    const scope = new GoScope(file, fileScope, walk.symbol, walk.receiver);
    const owner = walk.node.parent;
    if (owner?.type === 'function_declaration' || owner?.type === 'method_declaration') {
      bindParameters(owner.childForFieldName('parameters'), scope);
      bindParameters(owner.childForFieldName('result'), scope);
    }
    walkBody(walk.node, scope);
  }
  emitServedMethods(file);
  finishAmqp(file);
}

const WALKED = [
  'func_literal',
  'short_var_declaration',
  'assignment_statement',
  'var_spec',
  'range_clause',
  'receive_statement',
  'type_switch_statement',
  'call_expression',
  'composite_literal',
];

/**
 * One native query for the node types that matter (pre-order, so a declaration comes before the uses
 * inside it) instead of materialising every node of the body: node objects are what extraction pays for.
 * Func literals open a scope for their extent; a chi `Route` callback's router parameter gets its prefix.
 */
function walkBody(root: Node, scope: GoScope): void {
  const scopes: { readonly end: number; readonly scope: GoScope }[] = [];
  const callbacks: Callbacks = new Map();
  for (const node of root.descendantsOfType(WALKED)) {
    if (node === null) continue;
    while (scopes.length > 0 && node.startIndex >= (scopes[scopes.length - 1]?.end ?? 0)) scopes.pop();
    const current = scopes[scopes.length - 1]?.scope ?? scope;
    switch (node.type) {
      case 'func_literal': {
        const inner = current.child();
        bindParameters(node.childForFieldName('parameters'), inner);
        bindParameters(node.childForFieldName('result'), inner);
        const router = callbacks.get(node.startIndex);
        if (router !== undefined) inner.bind(router.name, { prefix: router.prefix });
        scopes.push({ end: node.endIndex, scope: inner });
        break;
      }
      case 'short_var_declaration':
      case 'assignment_statement':
        bindAssignment(node, current);
        break;
      case 'var_spec':
        bindVarSpec(node, current);
        break;
      case 'range_clause':
      case 'receive_statement':
      case 'type_switch_statement':
        // Loop, channel and type-switch variables hold values we do not follow; binding them hides the
        // package-level names they shadow (a shadowed name is no cross-file reference).
        for (const target of node.childForFieldName(node.type === 'type_switch_statement' ? 'alias' : 'left')
          ?.namedChildren ?? []) {
          if (target?.type === 'identifier')
            bindOrReassign(target.text, node, current, node.text.includes(':='));
        }
        break;
      case 'call_expression':
        onCall(node, current, callbacks);
        break;
      case 'composite_literal': {
        const type = node.childForFieldName('type');
        if (type?.type === 'qualified_type') {
          onKafkaComposite(node, type, current);
          onMessagingComposite(node, type, current);
          daprSubscriptionRoute(node, type, current);
        } else if (current.file.mentionsClient) recordFieldClients(node, current);
        break;
      }
    }
  }
}

export function bindParameters(list: Node | null, scope: GoScope): void {
  for (const param of list?.namedChildren ?? []) {
    if (param?.type !== 'parameter_declaration' && param?.type !== 'variadic_parameter_declaration') continue;
    const type = param.childForFieldName('type');
    for (const name of param.childrenForFieldName('name')) {
      if (name !== null) scope.bind(name.text, type === null ? {} : { type });
    }
  }
}

function bindAssignment(node: Node, scope: GoScope): void {
  const left = node.childForFieldName('left')?.namedChildren.filter((n): n is Node => n !== null) ?? [];
  const right = node.childForFieldName('right')?.namedChildren.filter((n): n is Node => n !== null) ?? [];
  const operator =
    node.childForFieldName('operator')?.type ?? (node.type === 'short_var_declaration' ? ':=' : '=');
  left.forEach((target, i) => {
    const value =
      right.length === left.length ? right[i] : i === 0 && right.length === 1 ? right[0] : undefined;
    if (target.type === 'identifier') {
      // `x += "…"` changes the value in a way we do not follow: the statement itself makes x unreadable.
      bindOrReassign(
        target.text,
        operator === '=' || operator === ':=' ? (value ?? node) : node,
        scope,
        operator === ':=',
      );
    } else if (target.type === 'selector_expression' && value !== undefined) {
      // `s.inventory = pb.NewInventoryServiceClient(conn)` types the field for the whole file.
      const owner = target.childForFieldName('operand');
      const field = target.childForFieldName('field')?.text;
      const type = owner === null ? undefined : typeOfExpr(owner, scope);
      const client = clientOf(value, scope);
      if (type !== undefined && field !== undefined && client !== undefined)
        setFieldClient(scope.file, type, field, client);
    }
  });
}

/** Binds `name` in the function; an assignment to a package-level var also marks it as not constant. */
function bindOrReassign(name: string, value: Node, scope: GoScope, declares: boolean): void {
  if (!declares && scope.parent !== undefined && scope.isPackageLevel(name)) scope.file.reassigned.add(name);
  scope.bind(name, { value });
}

function bindVarSpec(spec: Node, scope: GoScope): void {
  const names = spec.childrenForFieldName('name').filter((n): n is Node => n !== null);
  const values = spec.childForFieldName('value')?.namedChildren.filter((n): n is Node => n !== null) ?? [];
  const type = spec.childForFieldName('type');
  names.forEach((name, i) => {
    const value = values.length === names.length ? values[i] : undefined;
    scope.bind(name.text, { ...(value === undefined ? {} : { value }), ...(type === null ? {} : { type }) });
  });
}

function onCall(call: Node, scope: GoScope, callbacks: Callbacks): void {
  const fn = call.childForFieldName('function');
  if (fn === null) return;
  let name: string;
  let nameNode: Node;
  let pkg: string | undefined;
  let receiver: Node | undefined;
  if (fn.type === 'identifier') {
    name = fn.text;
    nameNode = fn;
  } else if (fn.type === 'selector_expression') {
    const field = fn.childForFieldName('field');
    const operand = fn.childForFieldName('operand');
    if (field === null || operand === null) return;
    name = field.text;
    nameNode = field;
    if (operand.type === 'identifier') pkg = scope.packagePath(operand.text);
    if (pkg === undefined) receiver = operand;
  } else {
    return;
  }
  const line = startLineOf(nameNode);

  const registered = /^Register(\w+)Server$/.exec(name)?.[1];
  if (registered !== undefined && receiver === undefined) {
    const args = argumentsOf(call);
    if (args.length === 2) onRegister(registered, pkg, args[1], line, scope);
    return;
  }
  if (receiver === undefined && /^New\w+Client$/.test(name)) {
    const client = constructorClient(call, scope);
    if (client !== undefined) {
      scope.file.facts.addContract({
        kind: 'grpc_client',
        service: client.service,
        symbol: scope.symbol,
        line,
        confidence: client.confidence,
        via: client.via,
      });
    }
    return;
  }
  if (receiver !== undefined) {
    // Resolving every receiver costs node lookups; a file never naming a `…Client` holds no stub.
    const client = scope.file.mentionsClient ? clientOf(receiver, scope) : undefined;
    if (client !== undefined) {
      scope.file.facts.addContract({
        kind: 'grpc_client',
        service: client.service,
        method: name,
        symbol: scope.symbol,
        line,
        confidence: client.confidence,
        via: client.via,
      });
      return;
    }
    const { sarama, confluent } = scope.file.kafka;
    if (sarama || confluent) onConsumerCall(name, argumentsOf(call), line, scope);
    if (onAmqpCall(call, name, scope) || onMessagingCall(call, name, receiver, scope)) return;
  }
  goHttpCall(call, fn, scope, callbacks);
}

function onRegister(
  service: string,
  pkg: string | undefined,
  impl: Node | undefined,
  line: number,
  scope: GoScope,
): void {
  if (isHealthService(service)) return;
  scope.file.facts.addContract({
    kind: 'grpc_server',
    service,
    symbol: scope.symbol,
    line,
    confidence: 'exact',
    via: 'Register*Server',
  });
  const type = impl === undefined ? undefined : typeOfExpr(impl, scope);
  if (type !== undefined) scope.file.servedTypes.push({ type, service, via: 'Register*Server' });
}

/** `pb.New<S>Client(conn)`: a stub when its one argument is (or may be) a connection, never a URL string. */
function constructorClient(call: Node, scope: GoScope): GoClient | undefined {
  const fn = call.childForFieldName('function');
  const name = fn?.type === 'selector_expression' ? fn.childForFieldName('field')?.text : fn?.text;
  const service = /^New(\w+)Client$/.exec(name ?? '')?.[1];
  const args = argumentsOf(call);
  const conn = args[0];
  if (service === undefined || isHealthService(service) || args.length !== 1 || conn === undefined)
    return undefined;
  const kind = connectionKind(conn, scope, 0);
  if (kind === 'other') return undefined;
  const alias = fn?.type === 'selector_expression' ? (fn.childForFieldName('operand')?.text ?? '') : '';
  const generated = alias !== '' && looksGenerated(alias, scope.file.imports.get(alias) ?? '');
  return { service, confidence: kind === 'grpc' || generated ? 'exact' : 'heuristic', via: 'New*Client' };
}

type ConnKind = 'grpc' | 'other' | 'unknown';

function connectionKind(node: Node, scope: GoScope, depth: number): ConnKind {
  const expr = unwrapParens(node);
  if (depth > 4) return 'unknown';
  if (stringValue(expr, scope) !== undefined || expr.type === 'binary_expression') return 'other';
  if (expr.type === 'identifier') {
    const kinds = (scope.lookup(expr.text) ?? []).map((b): ConnKind => {
      if (b.type !== undefined)
        return /ClientConn/.test(b.type.text) ? 'grpc' : b.type.text === 'string' ? 'other' : 'unknown';
      return b.value === undefined ? 'unknown' : connectionKind(b.value, scope, depth + 1);
    });
    return kinds.includes('grpc')
      ? 'grpc'
      : kinds.length > 0 && kinds.every((k) => k === 'other')
        ? 'other'
        : 'unknown';
  }
  if (expr.type !== 'call_expression') return 'unknown';
  const fn = expr.childForFieldName('function');
  if (fn?.type === 'identifier')
    return /ClientConn/.test(scope.file.funcResults.get(fn.text) ?? '') ? 'grpc' : 'unknown';
  if (fn?.type !== 'selector_expression') return 'unknown';
  const operand = fn.childForFieldName('operand');
  const pkg = operand?.type === 'identifier' ? scope.packagePath(operand.text) : undefined;
  const name = fn.childForFieldName('field')?.text ?? '';
  if (pkg === 'google.golang.org/grpc' && /^(Dial|DialContext|NewClient)$/.test(name)) return 'grpc';
  if (pkg === 'fmt' || pkg === 'os' || pkg === 'strings') return 'other';
  return 'unknown';
}

/** The stub an expression holds: a constructor, a variable or parameter, or a struct field. */
export function clientOf(node: Node, scope: GoScope, depth = 0): GoClient | undefined {
  const expr = unwrapParens(node);
  if (depth > 4) return undefined;
  switch (expr.type) {
    case 'call_expression':
      return constructorClient(expr, scope);
    case 'identifier':
      if (scope.packagePath(expr.text) !== undefined) return undefined;
      return agree(
        scope.lookup(expr.text),
        (b) =>
          b.value !== undefined
            ? clientOf(b.value, scope, depth + 1)
            : b.type === undefined
              ? undefined
              : clientType(b.type, scope.file),
        (c) => c.service,
      );
    case 'selector_expression': {
      const owner = expr.childForFieldName('operand');
      const field = expr.childForFieldName('field')?.text;
      if (owner === null || field === undefined) return undefined;
      if (owner.type === 'identifier' && scope.packagePath(owner.text) !== undefined) return undefined;
      const type = typeOfExpr(owner, scope);
      const known = type === undefined ? undefined : scope.file.fieldClients.get(type)?.get(field);
      if (known !== undefined) return known;
      const guess = scope.file.anyFieldClient.get(field);
      return guess === undefined || guess === null
        ? undefined
        : { ...guess, confidence: 'heuristic', via: '*Client field name' };
    }
    default:
      return undefined;
  }
}

/** `&server{inventory: pb.NewInventoryServiceClient(conn)}` tells which field of `server` holds which stub. */
function recordFieldClients(literal: Node, scope: GoScope): void {
  const type = literal.childForFieldName('type');
  if (type?.type !== 'type_identifier') return;
  for (const [field, value] of keyedFields(literal)) {
    const client = clientOf(value, scope);
    if (client !== undefined) setFieldClient(scope.file, type.text, field, client);
  }
}

/** Handlers of a type tied to a service (registered or embedding `Unimplemented<S>Server`) in this file. */
function emitServedMethods(file: GoFile): void {
  const seen = new Set<string>();
  for (const { type, service, via } of file.servedTypes) {
    const key = `${type}\0${service}`;
    if (seen.has(key)) continue;
    seen.add(key);
    for (const method of file.methods.get(type) ?? []) {
      if (!method.handlerShape()) continue;
      file.facts.addContract({
        kind: 'grpc_server',
        service,
        method: method.name,
        symbol: method.symbol,
        line: method.line,
        confidence: 'exact',
        via,
      });
    }
  }
}
