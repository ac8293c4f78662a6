/**
 * Topics declared by annotations, shared by Java and Kotlin: listener annotations (`@KafkaListener`,
 * `@RabbitListener`, `@JmsListener`, `@SqsListener`, Dapr `@Topic`), framework channels whose destination is
 * configuration (MicroProfile `@Incoming`/`@Outgoing`/`@Channel`, Spring Cloud Stream `@StreamListener`,
 * `@Input`/`@Output`, `@SendTo`) and Spring Cloud Stream functional beans (`@Bean Consumer<X> name()`).
 * Each library's annotations count only in a file importing it (Kafka's, long recognised without, excepted).
 */
import type { Node } from 'web-tree-sitter';
import {
  annotationArg,
  type AnnotationInfo,
  kafkaListenerTopics,
  type ValueResolver,
} from './annotations.js';
import { importsUnder, streamBinding } from './brokers.js';

export interface AnnotatedTopic {
  readonly role: 'producer' | 'consumer';
  readonly topic: string;
  readonly broker: string;
  readonly routingKey?: string;
  readonly queue?: string;
  readonly unresolved?: string;
  readonly confidence: 'exact' | 'heuristic';
  readonly via: string;
}

export interface AnnotationContext {
  readonly resolver: ValueResolver;
  /**
   * Resolves the destinations listeners name (a topic, queue, exchange), which may be what the file cannot
   * resolve itself (another file's constant as a placeholder); channel and binding names use `resolver`.
   */
  readonly destinations?: ValueResolver;
  readonly nested: (node: Node) => readonly AnnotationInfo[];
  /** The file's import sources. */
  readonly imports: readonly string[];
}

const SPRING_AMQP = ['org.springframework.amqp'];
const SPRING_JMS = ['org.springframework.jms', 'javax.jms', 'jakarta.jms'];
const SPRING_SQS = ['io.awspring.cloud', 'org.springframework.cloud.aws'];
const STREAM = ['org.springframework.cloud.stream'];
const REACTIVE_MESSAGING = ['org.eclipse.microprofile.reactive.messaging', 'io.smallrye.reactive.messaging'];
const DAPR = ['io.dapr'];

/** MicroProfile channel `name` → the topic (Kafka) or address (AMQP) configured for it, else the name. */
export const reactiveChannel = (direction: 'incoming' | 'outgoing', name: string): string =>
  `\${mp.messaging.${direction}.${name}.topic:\${mp.messaging.${direction}.${name}.address:${name}}}`;

/** The topics every annotation of one declaration names. */
export function annotatedTopics(
  anns: readonly AnnotationInfo[],
  context: AnnotationContext,
): AnnotatedTopic[] {
  const out: AnnotatedTopic[] = [];
  const has = (prefixes: readonly string[]): boolean => importsUnder(context.imports, prefixes);
  const destinations = context.destinations ?? context.resolver;
  for (const ann of anns) {
    const read =
      (resolver: ValueResolver) =>
      (names: readonly (string | undefined)[]): readonly string[] => {
        const node = annotationArg(ann, names);
        return node === undefined ? [] : (resolver.strings(node) ?? []);
      };
    const values = read(context.resolver);
    const targets = read(destinations);
    const via = `@${ann.name}`;
    switch (ann.name) {
      case 'KafkaListener':
        for (const topic of kafkaListenerTopics(ann, destinations, context.nested))
          out.push({ role: 'consumer', topic, broker: 'kafka', confidence: confidenceOf(topic), via });
        break;
      case 'StreamListener':
        for (const name of values([undefined, 'value', 'target']))
          out.push(channel('consumer', streamBinding(name), via));
        break;
      case 'Input':
      case 'Output':
        if (has(STREAM))
          for (const name of values([undefined, 'value']))
            out.push(channel(ann.name === 'Input' ? 'consumer' : 'producer', streamBinding(name), via));
        break;
      case 'RabbitListener':
        if (has(SPRING_AMQP)) out.push(...rabbitListener(ann, context));
        break;
      case 'JmsListener':
        if (has(SPRING_JMS)) out.push(...named('jms', targets(['destination']), via));
        break;
      case 'SqsListener':
        if (has(SPRING_SQS)) out.push(...named('sqs', targets([undefined, 'value', 'queueNames']), via));
        break;
      case 'Incoming':
      case 'Outgoing':
        if (has(REACTIVE_MESSAGING)) {
          const direction = ann.name === 'Incoming' ? 'incoming' : 'outgoing';
          for (const name of values([undefined, 'value']))
            out.push(
              channel(
                ann.name === 'Incoming' ? 'consumer' : 'producer',
                reactiveChannel(direction, name),
                via,
              ),
            );
        }
        break;
      case 'Topic':
        if (has(DAPR)) out.push(...named('dapr', targets(['name']), via));
        break;
      default:
        break;
    }
  }
  out.push(...sendTo(anns, context));
  return out;
}

