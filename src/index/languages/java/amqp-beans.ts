/**
 * Spring AMQP topology beans: `@Bean` methods returning a queue, an exchange or a binding. Code in other
 * files refers to them by bean name (`@RabbitListener(queues = "#{orders.name}")`, an injected
 * `TopicExchange orders` field), so the declaring file publishes what they name as properties the graph
 * resolves placeholders and bindings against:
 *
 *   amqp.queue.<bean name>    = <queue name>      `new Queue("q")`, `QueueBuilder.durable("q")…build()`
 *   amqp.exchange.<bean name> = <exchange name>   `new TopicExchange("e")`, `ExchangeBuilder.topicExchange("e")…`
 *   amqp.binding.<queue name> = <exchange name>\t<binding key>
 *                                                 `BindingBuilder.bind(q).to(e).with("k")` (no `with`: key "")
 *
 * A bean is named after its method unless `@Bean("name")` says otherwise. An `AnonymousQueue` (or
 * `QueueBuilder.durable()` with no name) is named by the broker: it has no queue property and its bindings
 * none, since no consumer elsewhere can name it.
 */
import type { Node } from 'web-tree-sitter';
import type { PropertyFact } from '../../facts.js';
import { annotationArg, findAnnotation } from '../shared/jvm/annotations.js';
import { importsUnder } from '../shared/jvm/brokers.js';
import { lastSegment } from '../shared/jvm/common.js';
import { argumentsOf, type JavaClass, type JavaFile, type JavaMethod, JavaResolver } from './model.js';

type DeclarableKind = 'queue' | 'exchange';

/** What a bean expression declares; `name` undefined: a queue the broker names. */
interface Declared {
  readonly kind: DeclarableKind;
  readonly name: string | undefined;
}

interface Bean extends Declared {
  readonly bean: string;
  readonly line: number;
}

const EXCHANGE_CLASSES: ReadonlySet<string> = new Set([
  'TopicExchange',
  'FanoutExchange',
  'DirectExchange',
  'HeadersExchange',
  'CustomExchange',
]);

/** Types an injected exchange is declared with: `getName()` on one names the bean's exchange. */
export const EXCHANGE_TYPES: ReadonlySet<string> = new Set([
  ...EXCHANGE_CLASSES,
  'Exchange',
  'AbstractExchange',
]);

const EXCHANGE_FACTORIES: ReadonlySet<string> = new Set([
  'topicExchange',
  'directExchange',
  'fanoutExchange',
  'headersExchange',
]);

/** The property naming the exchange of bean `bean` (see the key scheme above). */
export const exchangeBeanKey = (bean: string): string => `amqp.exchange.${bean}`;
export const queueBeanKey = (bean: string): string => `amqp.queue.${bean}`;

export function amqpBeanProperties(file: JavaFile, imports: readonly string[]): PropertyFact[] {
  if (!importsUnder(imports, ['org.springframework.amqp'])) return [];
  const beanMethods = file.classes.flatMap((cls) =>
    cls.methods
      .filter((method) => findAnnotation(method.annotations, 'Bean') !== undefined)
      .map((method) => ({ cls, method })),
  );
  const beans: Bean[] = [];
  for (const { cls, method } of beanMethods) {
    const returned = returnedExpression(method);
    const declared = returned === undefined ? undefined : declaredBy(returned, file, cls);
    if (declared !== undefined)
      beans.push({ ...declared, bean: beanName(method, file, cls), line: method.line });
  }
  const out: PropertyFact[] = [];
  for (const bean of beans) {
    if (bean.name === undefined) continue;
    const key = bean.kind === 'queue' ? queueBeanKey(bean.bean) : exchangeBeanKey(bean.bean);
    out.push({ key, value: bean.name, line: bean.line });
  }
  for (const { cls, method } of beanMethods) {
    const returned = returnedExpression(method);
    const binding = returned === undefined ? undefined : bindingOf(returned, file, cls, method, beans);
    if (binding === undefined) continue;
    out.push({
      key: `amqp.binding.${binding.queue}`,
      value: `${binding.exchange}\t${binding.key}`,
      line: method.line,
    });
  }
  const seen = new Set<string>();
  return out.filter((fact) => {
    const id = `${fact.key}=${fact.value}`;
    return !seen.has(id) && seen.add(id) !== undefined;
  });
}

function beanName(method: JavaMethod, file: JavaFile, cls: JavaClass): string {
  const ann = findAnnotation(method.annotations, 'Bean');
  const node = ann === undefined ? undefined : annotationArg(ann, [undefined, 'value', 'name']);
  const named = node === undefined ? undefined : new JavaResolver(file, cls).strings(node)?.[0];
  return named ?? method.name;
}

function returnedExpression(method: JavaMethod): Node | undefined {
  const statement = method.body?.descendantsOfType('return_statement')[0];
  return statement?.firstNamedChild ?? undefined;
}

/** The first call of a chain (`QueueBuilder.durable("q")` in `QueueBuilder.durable("q").quorum().build()`). */
function chainRoot(node: Node): Node {
  let current = node;
  for (let object = current.childForFieldName('object'); object?.type === 'method_invocation';) {
    current = object;
    object = current.childForFieldName('object');
  }
  return current;
}

