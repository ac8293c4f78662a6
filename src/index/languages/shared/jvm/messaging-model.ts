/**
 * The call sites messaging recognition reads, as each JVM language presents them: a method name, its
 * receiver and its arguments already resolved through the language's own value resolution.
 */
import type { ContractFact } from '../../../facts.js';
import { lastSegment } from './common.js';

export type TopicFact = Extract<ContractFact, { kind: 'topic_producer' | 'topic_consumer' }>;

export interface CallArg {
  /** The argument as written, on one line and at most 120 characters. */
  readonly text: string;
  /** Every string it denotes (a literal, a constant, a list of those); undefined when it cannot be resolved. */
  readonly values: readonly string[] | undefined;
  /** Resolved through a guess (an environment default): the fact is `heuristic`. */
  readonly inferred?: boolean;
  /** A variable holding a queue the broker named (`channel.queueDeclare().getQueue()`). */
  readonly serverNamed?: boolean;
}

export interface MessagingCall {
  readonly method: string;
  /** `name`: the receiver as written; `type`: its declared type when known; `chained`: it is itself a call. */
  readonly receiver:
    { readonly name: string; readonly type: string | undefined; readonly chained: boolean } | undefined;
  readonly args: readonly CallArg[];
  /**
   * When the receiver is itself a call of the same list, its index there (`a.b().c()`: `c`'s parent is `b`),
   * so builder chains can be read link by link.
   */
  readonly parent?: number;
  readonly line: number;
  readonly symbol: number | undefined;
}

/**
 * Whether a call's receiver is one a library's calls are made on: its declared type is one of `types`;
 * when its type is unknown, a chained call when `chained`, else a name matching `name`.
 */
export function receiverAccepted(
  receiver: MessagingCall['receiver'],
  types: readonly string[],
  name: RegExp,
  chained = false,
): boolean {
  if (receiver === undefined) return false;
  if (receiver.type !== undefined) return types.includes(lastSegment(receiver.type));
  if (receiver.chained) return chained;
  return name.test(lastSegment(receiver.name));
}

/** A destination that could not be resolved: kept, with its expression, never named after a variable. */
export const unresolvedTopic = (text: string): Pick<TopicFact, 'topic' | 'unresolved' | 'confidence'> => ({
  topic: '',
  unresolved: text,
  confidence: 'heuristic',
});

/** An RPC reply goes to the queue the request named (`props.getReplyTo()`): no fixed destination. */
export const isReplyTo = (arg: CallArg): boolean => /reply_?to/i.test(arg.text);

/** The fact with its fields in the order every topic fact is written (stable, readable golden files). */
export function ordered(fact: TopicFact): TopicFact {
  const { kind, topic, broker, routingKey, queue, unresolved, symbol, line, confidence, via } = fact;
  return {
    kind,
    topic,
    ...(broker === undefined ? {} : { broker }),
    ...(routingKey === undefined ? {} : { routingKey }),
    ...(queue === undefined ? {} : { queue }),
    ...(unresolved === undefined ? {} : { unresolved }),
    ...(symbol === undefined ? {} : { symbol }),
    line,
    confidence,
    via,
  };
}
