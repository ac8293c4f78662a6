/**
 * Message-broker destinations and the AMQP topology of one file, shared by the languages that read broker
 * client calls. A language's collector turns each argument into a `Destination` with its own value
 * resolution, reports what the file publishes, binds and consumes, and this module decides the topic facts:
 * an AMQP consumer is known by the exchange its queue is bound to in the same file, so bindings and
 * consumers are only matched once the whole file has been read.
 */
import type { Confidence, ContractFact } from '../../facts.js';
import { oneLine, type Parts } from './tree-utils.js';

/** A destination name as the code gives it: resolved text (maybe with placeholders), or the expression. */
export interface Destination {
  /** The name; `''` for AMQP's default exchange or a queue the server names. */
  readonly name?: string;
  /** The expression as written, when `name` could not be resolved. */
  readonly unresolved?: string;
  /** The name holds a `${…}` placeholder resolved later against the service's configuration. */
  readonly placeholder?: boolean;
  /** What makes two uses the same queue: its name, or the declaration or expression that holds it. */
  readonly identity: string;
}

const MAX_UNRESOLVED = 120;

/** The expression text kept on an unresolved fact: one line, at most 120 characters. */
export function unresolvedText(written: string): string {
  const line = oneLine(written);
  return line.length <= MAX_UNRESOLVED ? line : `${line.slice(0, MAX_UNRESOLVED - 1)}…`;
}

/**
 * A destination from resolved parts: literal text, with environment and configuration reads written as
 * placeholders (`${env.NAME:default}`, `${key}`); any unresolved piece leaves the whole name unresolved.
 */
export function destinationOf(parts: Parts, written: string): Destination {
  let name = '';
  let placeholder = false;
  for (const part of parts) {
    if (part.t === 'lit') name += part.v;
    else if (part.t === 'env' || part.t === 'config') {
      const key = part.t === 'env' ? `env.${part.name}` : part.key;
      name += part.fallback === undefined ? `\${${key}}` : `\${${key}:${part.fallback}}`;
      placeholder = true;
    } else {
      const unresolved = unresolvedText(written);
      return { unresolved, identity: `?${unresolved}` };
    }
  }
  return placeholder ? { name, placeholder, identity: `=${name}` } : { name, identity: `=${name}` };
}

/** A literal destination (`''` for AMQP's default exchange). */
export function literalDestination(name: string): Destination {
  return { name, identity: `=${name}` };
}

/**
 * The last segment of a queue URL or a topic ARN (`https://sqs…/123/orders` → `orders`,
 * `arn:aws:sns:…:orders` → `orders`, `projects/p/topics/orders` → `orders`); other names are kept.
 */
export function lastSegment(destination: Destination): Destination {
  const { name } = destination;
  if (name === undefined || destination.placeholder === true) return destination;
  const segment = /[/:]([^/:]+)\/?$/.exec(name)?.[1];
  return segment === undefined ? destination : literalDestination(segment);
}

interface Site {
  readonly line: number;
  readonly owner: number | undefined;
  readonly via: string;
  readonly broker: string;
}

export interface PlacedFact {
  readonly fact: ContractFact;
  readonly owner: number | undefined;
}

function confidenceOf(...destinations: readonly (Destination | undefined)[]): Confidence {
  return destinations.some((d) => d?.placeholder === true || d?.unresolved !== undefined)
    ? 'heuristic'
    : 'exact';
}

/** A topic fact for `destination`: its name, or `topic: ''` with the expression when it is unresolved. */
export function topicFact(
  kind: 'topic_producer' | 'topic_consumer',
  destination: Destination,
  site: Site,
  extra: { readonly routingKey?: Destination; readonly queue?: string } = {},
): ContractFact {
  const { routingKey, queue } = extra;
  const key = routingKey?.name !== undefined && routingKey.name !== '' ? routingKey.name : undefined;
  return {
    kind,
    topic: destination.name ?? '',
    broker: site.broker,
    ...(key === undefined ? {} : { routingKey: key }),
    ...(queue === undefined ? {} : { queue }),
    ...(destination.unresolved === undefined ? {} : { unresolved: destination.unresolved }),
    line: site.line,
    // A key computed at run time is left out of the fact, so only a written one weighs on its confidence.
    confidence: confidenceOf(destination, key === undefined ? undefined : routingKey),
    via: site.via,
  };
}

interface Binding {
  readonly queue: Destination;
  readonly exchange: Destination;
  readonly key?: Destination;
}

/**
 * One file's AMQP publishes, bindings and consumers. A publish to exchange E with key K is a producer of
 * E (with K); to the default exchange it is a producer of the queue K. A consumer of a queue bound in the
 * file consumes each exchange it is bound to; a queue bound to nothing is its own topic, except a queue the
 * server names (an RPC reply queue), which no one else can address and so gives no fact.
 */
export class AmqpTopology {
  private readonly facts: PlacedFact[] = [];
  private readonly bindings: Binding[] = [];
  private readonly consumers: { readonly queue: Destination; readonly site: Site }[] = [];

  publish(exchange: Destination, routingKey: Destination | undefined, site: Site): void {
    // To the default exchange without a key, or to a queue the server named: nothing another service reads.
    if (exchange.name === '' && (routingKey === undefined || routingKey.name === '')) return;
    const fact =
      exchange.name === ''
        ? topicFact('topic_producer', routingKey ?? exchange, site)
        : topicFact('topic_producer', exchange, site, routingKey === undefined ? {} : { routingKey });
    this.facts.push({ fact, owner: site.owner });
  }

  /**
   * A publish call read from its arguments; false when it is some other `publish`: a receiver that should
   * be a declared exchange and is none, or a call naming neither exchange nor key. No exchange argument is
   * the library's default exchange, which routes by queue name.
   */
  publishCall(
    exchange: Destination | undefined,
    routingKey: Destination | undefined,
    receiverIsExchange: boolean,
    site: Site,
  ): boolean {
    if (receiverIsExchange ? exchange === undefined : exchange === undefined && routingKey === undefined)
      return false;
    this.publish(exchange ?? literalDestination(''), routingKey, site);
    return true;
  }

  bind(queue: Destination, exchange: Destination, key: Destination | undefined): void {
    // Binding to the default exchange is implicit and changes nothing.
    if (exchange.name === '') return;
    this.bindings.push(key === undefined ? { queue, exchange } : { queue, exchange, key });
  }

  consume(queue: Destination, site: Site): void {
    this.consumers.push({ queue, site });
  }

  /** Every fact of the file, consumers matched against the bindings of their queue. */
  resolve(): PlacedFact[] {
    const placed = [...this.facts];
    for (const { queue, site } of this.consumers) {
      const bound = this.bindings.filter((binding) => binding.queue.identity === queue.identity);
      if (bound.length === 0) {
        if (queue.name !== '')
          placed.push({ fact: topicFact('topic_consumer', queue, site), owner: site.owner });
        continue;
      }
      const realQueue = queue.name === '' || queue.name === undefined ? undefined : queue.name;
      const seen = new Set<string>();
      for (const { exchange, key } of bound) {
        // Keys computed at run time (from argv) collapse into one fact without a key.
        const routingKey = key?.name === undefined ? undefined : key;
        const signature = `${exchange.identity}\u0000${routingKey?.name ?? ''}`;
        if (seen.has(signature)) continue;
        seen.add(signature);
        const fact = topicFact('topic_consumer', exchange, site, {
          ...(routingKey === undefined ? {} : { routingKey }),
          ...(realQueue === undefined ? {} : { queue: realQueue }),
        });
        placed.push({ fact, owner: site.owner });
      }
    }
    return placed;
  }
}