/**
 * A listener's topic is `exact` as written, a configuration placeholder included (the listener reads that
 * key); another file's constant (`${jv:…}`) is `heuristic` until the graph resolves it.
 */
const confidenceOf = (topic: string): AnnotatedTopic['confidence'] =>
  topic.startsWith('${jv:') ? 'heuristic' : 'exact';

const channel = (role: AnnotatedTopic['role'], topic: string, via: string): AnnotatedTopic => ({
  role,
  topic,
  broker: 'channel',
  confidence: 'heuristic',
  via,
});

/** Consumers of literal destinations; a SpEL expression (`#{…}`) is code evaluated at run time. */
function named(broker: string, names: readonly string[], via: string): AnnotatedTopic[] {
  return names.map((name) =>
    name.startsWith('#{')
      ? { role: 'consumer', topic: '', unresolved: name, broker, confidence: 'heuristic', via }
      : {
          role: 'consumer',
          topic: name,
          broker,
          confidence: name.includes('${') ? 'heuristic' : 'exact',
          via,
        },
  );
}

/**
 * `#{orders.name}` (also `#{@orders.name}`, `#{orders.getName()}`): the name of the queue bean `orders`,
 * published by the file declaring the bean as the property `amqp.queue.orders`. Other SpEL stays as written.
 */
function queueBeanRef(name: string): string {
  const bean = /^#\{\s*@?(\w+)\s*\.\s*(?:name|getName\(\s*\))\s*\}$/.exec(name)?.[1];
  return bean === undefined ? name : `\${amqp.queue.${bean}}`;
}

/**
 * `@RabbitListener(queues = "q")` consumes q (`#{bean.name}` names a bean's queue: `${amqp.queue.bean}`);
 * `queuesToDeclare = @Queue("q")` likewise; `bindings = @QueueBinding(value = @Queue("q"), exchange =
 * @Exchange("e"), key = {"k"})` consumes exchange e with each binding key.
 */
function rabbitListener(ann: AnnotationInfo, context: AnnotationContext): AnnotatedTopic[] {
  const via = '@RabbitListener';
  const resolver = context.destinations ?? context.resolver;
  const strings = (node: Node | undefined): readonly string[] =>
    node === undefined ? [] : (resolver.strings(node) ?? []);
  const out = named('amqp', strings(annotationArg(ann, ['queues'])).map(queueBeanRef), via);
  const declared = annotationArg(ann, ['queuesToDeclare']);
  for (const queue of declared === undefined ? [] : context.nested(declared))
    out.push(...named('amqp', strings(annotationArg(queue, [undefined, 'value', 'name'])), via));
  const bindings = annotationArg(ann, ['bindings']);
  for (const binding of bindings === undefined ? [] : context.nested(bindings)) {
    if (binding.name !== 'QueueBinding') continue;
    const inner = (name: string): AnnotationInfo | undefined => {
      const node = annotationArg(binding, [name]);
      return node === undefined ? undefined : context.nested(node)[0];
    };
    const queueAnn = inner('value');
    const exchangeAnn = inner('exchange');
    const queue =
      queueAnn === undefined ? undefined : strings(annotationArg(queueAnn, [undefined, 'value', 'name']))[0];
    const exchange =
      exchangeAnn === undefined
        ? undefined
        : strings(annotationArg(exchangeAnn, [undefined, 'value', 'name']))[0];
    if (exchange === undefined || exchange === '') {
      if (queue !== undefined && queue !== '') out.push(...named('amqp', [queue], via));
      continue;
    }
    const keys = strings(annotationArg(binding, ['key']));
    for (const key of keys.length === 0 ? [''] : keys) {
      out.push({
        role: 'consumer',
        topic: exchange,
        broker: 'amqp',
        ...(queue === undefined || queue === '' ? {} : { queue }),
        ...(key === '' ? {} : { routingKey: key }),
        confidence: exchange.includes('${') ? 'heuristic' : 'exact',
        via,
      });
    }
  }
  return out;
}

