/**
 * The one shape of a topic fact built from a destination: a topic (possibly a placeholder the graph
 * resolves) or the expression as written when nothing resolves it, which is kept as unresolved rather
 * than named after a variable.
 */
import type { Node } from 'web-tree-sitter';
import type { ContractFact } from '../../facts.js';
import { oneLine } from './tree-utils.js';

export type TopicRole = 'producer' | 'consumer';

/** A destination: a topic (possibly a placeholder) or the expression that could not be resolved. */
export type Destination =
  { readonly topic: string; readonly inferred: boolean } | { readonly unresolved: string };

/** AMQP detail: the routing or binding key, and the queue a consumer reads. */
export interface TopicExtras {
  readonly routingKey?: string;
  readonly queue?: string;
}

/** Where and how a destination was found. */
export interface TopicSite {
  readonly broker: string;
  readonly via: string;
  readonly line: number;
  readonly symbol?: number;
}

/** `unresolved` is one line of at most this many characters. */
const MAX_WRITTEN = 120;

/** A destination expression as written, for `unresolved`. */
export function written(node: Node): string {
  const text = oneLine(node.text);
  return text.length > MAX_WRITTEN ? text.slice(0, MAX_WRITTEN) : text;
}

export function topicFact(
  role: TopicRole,
  destination: Destination,
  site: TopicSite,
  extras: TopicExtras = {},
): ContractFact {
  const resolved = 'topic' in destination;
  return {
    kind: role === 'producer' ? 'topic_producer' : 'topic_consumer',
    topic: resolved ? destination.topic : '',
    broker: site.broker,
    ...(extras.routingKey === undefined ? {} : { routingKey: extras.routingKey }),
    ...(extras.queue === undefined ? {} : { queue: extras.queue }),
    ...(resolved ? {} : { unresolved: destination.unresolved }),
    ...(site.symbol === undefined ? {} : { symbol: site.symbol }),
    line: site.line,
    confidence: resolved && !destination.inferred ? 'exact' : 'heuristic',
    via: site.via,
  };
}

/** Where a language's extractor adds a fact for the declaration it is in. */
export interface TopicScope {
  readonly symbol?: number;
  readonly file: { readonly facts: { addContract(fact: ContractFact): unknown } };
}

/** Adds the topic fact to the scope's file, on the site's declaration or else the scope's own. */
export function emitTopicIn(
  scope: TopicScope,
  role: TopicRole,
  destination: Destination,
  site: TopicSite,
  extras: TopicExtras = {},
): void {
  const symbol = 'symbol' in site ? site.symbol : scope.symbol;
  scope.file.facts.addContract(
    topicFact(role, destination, { ...site, ...(symbol === undefined ? {} : { symbol }) }, extras),
  );
}

/** An AMQP consumer's reading of one binding of its queue: the exchange, and the binding key when written. */
export interface BoundReading {
  readonly exchange: Destination;
  readonly routingKey?: string;
}

/** The bindings of one queue, each exchange and key once (a queue bound twice the same way is one reading). */
export function distinctBindings(readings: readonly BoundReading[]): BoundReading[] {
  const seen = new Set<string>();
  return readings.filter(({ exchange, routingKey }) => {
    const id = `${JSON.stringify(exchange)}\0${routingKey ?? ''}`;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}
