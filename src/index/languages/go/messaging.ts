/**
 * Go producers and consumers of the brokers listed in brokers.ts: a call or a composite literal of a
 * library the file imports, its destination resolved through the file's values (literals, constants,
 * value helpers, `os.Getenv` → `${env.NAME}`, a package-level name of another file → `${go:pkg.Name}`).
 * A destination that cannot be resolved is kept as written (`unresolved`), never named after a variable.
 */
import type { Node } from 'web-tree-sitter';
import { CALL_RULES, COMPOSITE_RULES, type CallRule, type Shape } from './brokers.js';
import { keyedFields } from './events.js';
import { agree, argumentsOf, goStringLiteral, unwrapParens, type GoFile, type GoScope } from './scope.js';
import { topicValue } from './values.js';
import { startLineOf } from '../shared/tree-utils.js';
import { emitTopicIn as emitTopic, written, type Destination } from '../shared/topic-fact.js';

export { emitTopic };
export { written, type Destination, type TopicExtras } from '../shared/topic-fact.js';

/** Import paths of the file matching `pattern`, cached per file: every call asks. */
const importCache = new WeakMap<GoFile, Map<RegExp, boolean>>();

export function imports(file: GoFile, pattern: RegExp): boolean {
  let cache = importCache.get(file);
  if (cache === undefined) importCache.set(file, (cache = new Map()));
  let found = cache.get(pattern);
  if (found === undefined) {
    found = [...file.imports.values()].some((path) => pattern.test(path));
    cache.set(pattern, found);
  }
  return found;
}

/**
 * The value a destination expression holds. `aws.String(x)` and `&x` are seen through; an empty string is
 * no destination (undefined).
 */
export function destinationOf(node: Node, scope: GoScope, shape?: Shape): Destination | undefined {
  const expr = unwrapped(node);
  const env = envRead(expr, scope);
  if (env !== undefined) return { topic: env, inferred: true };
  const value = topicValue(expr, scope);
  if (value === undefined) return { unresolved: written(expr) };
  const topic = shape === undefined || value.value.includes('${') ? value.value : shaped(value.value, shape);
  return topic.trim() === '' ? undefined : { topic, inferred: value.inferred };
}

function unwrapped(node: Node): Node {
  let expr = unwrapParens(node);
  for (;;) {
    if (expr.type === 'unary_expression' && expr.child(0)?.type === '&') {
      expr = unwrapParens(expr.childForFieldName('operand') ?? expr);
      continue;
    }
    const fn = expr.type === 'call_expression' ? expr.childForFieldName('function') : null;
    const only = argumentsOf(expr);
    if (fn?.type === 'selector_expression' && fn.text === 'aws.String' && only.length === 1 && only[0]) {
      expr = unwrapParens(only[0]);
      continue;
    }
    return expr;
  }
}

/**
 * `os.Getenv("NAME")` → `${env.NAME}`, and a same-file env helper `getEnv("NAME", "default")` →
 * `${env.NAME:default}`, directly or through a local variable.
 */
function envRead(node: Node, scope: GoScope, depth = 0): string | undefined {
  const expr = unwrapParens(node);
  if (expr.type === 'identifier' && depth < 4) {
    return agree(scope.lookup(expr.text), (b) =>
      b.value === undefined ? undefined : envRead(b.value, scope, depth + 1),
    );
  }
  if (expr.type !== 'call_expression') return undefined;
  const fn = expr.childForFieldName('function');
  const args = argumentsOf(expr);
  const literal = (i: number): string | undefined => {
    const arg = args[i];
    return arg === undefined ? undefined : goStringLiteral(unwrapParens(arg));
  };
  if (fn?.type === 'selector_expression' && fn.text === 'os.Getenv' && scope.packagePath('os') === 'os') {
    const name = literal(0);
    return name === undefined ? undefined : `\${env.${name}}`;
  }
  const helper = fn?.type === 'identifier' ? scope.file.valueFuncs.get(fn.text) : undefined;
  if (helper?.kind === 'param' && args.length === 2) {
    return envPlaceholder(literal(1 - helper.index), literal(helper.index));
  }
  // A helper of another file or package named for what it does: `util.GetEnvVar("TOPIC", "orders")`.
  const callee = fn?.type === 'selector_expression' ? fn.childForFieldName('field')?.text : fn?.text;
  if (helper !== undefined || !/env/i.test(callee ?? '') || args.length === 0 || args.length > 2)
    return undefined;
  return envPlaceholder(literal(0), args.length === 2 ? (literal(1) ?? null) : undefined);
}

