/**
 * Topic producers and consumers → `produces`/`consumes` edges through one workspace-wide node per topic.
 * A topic written as a placeholder is read the way the service reads it: its configuration (profiles,
 * nested defaults: a MicroProfile channel's topic defaults to the channel name), its deploy-time
 * environment (`${env.NAME}`), or a Go package value or C# or Java constant (`${go:…}`, `${cs:…}`,
 * `${jv:…}`). A destination that stays unknown is listed as unresolved with its place, never dropped and
 * never named after a variable.
 */
import type { ContractFact } from '../facts.js';
import type { IndexedFile } from '../snapshot.js';
import { codeNode, evidenceOf, serviceNode, topicNode } from './code-nodes.js';
import type { DeclaredTopic } from '../services/types.js';
import type { ConfigLookup } from './config-lookup.js';
import type { UnresolvedTopic } from './model.js';
import type { GraphBuilder } from './node-table.js';
import { hasPlaceholder, interpolate, type Lookup } from './placeholders.js';
import { isCodePlaceholder, type PropertyValues } from './property-values.js';

export type TopicFact = Extract<ContractFact, { kind: 'topic_producer' | 'topic_consumer' }>;

/** One topic a fact reaches, with the AMQP routing or binding key and queue of that reading. */
interface TopicReading {
  readonly topic: string;
  readonly routingKey?: string;
  readonly queue?: string;
}

/**
 * `${env.NAME}` reads the service's environment; any other key its configuration, then its environment.
 * The strict reading looks only at the service's own configuration and deploy manifests, so a default
 * written in the code wins over a value another service is deployed with; the broad reading (used when the
 * strict one leaves the topic unknown) also takes a value the whole workspace agrees on.
 */
function topicLookup(config: ConfigLookup, root: string, strict: boolean): Lookup {
  const configured = config.lookupFor(root);
  return (key) => {
    if (key.startsWith('env.'))
      return strict ? config.ownEnv(root, key.slice(4)) : config.env(root, key.slice(4));
    return strict ? (config.property(root, key) ?? config.ownEnv(root, key)) : configured(key);
  };
}

/** The topic key a fact names as its file's root reads it, or undefined when it stays unknown. */
export function resolveTopic(
  topic: string,
  file: IndexedFile,
  values: PropertyValues,
  config: ConfigLookup,
): string | undefined {
  const trimmed = topic.trim();
  if (trimmed === '') return undefined;
  if (isCodePlaceholder(trimmed)) {
    const value = values.resolve(trimmed, file.root, file);
    return value === undefined || hasPlaceholder(value) ? undefined : value.trim() || undefined;
  }
  if (!hasPlaceholder(trimmed)) return trimmed;
  const value =
    interpolate(trimmed, topicLookup(config, file.root, true)) ??
    interpolate(trimmed, topicLookup(config, file.root, false));
  return value === undefined || value.trim() === '' || hasPlaceholder(value) ? undefined : value.trim();
}

export class TopicLinks {
  /** Topic key → the brokers facts named for it. */
  private readonly brokers = new Map<string, Set<string>>();

  constructor(
    private readonly values: PropertyValues,
    private readonly config: ConfigLookup,
  ) {}

  link(builder: GraphBuilder, file: IndexedFile, fact: TopicFact): void {
    const key = resolveTopic(fact.topic, file, this.values, this.config);
    if (key === undefined) {
      codeNode(builder, file, fact.symbol);
      builder.unresolvedTopic(this.unresolvedOf(file, fact));
      return;
    }
    const from = codeNode(builder, file, fact.symbol);
    const kind = fact.kind === 'topic_producer' ? 'produces' : 'consumes';
    for (const reading of this.readingsOf(file, fact, key)) {
      if (fact.broker !== undefined) this.noteBroker(reading.topic, fact.broker);
      const detail = {
        ...(reading.routingKey === undefined ? {} : { routingKey: reading.routingKey }),
        ...(reading.queue === undefined ? {} : { queue: reading.queue }),
      };
      const to = topicNode(builder, reading.topic);
      builder.edge(from, to, kind, fact.confidence, { ...evidenceOf(file, fact), ...detail });
    }
  }

  /**
   * Where a fact's messages go: its own topic, or, for an AMQP consumer of a queue its file binds to
   * nothing, the exchanges other files of its root bind that queue to (`amqp.binding.<queue>` properties:
   * a Spring `Binding` bean, a topology module), one reading per binding.
   */
  private readingsOf(file: IndexedFile, fact: TopicFact, key: string): TopicReading[] {
    const own: TopicReading = {
      topic: key,
      ...(fact.routingKey === undefined ? {} : { routingKey: fact.routingKey }),
      ...(fact.queue === undefined ? {} : { queue: fact.queue }),
    };
    if (fact.kind !== 'topic_consumer' || fact.broker !== 'amqp' || fact.queue !== undefined) return [own];
    const bindings = new Set(this.values.valuesIn(file.root, `amqp.binding.${key}`).map((v) => v.value));
    const readings = [...bindings].flatMap((binding): TopicReading[] => {
      const [exchange = '', routingKey = ''] = binding.split('\t');
      if (exchange.trim() === '') return [];
      return [{ topic: exchange.trim(), queue: key, ...(routingKey === '' ? {} : { routingKey }) }];
    });
    return readings.length > 0 ? readings : [own];
  }

  /** Topics a root's service is declared to produce or consume outside its code: edges from its service node. */
  linkDeclared(builder: GraphBuilder, root: string, topics: readonly DeclaredTopic[]): void {
    for (const declared of topics) {
      this.noteBroker(declared.topic, declared.broker);
      builder.edge(
        serviceNode(builder, root),
        topicNode(builder, declared.topic),
        declared.role === 'producer' ? 'produces' : 'consumes',
        'exact',
        { root, file: declared.file, line: declared.line, via: declared.via },
      );
    }
  }

  private noteBroker(topic: string, broker: string): void {
    const set = this.brokers.get(topic) ?? this.brokers.set(topic, new Set()).get(topic);
    set?.add(broker);
  }

  /** Each topic node gets the brokers its facts named, joined (`amqp`, `dapr+kafka`). */
  annotateNodes(builder: GraphBuilder): void {
    for (const [key, set] of this.brokers)
      if (set.size > 0) builder.annotate(topicNode(builder, key), { broker: [...set].sort().join('+') });
  }

  private unresolvedOf(file: IndexedFile, fact: TopicFact): UnresolvedTopic {
    const written = fact.unresolved ?? fact.topic;
    return {
      root: file.root,
      file: file.path,
      line: fact.line,
      role: fact.kind === 'topic_producer' ? 'producer' : 'consumer',
      topic: written,
      ...(fact.broker === undefined ? {} : { broker: fact.broker }),
      via: fact.via,
      reason:
        fact.unresolved !== undefined
          ? 'destination is an expression the index cannot evaluate'
          : `no configuration or environment value for ${written}`,
    };
  }
}
