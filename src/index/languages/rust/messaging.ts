/**
 * Rust producers and consumers of the crates in brokers.ts, and the value reading they share with the
 * RabbitMQ model (amqp.ts): a destination is a literal, a const, a `let` (through `String::from`, `.into()`,
 * `&`), or an environment read (`std::env::var("NAME")` → `${env.NAME}`, with `unwrap_or("x")` as default);
 * anything else is kept as written (`unresolved`).
 */
import type { Node } from 'web-tree-sitter';
import { RUST_CALL_RULES } from './brokers.js';
import {
  argumentsOf,
  methodCall,
  peel,
  rustString,
  stringValue,
  valuesOf,
  type RustFile,
  type RustScope,
} from './values.js';
import { startLineOf } from '../shared/tree-utils.js';
import { emitTopicIn as emitTopic, written, type Destination } from '../shared/topic-fact.js';

export { emitTopic };
export { written, type Destination, type TopicExtras } from '../shared/topic-fact.js';

/**
 * Per file, what `usesCrate` found. It is asked at every method call of a file (whether the call could be a
 * broker client's), and searching the whole source each time made it one of the costliest steps of Rust
 * extraction; the answer cannot change once the file's `use` declarations are read, which happens first.
 */
const crateUse = new WeakMap<RustFile, Map<string, boolean>>();

/** Whether the file uses `crate` (a `use` of it, or a path through it). */
export function usesCrate(file: RustFile, crate: string): boolean {
  let known = crateUse.get(file);
  if (known === undefined) crateUse.set(file, (known = new Map()));
  let uses = known.get(crate);
  if (uses === undefined) {
    const pattern = new RegExp(`^${crate}(::|$)`);
    uses = [...file.uses.values()].some((p) => pattern.test(p)) || file.source.includes(`${crate}::`);
    known.set(crate, uses);
  }
  return uses;
}

/** `String::from(x)` and `x.to_string()` denote x. */
export function unwrapString(node: Node): Node {
  const expr = peel(node);
  const fn = expr.type === 'call_expression' ? expr.childForFieldName('function') : null;
  const args = argumentsOf(expr);
  if (fn?.text.replace(/\s+/g, '') === 'String::from' && args.length === 1 && args[0] !== undefined)
    return unwrapString(args[0]);
  return expr;
}

/** The destination an expression names; undefined for an empty string (the default exchange, a server name). */
export function destinationOf(node: Node, scope: RustScope, depth = 0): Destination | undefined {
  const expr = unwrapString(node);
  const value = stringValue(expr, scope);
  if (value !== undefined) return value === '' ? undefined : { topic: value, inferred: false };
  if (expr.type === 'identifier' && depth < 4) {
    const values = valuesOf(expr.text, scope);
    const only = values?.length === 1 ? values[0] : undefined;
    if (only !== undefined) {
      const inner = destinationOf(only, scope, depth + 1);
      if (inner === undefined || 'topic' in inner) return inner;
    }
  }
  const env = envRead(expr);
  return env === undefined ? { unresolved: written(expr) } : { topic: env, inferred: true };
}

/** `std::env::var("NAME")`, optionally `.unwrap_or("default")` / `.unwrap_or_else(|_| "default".into())`. */
function envRead(expr: Node): string | undefined {
  const call = methodCall(expr);
  let fallback: string | undefined;
  let inner = expr;
  if (call !== undefined && /^unwrap_or(_else)?$/.test(call.name)) {
    const arg = argumentsOf(expr)[0];
    const body = arg?.type === 'closure_expression' ? arg.childForFieldName('body') : arg;
    fallback = body === undefined || body === null ? undefined : rustString(peel(body));
    if (fallback === undefined) return undefined;
    inner = peel(call.receiver);
  }
  if (inner.type !== 'call_expression') return undefined;
  const fn = inner.childForFieldName('function')?.text.replace(/\s+/g, '') ?? '';
  const name = argumentsOf(inner)[0];
  const key = /^(std::)?env::var$/.test(fn) && name !== undefined ? rustString(peel(name)) : undefined;
  if (key === undefined) return undefined;
  return fallback === undefined ? `\${env.${key}}` : `\${env.${key}:${fallback}}`;
}

/** Emits the facts of a method call of a crate in the table; true when one matched. */
export function onMessagingCall(call: Node, method: string, scope: RustScope): boolean {
  const args = argumentsOf(call);
  for (const rule of RUST_CALL_RULES) {
    if (!rule.methods.includes(method) || !rule.args.includes(args.length)) continue;
    if (!usesCrate(scope.file, rule.crate)) continue;
    const target = args[rule.destination];
    const destination = target === undefined ? undefined : destinationOf(target, scope);
    if (destination !== undefined) {
      const via = `${rule.crate.replace(/_/g, '-')} ${method}`;
      emitTopic(scope, rule.role, destination, { broker: rule.broker, via, line: startLineOf(call) });
    }
    return true;
  }
  return false;
}