/** `${env.NAME}` or `${env.NAME:default}`; nothing when the name is not an environment variable's. */
function envPlaceholder(name: string | undefined, fallback: string | undefined | null): string | undefined {
  if (name === undefined || fallback === null || !/^[A-Z_][A-Z0-9_]*$/.test(name)) return undefined;
  return fallback === undefined ? `\${env.${name}}` : `\${env.${name}:${fallback}}`;
}

function shaped(value: string, shape: Shape): string {
  const separator = shape === 'arn' ? ':' : '/';
  const parts = value.replace(/[/?#]+$/, '').split(shape === 'url' ? /[/?#]/ : separator);
  if (shape === 'url' && !/^[a-z]+:\/\//i.test(value)) return value;
  if (shape === 'arn' && !value.startsWith('arn:')) return value;
  return parts.filter((p) => p !== '').pop() ?? value;
}

/** Whether an argument is a `context.Context`: `ctx`, `context.Background()`, `r.Context()`, a typed name. */
function isContext(node: Node, scope: GoScope): boolean {
  const expr = unwrapParens(node);
  if (expr.type === 'call_expression') {
    const fn = expr.childForFieldName('function');
    if (fn?.type !== 'selector_expression') return false;
    const operand = fn.childForFieldName('operand');
    if (operand?.type === 'identifier' && scope.packagePath(operand.text) === 'context') return true;
    return /^(Context|Ctx)$/.test(fn.childForFieldName('field')?.text ?? '');
  }
  if (expr.type !== 'identifier') return false;
  const typed = scope.lookup(expr.text)?.find((b) => b.type !== undefined)?.type?.text;
  return typed === undefined ? /^(ctx|\w*Ctx)$/.test(expr.text) : /(^|\.)Context$/.test(typed);
}

/** The arguments after the context the rule expects, or undefined when the call does not fit the rule. */
function ruleArguments(rule: CallRule, args: readonly Node[], scope: GoScope): readonly Node[] | undefined {
  const first = args[0];
  const hasContext = first !== undefined && isContext(first, scope);
  if ((rule.context === 'required' && !hasContext) || (rule.context === 'forbidden' && hasContext))
    return undefined;
  const rest = hasContext ? args.slice(1) : args;
  if (rest.length < rule.minArgs || (rule.maxArgs !== undefined && rest.length > rule.maxArgs))
    return undefined;
  return rest;
}

/**
 * The import path of the package a receiver's type or constructor comes from (`rdb *redis.Client`,
 * `nc, _ := nats.Connect(…)`); null when it is a type of this package, which no library's client is;
 * undefined when the code does not say.
 */
export function receiverLibrary(node: Node, scope: GoScope, depth = 0): string | null | undefined {
  const expr = unwrapParens(node);
  if (expr.type !== 'identifier' || depth > 4) return undefined;
  if (scope.receiver?.name === expr.text) return null;
  return agree(
    scope.lookup(expr.text),
    (b) => (b.type !== undefined ? typeLibrary(b.type, scope) : valueLibrary(b.value, scope, depth)),
    (library) => String(library),
  );
}

function typeLibrary(type: Node, scope: GoScope): string | null | undefined {
  const inner = type.type === 'pointer_type' ? type.namedChild(0) : type;
  if (inner?.type === 'type_identifier') return null;
  if (inner?.type !== 'qualified_type') return undefined;
  return scope.packagePath(inner.childForFieldName('package')?.text ?? '');
}

function valueLibrary(value: Node | undefined, scope: GoScope, depth: number): string | null | undefined {
  const expr = value === undefined ? undefined : unwrapParens(value);
  if (expr?.type === 'identifier') return receiverLibrary(expr, scope, depth + 1);
  if (expr?.type === 'composite_literal' || expr?.type === 'unary_expression') {
    const literal = expr.type === 'unary_expression' ? expr.childForFieldName('operand') : expr;
    const type = literal?.type === 'composite_literal' ? literal.childForFieldName('type') : null;
    return type === null || type === undefined ? undefined : typeLibrary(type, scope);
  }
  const fn = expr?.type === 'call_expression' ? expr.childForFieldName('function') : undefined;
  const operand = fn?.type === 'selector_expression' ? fn.childForFieldName('operand') : undefined;
  return operand?.type === 'identifier' ? scope.packagePath(operand.text) : undefined;
}

/** Emits the facts of a method call listed in the table; true when one rule matched. */
export function onMessagingCall(call: Node, method: string, receiver: Node, scope: GoScope): boolean {
  const args = argumentsOf(call);
  const library = CALL_RULES.some((rule) => rule.methods.includes(method))
    ? receiverLibrary(receiver, scope)
    : null;
  if (library === null) return false;
  for (const rule of CALL_RULES) {
    if (!rule.methods.includes(method) || !imports(scope.file, rule.imports)) continue;
    if (library !== undefined && !rule.imports.test(library)) continue;
    const rest = ruleArguments(rule, args, scope);
    if (rest === undefined) continue;
    const fact = { broker: rule.broker, via: `${rule.library} ${method}`, line: startLineOf(call) };
    if (rule.handle !== undefined) {
      const handle = handleCall(receiver, rule.handle.methods, scope);
      const arg = handle === undefined ? undefined : argumentsOf(handle)[rule.handle.argument];
      const destination =
        arg === undefined ? { unresolved: written(receiver) } : destinationOf(arg, scope, rule.shape);
      if (destination !== undefined) emitTopic(scope, rule.role, destination, fact);
      return true;
    }
    const targets = rule.variadic === true ? rest.slice(rule.destination) : [rest[rule.destination]];
    for (const target of targets) {
      const destination = target === undefined ? undefined : destinationOf(target, scope, rule.shape);
      if (destination !== undefined) emitTopic(scope, rule.role, destination, fact);
    }
    return true;
  }
  return false;
}

/** The `client.Topic("orders")` call a receiver was made by, directly or through local variables. */
function handleCall(node: Node, methods: readonly string[], scope: GoScope, depth = 0): Node | undefined {
  const expr = unwrapParens(node);
  if (expr.type === 'identifier' && depth < 4) {
    return agree(
      scope.lookup(expr.text),
      (b) => (b.value === undefined ? undefined : handleCall(b.value, methods, scope, depth + 1)),
      (n) => n.text,
    );
  }
  if (expr.type !== 'call_expression') return undefined;
  const fn = expr.childForFieldName('function');
  const name = fn?.type === 'selector_expression' ? fn.childForFieldName('field')?.text : undefined;
  return name !== undefined && methods.includes(name) ? expr : undefined;
}

/** Emits the facts of a composite literal listed in the table (`&sqs.SendMessageInput{QueueUrl: …}`). */
export function onMessagingComposite(literal: Node, type: Node, scope: GoScope): void {
  const name = type.childForFieldName('name')?.text ?? '';
  const rules = COMPOSITE_RULES.filter((rule) => rule.types.includes(name));
  if (rules.length === 0) return;
  const pkg = scope.packagePath(type.childForFieldName('package')?.text ?? '') ?? '';
  const fields = keyedFields(literal);
  for (const rule of rules) {
    if (!rule.imports.test(pkg)) continue;
    const value = fields.get(rule.field);
    if (value === undefined) continue;
    const fact = {
      broker: rule.broker,
      via: `${rule.library} ${name}`,
      line: startLineOf(value.parent ?? value),
    };
    for (const item of listItems(value, scope, rule.halfList === true)) {
      const destination = destinationOf(item, scope, rule.shape);
      if (destination !== undefined) emitTopic(scope, rule.role, destination, fact);
    }
  }
}

/** The elements of a `[]string{…}` value (its first half for stream/id pairs), or the value itself. */
export function listItems(node: Node, scope: GoScope, half: boolean, depth = 0): Node[] {
  const expr = unwrapParens(node);
  if (expr.type === 'identifier' && depth < 4) {
    const bindings = scope.lookup(expr.text) ?? [];
    const list = bindings.length === 1 ? bindings[0]?.value : undefined;
    if (list !== undefined && unwrapParens(list).type === 'composite_literal')
      return listItems(list, scope, half, depth + 1);
  }
  if (expr.type !== 'composite_literal') return [expr];
  const items = (expr.childForFieldName('body')?.namedChildren ?? []).filter(
    (n): n is Node => n?.type === 'literal_element',
  );
  return (half ? items.slice(0, Math.ceil(items.length / 2)) : items).map((n) => unwrapParens(n));
}
