/**
 * Where a broker call's receiver comes from, traced back through the file while its nodes are alive:
 * `channel` ← `connection.createChannel()` ← `amqp.connect(…)` ← `require('amqplib')`. The module found at the
 * end tells which library's `publish` this is (amqplib, ioredis, mqtt and NATS all have one), and tells a
 * client apart from a look-alike built by another package (`new RedisPubSub()`, `new EventEmitter()`).
 */
import type { Node } from 'web-tree-sitter';
import type { FileState } from './model.js';
import { toVal, unwrap, type LocalLookup, type Val } from './values.js';

const MAX_STEPS = 12;
const FUNCTIONS = new Set([
  'arrow_function',
  'function_expression',
  'function',
  'function_declaration',
  'generator_function_declaration',
  'method_definition',
]);

/**
 * `source`: the import the receiver was traced to; `global` when it is no client of an imported library: made
 * by a class nobody imports (`new Map()`, a class of this file), or `this` itself. `made`: the nearest call that returned the receiver (`pubsub.topic('orders')`).
 */
export interface Origin {
  readonly source?: string;
  readonly global?: boolean;
  readonly made?: MadeBy;
}

/** A method call that returned the receiver, and the one that returned that call's own receiver. */
export interface MadeBy {
  readonly method: string;
  readonly args: readonly Val[];
  readonly from?: MadeBy;
}

interface Tracer {
  readonly state: FileState;
  readonly locals: LocalLookup;
  readonly cls: number | undefined;
  steps: number;
  readonly calls: { readonly method: string; readonly args: readonly Val[] }[];
}

export function receiverOrigin(
  state: FileState,
  receiver: Node,
  locals: LocalLookup,
  cls: number | undefined,
): Origin {
  // `this.publish(…)`: a method of the class itself (a wrapper around the client), not the client's.
  if (unwrap(receiver).type === 'this') return { global: true };
  const tracer: Tracer = { state, locals, cls, steps: 0, calls: [] };
  const found = trace(tracer, receiver);
  const [made, from] = tracer.calls;
  if (made === undefined) return found;
  return { ...found, made: from === undefined ? made : { ...made, from } };
}

function trace(t: Tracer, expr: Node): Omit<Origin, 'made'> {
  if (++t.steps > MAX_STEPS) return {};
  const n = unwrap(expr);
  switch (n.type) {
    case 'identifier':
      return traceName(t, n);
    case 'call_expression': {
      const callee = n.childForFieldName('function');
      if (callee === null) return {};
      const list = n.childForFieldName('arguments');
      const firstArg = list?.firstNamedChild;
      if (callee.type === 'identifier' && callee.text === 'require' && firstArg?.type === 'string')
        return { source: firstArg.text.slice(1, -1) };
      if (callee.type === 'member_expression') {
        t.calls.push({
          method: callee.childForFieldName('property')?.text ?? '',
          args: (list?.namedChildren ?? [])
            .filter((a): a is Node => a !== null && a.type !== 'comment')
            .map((a) => toVal(a, t.locals, t.cls)),
        });
        const object = callee.childForFieldName('object');
        return object === null ? {} : trace(t, object);
      }
      return trace(t, callee);
    }
    case 'new_expression': {
      const ctor = n.childForFieldName('constructor');
      return ctor === null ? {} : trace(t, ctor);
    }
    case 'member_expression': {
      const object = n.childForFieldName('object');
      if (object?.type === 'this') return traceField(t, n);
      return object === null ? {} : trace(t, object);
    }
    default:
      return {};
  }
}

/** A name: an import, a declaration in an enclosing scope, or a callback parameter. */
function traceName(t: Tracer, id: Node): Omit<Origin, 'made'> {
  const name = id.text;
  for (let scope = id.parent; scope !== null; scope = scope.parent) {
    if (FUNCTIONS.has(scope.type)) {
      const param = callbackParam(t, scope, name);
      if (param !== undefined) return param;
    }
    const value = declaredIn(scope, name, id);
    if (value !== undefined) return value === null ? {} : trace(t, value);
  }
  const imported = t.state.importBindings.get(name);
  if (imported !== undefined) return { source: imported.source };
  // A class nobody imports (`new Map()`, a class of this file) makes no broker client; a function might.
  return /^[A-Z]/.test(name) ? { global: true } : {};
}

/**
 * `conn.createChannel(function (err, ch) { … })`: a parameter of a callback takes its origin from the call
 * the callback is given to; undefined when `name` is not a parameter of `fn`.
 */
function callbackParam(t: Tracer, fn: Node, name: string): Omit<Origin, 'made'> | undefined {
  const params = fn.childForFieldName('parameters') ?? fn.childForFieldName('parameter');
  if (params === null) return undefined;
  const names = params.type === 'identifier' ? [params] : params.namedChildren;
  const isParam = names.some(
    (p) => p !== null && (p.text === name || p.childForFieldName('pattern')?.text === name),
  );
  if (!isParam) return undefined;
  const call = fn.parent?.type === 'arguments' ? fn.parent.parent : null;
  if (call?.type !== 'call_expression') return {};
  const callee = call.childForFieldName('function');
  if (callee === null) return {};
  const object = callee.type === 'member_expression' ? callee.childForFieldName('object') : callee;
  return object === null ? {} : trace(t, object);
}

/**
 * The initialiser of `name` declared directly in `scope` (or its first assignment there when declared
 * without one); null when declared with no value found, undefined when not declared there.
 */
function declaredIn(scope: Node, name: string, use: Node): Node | null | undefined {
  if (scope.type !== 'statement_block' && scope.type !== 'program') return undefined;
  for (const statement of scope.namedChildren) {
    if (statement === null) continue;
    const decl =
      statement.type === 'export_statement' ? statement.childForFieldName('declaration') : statement;
    if (decl?.type !== 'lexical_declaration' && decl?.type !== 'variable_declaration') continue;
    for (const declarator of decl.namedChildren) {
      if (declarator?.type !== 'variable_declarator') continue;
      const bound = declarator.childForFieldName('name');
      // Destructured (`const { channel } = await setup()`): declared here, origin unknown.
      if (bound?.type !== 'identifier' && (bound?.text.split(/[^\w$]+/) ?? []).includes(name)) return null;
      if (bound?.text !== name) continue;
      const value = declarator.childForFieldName('value');
      if (value !== null && value.id !== use.id) return value;
      return assignedIn(scope, name);
    }
  }
  return undefined;
}

function assignedIn(scope: Node, target: string): Node | null {
  for (const assignment of scope.descendantsOfType('assignment_expression')) {
    if (assignment?.childForFieldName('left')?.text.replace(/\s+/g, '') === target)
      return assignment.childForFieldName('right');
  }
  return null;
}

/** `this.channel`: the class's field initialiser or the first `this.channel = …` in its body. */
function traceField(t: Tracer, member: Node): Omit<Origin, 'made'> {
  const field = member.childForFieldName('property')?.text ?? '';
  let body: Node | null = member.parent;
  while (body !== null && body.type !== 'class_body') body = body.parent;
  if (body === null) return {};
  for (const child of body.namedChildren) {
    if (child?.type !== 'public_field_definition' && child?.type !== 'field_definition') continue;
    const name = child.childForFieldName('name') ?? child.childForFieldName('property');
    const value = child.childForFieldName('value');
    if (name?.text === field && value !== null) return trace(t, value);
  }
  const value = assignedIn(body, `this.${field}`);
  return value === null ? {} : trace(t, value);
}
