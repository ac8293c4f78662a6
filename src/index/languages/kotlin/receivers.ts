/**
 * Kotlin call receivers: the object a call is made on when the source does not write it (inside the lambda
 * of a scope function the receiver is implicit, `KafkaConsumer(props).apply { subscribe(…) }`,
 * `with(consumer) { … }`, or the lambda's parameter, `consumer.also { it.subscribe(…) }`), and how sure it
 * is that a receiver is of one of the types a contract needs.
 */
import type { Node } from 'web-tree-sitter';
import { callOf, type KtCall, type KtScope, namedChildren, varOf } from './model.js';
import { lastSegment } from '../shared/jvm/common.js';

/** Scope functions whose lambda has the object as `this`. */
const THIS_SCOPE = new Set(['apply', 'run', 'with']);
/** Scope functions whose lambda has the object as its parameter (`it` unless named). */
const IT_SCOPE = new Set(['also', 'let']);
/** Lambdas that keep the enclosing `this` (stdlib iteration and helpers): the walk looks past them. */
const TRANSPARENT = new Set([
  'forEach',
  'forEachIndexed',
  'onEach',
  'map',
  'filter',
  'repeat',
  'takeIf',
  'use',
]);

/** The expression a call is effectively made on: its written receiver, or the one a scope function gives. */
export function effectiveReceiver(call: KtCall): Node | undefined {
  if (call.receiver === undefined) return implicitThis(call.nameNode);
  if (call.receiver.type === 'identifier') return lambdaParameterObject(call.nameNode, call.receiver);
  return call.receiver;
}

/** The call a lambda literal is the trailing lambda of, with the lambda's parameter names. */
function enclosingLambdaCall(lambda: Node): { call: KtCall; params: string[] } | undefined {
  const annotated = lambda.parent;
  const owner = annotated?.type === 'annotated_lambda' ? annotated.parent : null;
  const call = owner?.type === 'call_expression' ? callOf(owner) : undefined;
  if (call === undefined) return undefined;
  const list = namedChildren(lambda).find((n) => n.type === 'lambda_parameters');
  const params = (list === undefined ? [] : namedChildren(list)).map(
    (p) => p.text.split(':')[0]?.trim() ?? '',
  );
  return { call, params };
}

/** The object of the nearest enclosing `apply`/`run`/`with` lambda, looking past iteration lambdas. */
function implicitThis(from: Node): Node | undefined {
  for (let node = from.parent; node !== null; node = node.parent) {
    if (node.type === 'function_declaration' || node.type === 'class_body') return undefined;
    if (node.type !== 'lambda_literal') continue;
    const owner = enclosingLambdaCall(node);
    if (owner === undefined) return undefined;
    if (THIS_SCOPE.has(owner.call.name)) {
      return owner.call.name === 'with' ? owner.call.args[0]?.value : owner.call.receiver;
    }
    if (!TRANSPARENT.has(owner.call.name) && !IT_SCOPE.has(owner.call.name)) return undefined;
  }
  return undefined;
}

/**
 * `x.also { it.subscribe(…) }` / `x.let { c -> c.subscribe(…) }`: a receiver naming the parameter of the
 * nearest enclosing `also`/`let` lambda is that lambda's object; any other identifier is itself.
 */
function lambdaParameterObject(from: Node, receiver: Node): Node | undefined {
  const name = receiver.text;
  for (let node = from.parent; node !== null; node = node.parent) {
    if (node.type === 'function_declaration' || node.type === 'class_body') break;
    if (node.type !== 'lambda_literal') continue;
    const owner = enclosingLambdaCall(node);
    if (owner === undefined) break;
    const declared =
      owner.params.length === 0 ? 'it' : owner.params.length === 1 ? owner.params[0] : undefined;
    if (declared === name) return IT_SCOPE.has(owner.call.name) ? owner.call.receiver : undefined;
    // Any other lambda declaring the name hides the outer ones.
    if (owner.params.includes(name)) return undefined;
  }
  return receiver;
}

/**
 * The class a constructor call builds, also through scope functions returning their object:
 * `KafkaConsumer<K, V>(props)` and `KafkaConsumer(props).apply { … }` → `KafkaConsumer`.
 */
export function constructedType(node: Node, depth = 0): string | undefined {
  if (node.type !== 'call_expression' || depth > 4) return undefined;
  const call = callOf(node);
  if (call === undefined) return undefined;
  if (call.receiver === undefined) return /^[A-Z]/.test(call.name) ? call.name : undefined;
  return call.name === 'apply' || call.name === 'also'
    ? constructedType(call.receiver, depth + 1)
    : undefined;
}

/**
 * `exact` for a receiver of a known matching type, `heuristic` for an unknown type with a telling name.
 * The type is the declared one, else what `typeOfValue` reads from the receiver or its variable's
 * initialiser (by default a constructor call).
 */
export function receiverConfidence(
  receiver: Node,
  scope: KtScope,
  types: ReadonlySet<string>,
  pattern: RegExp,
  typeOfValue: (value: Node) => string | undefined = constructedType,
): 'exact' | 'heuristic' | undefined {
  const variable = varOf(receiver, scope);
  let type = variable?.type ?? typeOfValue(receiver);
  if (type === undefined && variable?.init !== undefined) type = typeOfValue(variable.init);
  if (type !== undefined) return types.has(lastSegment(type)) ? 'exact' : undefined;
  const name = lastSegment(receiver.text.replace(/\s+/g, ''));
  return (receiver.type === 'identifier' || receiver.type === 'navigation_expression') && pattern.test(name)
    ? 'heuristic'
    : undefined;
}
