/**
 * Value helpers the JVM languages share when they present call arguments to messaging recognition.
 */
import type { CallArg } from './messaging-model.js';

/** The longest expression kept as the text of a destination that could not be resolved. */
const MAX_UNRESOLVED = 120;

/** A call argument: its text on one line (cut at 120 characters) and what it resolved to. */
export function callArg(
  text: string,
  values: readonly string[] | undefined,
  inferred: boolean,
  serverNamed: boolean,
): CallArg {
  const line = text.replace(/\s+/g, ' ').trim();
  return {
    text: line.length > MAX_UNRESOLVED ? line.slice(0, MAX_UNRESOLVED) : line,
    values,
    ...(inferred ? { inferred } : {}),
    ...(serverNamed ? { serverNamed } : {}),
  };
}

/**
 * AMQP 1.0 client: `management.queue().exclusive(true).declare()` (or `queue("")`), a queue declared with no
 * `.name(…)` link before `declare()`; its `QueueInfo` (and `.name()` of it) is a name the broker chose.
 * Anchored at the start of the chain: a later `.queue()` link (`.quorum().queue()`) is not a new queue.
 */
const AMQP10_SERVER_NAMED = /^[\w.]*\bqueue\((?:"")?\)(?:(?!\.name\()[^;])*?\.declare\(\)/;

/**
 * `channel.queueDeclare().getQueue()` (Kotlin `.queue`, Scala `.getQueue`), also with an empty name
 * (`queueDeclare("", false, true, true, null)`): a queue the broker names, exclusive to this connection.
 */
export const isServerNamedQueue = (text: string): boolean =>
  /\bqueueDeclare\s*\(\s*(?:""[^)]*)?\)\s*\.\s*(?:getQueue|queue)\b/.test(text) ||
  AMQP10_SERVER_NAMED.test(text.replace(/\s+/g, ''));