/** `@SendTo("x")` on a listener method: the reply goes to topic x (Kafka) or binding x (Spring Cloud Stream). */
function sendTo(anns: readonly AnnotationInfo[], context: AnnotationContext): AnnotatedTopic[] {
  const reply = anns.find((ann) => ann.name === 'SendTo');
  const node = reply === undefined ? undefined : annotationArg(reply, [undefined, 'value']);
  if (node === undefined) return [];
  if (anns.some((ann) => ann.name === 'KafkaListener'))
    return ((context.destinations ?? context.resolver).strings(node) ?? []).map((topic) => ({
      role: 'producer',
      topic,
      broker: 'kafka',
      confidence: confidenceOf(topic),
      via: '@SendTo',
    }));
  if (anns.some((ann) => ann.name === 'StreamListener'))
    return (context.resolver.strings(node) ?? []).map((name) =>
      channel('producer', streamBinding(name), '@SendTo'),
    );
  return [];
}

/** The Spring Cloud Stream functional interfaces: which bindings a bean of that type has. */
const FUNCTIONAL_BINDINGS: Readonly<Record<string, readonly ('in' | 'out')[]>> = {
  Consumer: ['in'],
  Function: ['in', 'out'],
  Supplier: ['out'],
};

/**
 * `@Bean Consumer<X> name()` (or `Function`, `Supplier`) in a file that uses Spring Cloud Stream: the bean
 * is bound to `name-in-0` / `name-out-0`, whose destination is configuration (the binding name by default).
 */
export function functionalBindings(
  anns: readonly AnnotationInfo[],
  name: string,
  returnType: string | undefined,
  imports: readonly string[],
): AnnotatedTopic[] {
  if (!anns.some((ann) => ann.name === 'Bean') || returnType === undefined) return [];
  if (!importsUnder(imports, [...STREAM, 'org.springframework.cloud.function'])) return [];
  const bindings = FUNCTIONAL_BINDINGS[returnType.replace(/^java\.util\.function\./, '')] ?? [];
  return bindings.map((direction) =>
    channel(
      direction === 'in' ? 'consumer' : 'producer',
      streamBinding(`${name}-${direction}-0`),
      'functional binding',
    ),
  );
}

/**
 * A MicroProfile `@Channel("ch")` injection point: an `Emitter` sends to the outgoing channel, a `Multi` or
 * `Publisher` reads the incoming one.
 */
export function injectedChannel(
  anns: readonly AnnotationInfo[],
  type: string | undefined,
  imports: readonly string[],
  resolver: ValueResolver,
): AnnotatedTopic[] {
  const ann = anns.find((candidate) => candidate.name === 'Channel');
  if (ann === undefined || type === undefined || !importsUnder(imports, REACTIVE_MESSAGING)) return [];
  const node = annotationArg(ann, [undefined, 'value']);
  const names = node === undefined ? [] : (resolver.strings(node) ?? []);
  const emitter = /Emitter$/.test(type);
  if (!emitter && !/^(?:Multi|Publisher|Flow\.Publisher|Flowable|Flux)$/.test(type)) return [];
  return names.map((name) =>
    emitter
      ? channel('producer', reactiveChannel('outgoing', name), '@Channel Emitter')
      : channel('consumer', reactiveChannel('incoming', name), '@Channel'),
  );
}