/** The queue or exchange an expression creates, if it is one of the Spring AMQP ways of declaring them. */
export function declaredBy(node: Node, file: JavaFile, cls: JavaClass): Declared | undefined {
  const resolver = new JavaResolver(file, cls);
  const firstArg = (call: Node): string | undefined => {
    const arg = argumentsOf(call)[0];
    return arg === undefined ? undefined : resolver.string(arg);
  };
  if (node.type === 'object_creation_expression') {
    const type = lastSegment(node.childForFieldName('type')?.text ?? '');
    if (type === 'AnonymousQueue') return { kind: 'queue', name: undefined };
    if (type === 'Queue') return { kind: 'queue', name: nonEmpty(firstArg(node)) };
    if (EXCHANGE_CLASSES.has(type)) {
      const name = firstArg(node);
      return name === undefined ? undefined : { kind: 'exchange', name };
    }
    return undefined;
  }
  if (node.type !== 'method_invocation') return undefined;
  const root = chainRoot(node);
  const builder = lastSegment(root.childForFieldName('object')?.text ?? '');
  const factory = root.childForFieldName('name')?.text ?? '';
  if (builder === 'QueueBuilder' && (factory === 'durable' || factory === 'nonDurable'))
    return { kind: 'queue', name: nonEmpty(firstArg(root)) };
  if (builder === 'ExchangeBuilder' && EXCHANGE_FACTORIES.has(factory)) {
    const name = firstArg(root);
    return name === undefined ? undefined : { kind: 'exchange', name };
  }
  return undefined;
}

const nonEmpty = (name: string | undefined): string | undefined => (name === '' ? undefined : name);

/**
 * `BindingBuilder.bind(q).to(e).with("k")`: `q` and `e` are the bean method's parameters (resolved to the
 * beans of the same name, or the only bean of their kind in the file, as Spring injects them), calls of
 * bean methods (`bind(orders())`) or inline declarations. Also `new Binding("q", QUEUE, "e", "k", args)`.
 */
function bindingOf(
  node: Node,
  file: JavaFile,
  cls: JavaClass,
  method: JavaMethod,
  beans: readonly Bean[],
): { queue: string; exchange: string; key: string } | undefined {
  const resolver = new JavaResolver(file, cls);
  if (node.type === 'object_creation_expression') {
    if (lastSegment(node.childForFieldName('type')?.text ?? '') !== 'Binding') return undefined;
    const [queue, type, exchange, key] = argumentsOf(node);
    if (queue === undefined || exchange === undefined || !/QUEUE$/.test(type?.text ?? '')) return undefined;
    const queueName = nonEmpty(resolver.string(queue));
    const exchangeName = resolver.string(exchange);
    const keyName = key === undefined ? '' : resolver.string(key);
    if (queueName === undefined || exchangeName === undefined || keyName === undefined) return undefined;
    return { queue: queueName, exchange: exchangeName, key: keyName };
  }
  const links = chainLinks(node);
  const bind = links.find((link) => link.name === 'bind');
  const to = links.find((link) => link.name === 'to');
  if (bind === undefined || to === undefined || lastSegment(bind.object) !== 'BindingBuilder')
    return undefined;
  const queue = bind.arg === undefined ? undefined : beanOperand(bind.arg, 'queue', file, cls, method, beans);
  const exchange =
    to.arg === undefined ? undefined : beanOperand(to.arg, 'exchange', file, cls, method, beans);
  const withKey = links.find((link) => link.name === 'with')?.arg;
  const key = withKey === undefined ? '' : resolver.string(withKey);
  if (queue?.name === undefined || exchange?.name === undefined || key === undefined) return undefined;
  return { queue: queue.name, exchange: exchange.name, key };
}

interface Link {
  readonly name: string;
  readonly object: string;
  readonly arg: Node | undefined;
}

/** The calls of a chain, first call first, with each one's first argument. */
function chainLinks(node: Node): Link[] {
  const links: Link[] = [];
  for (let current: Node | null = node; current?.type === 'method_invocation';) {
    const object: Node | null = current.childForFieldName('object');
    links.unshift({
      name: current.childForFieldName('name')?.text ?? '',
      object: object?.type === 'method_invocation' ? '' : (object?.text ?? ''),
      arg: argumentsOf(current)[0],
    });
    current = object;
  }
  return links;
}

function beanOperand(
  node: Node,
  kind: DeclarableKind,
  file: JavaFile,
  cls: JavaClass,
  method: JavaMethod,
  beans: readonly Bean[],
): Declared | undefined {
  const ofKind = beans.filter((bean) => bean.kind === kind);
  const byName = (name: string): Declared | undefined =>
    ofKind.find((bean) => bean.bean === name) ?? (ofKind.length === 1 ? ofKind[0] : undefined);
  if (node.type === 'identifier' && method.params.includes(node.text)) return byName(node.text);
  if (node.type === 'method_invocation' && argumentsOf(node).length === 0) {
    const called = node.childForFieldName('name')?.text ?? '';
    const object = node.childForFieldName('object');
    if (object === null || object.type === 'this') return ofKind.find((bean) => bean.bean === called);
  }
  const declared = declaredBy(node, file, cls);
  return declared?.kind === kind ? declared : undefined;
}
