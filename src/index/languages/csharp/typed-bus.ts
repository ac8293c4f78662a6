/**
 * Buses keyed by message type (MassTransit, NServiceBus, Rebus, eShop-style integration event buses): the
 * topic is the message's type name. A publish names it by a generic argument, a `new T(…)` or a variable of
 * a known type; a subscription by its generic argument; a handler by the interface it implements.
 */
import type { Node } from 'web-tree-sitter';
import { ABSTRACT_MESSAGE_TYPES, type TypedBusLibrary } from './brokers.js';
import type { CsBinding } from './contracts.js';
import { asWritten, stringOf, unwrap, type Arguments } from './destination.js';
import type { TopicEmitter, TopicFact } from './messaging-types.js';
import type { CsFrame } from './scope.js';
import { csArguments, csDotted, kids, type CsValueScope } from './values.js';
import { startLineOf } from '../shared/tree-utils.js';

export interface BusSite {
  readonly node: Node;
  readonly method: string;
  readonly typeArguments: readonly Node[];
  readonly receiverName: string;
  readonly binding: CsBinding | undefined;
  readonly args: Arguments;
  readonly values: CsValueScope;
  readonly frame: CsFrame;
  readonly line: number;
  readonly owner: number | undefined;
}

/** Type parameters (`T`, `TEvent`) stand for any message. */
const TYPE_PARAMETER = /^T([A-Z]\w*)?$/;

/** A type's simple name: `Shop.Events.OrderPlaced` → `OrderPlaced`, `Envelope<X>` → `Envelope`. */
function simpleName(type: Node | null | undefined): string | undefined {
  if (type === null || type === undefined) return undefined;
  if (type.type === 'nullable_type') return simpleName(kids(type)[0]);
  return csDotted(type)?.split('.').pop();
}

function isConcrete(name: string | undefined): name is string {
  return name !== undefined && !ABSTRACT_MESSAGE_TYPES.has(name) && !TYPE_PARAMETER.test(name);
}

/** The type argument list of a generic name (`IConsumer<OrderPlaced>` → [OrderPlaced]). */
export function typeArgumentsOf(node: Node | null | undefined): Node[] {
  if (node?.type === 'qualified_name') return typeArgumentsOf(node.childForFieldName('name'));
  if (node?.type !== 'generic_name') return [];
  return kids(kids(node).find((child) => child.type === 'type_argument_list'));
}

/** A call of a library the file does not import that is distinctive enough to count (see `unimported`). */
function standsAlone(site: BusSite, library: TypedBusLibrary): boolean {
  if (library.unimported === undefined) return false;
  if (library.subscribe.includes(site.method)) return site.typeArguments.length >= 2;
  return library.publish.includes(site.method) && library.unimported.test(site.receiverName);
}

export class CsTypedBus {
  /**
   * The message types a local or parameter may hold, per frame (`var e = new OrderPlaced(…)` →
   * OrderPlaced); a variable of a base type collects the types assigned to it in its branches.
   */
  private readonly types = new WeakMap<CsFrame, Map<string, string[]>>();
  private readonly pending: {
    readonly fact: TopicFact;
    readonly owner: number | undefined;
    readonly library: TypedBusLibrary;
  }[] = [];
  /** Whether the library of the call being read is imported (else its facts are heuristic). */
  private imported = true;
  /** The broker MassTransit is configured on in this file (`x.UsingRabbitMq(…)`: amqp). */
  private transportBroker: string | undefined;

  constructor(private readonly emit: TopicEmitter) {}

  /** `Type name = value` or a parameter: the message type the name holds, when it says one. */
  declared(frame: CsFrame, name: string, type: Node | null | undefined, value: Node | undefined): void {
    const declaredType = type?.type === 'implicit_type' ? undefined : simpleName(type);
    const created = value === undefined ? undefined : unwrap(value);
    const createdType =
      created?.type === 'object_creation_expression'
        ? simpleName(created.childForFieldName('type'))
        : undefined;
    if (type === undefined) {
      // An assignment: one more type the variable may hold.
      const held = this.typesOf(name, frame);
      if (held !== undefined) {
        if (isConcrete(createdType) && !held.includes(createdType)) held.push(createdType);
        return;
      }
    }
    const known = isConcrete(declaredType) ? declaredType : createdType;
    // A base-typed variable without a value waits for its assignments.
    if (known === undefined && declaredType === undefined) return;
    const map = this.types.get(frame) ?? new Map<string, string[]>();
    map.set(name, isConcrete(known) ? [known] : []);
    this.types.set(frame, map);
  }

  private typesOf(name: string, frame: CsFrame): string[] | undefined {
    for (let current: CsFrame | undefined = frame; current !== undefined; current = current.parent) {
      const known = this.types.get(current)?.get(name);
      if (known !== undefined) return known;
    }
    return undefined;
  }

  transport(broker: string): void {
    this.transportBroker = broker;
  }

  /** A publish, subscription or receive endpoint of `library`; false when the call is none of them. */
  call(site: BusSite, library: TypedBusLibrary, imported: boolean): boolean {
    const { method } = site;
    if (!imported && !standsAlone(site, library)) return false;
    this.imported = imported;
    if (library.endpoints?.includes(method) === true) return this.endpoint(site, library);
    if (method === 'GetSendEndpoint' && library.library === 'MassTransit')
      return this.sendEndpoint(site, library);
    if (library.subscribe.includes(method) && site.typeArguments.length > 0) {
      this.typed(site, library, 'topic_consumer', simpleName(site.typeArguments[0]), site.typeArguments[0]);
      return true;
    }
    if (!library.publish.includes(method)) return false;
    if (library.receiver !== undefined && !library.receiver.test(site.receiverName)) return false;
    // A known client (HttpClient.Send, a gRPC stub) is no bus.
    if (site.binding !== undefined) return false;
    const message = site.args.positional[0];
    if (site.typeArguments.length > 0) {
      this.typed(site, library, 'topic_producer', simpleName(site.typeArguments[0]), site.typeArguments[0]);
    } else if (message !== undefined) {
      const types = this.messageTypes(message, site.frame);
      for (const type of types.length === 0 ? [undefined] : types)
        this.typed(site, library, 'topic_producer', type, message);
    } else {
      return false;
    }
    return true;
  }

  /** `class H : IConsumer<OrderPlaced>`: H consumes OrderPlaced. */
  handlerBase(base: Node, library: TypedBusLibrary, imported: boolean, owner: number, line: number): void {
    this.imported = imported;
    if (!library.handlers.includes(simpleName(base) ?? '')) return;
    const message = typeArgumentsOf(base)[0];
    const name = simpleName(message);
    // A generic handler (`IConsumer<T>`) handles whatever it is given.
    if (message === undefined || !isConcrete(name)) return;
    this.push(
      {
        kind: 'topic_consumer',
        topic: name,
        line,
        confidence: 'exact',
        via: `${library.library} ${simpleName(base)}`,
      },
      owner,
      library,
    );
  }

  /** The types a published message may have: its construction's, else those its variable holds. */
  private messageTypes(message: Node, frame: CsFrame): readonly string[] {
    const inner = unwrap(message);
    if (inner.type === 'object_creation_expression') {
      const created = simpleName(inner.childForFieldName('type'));
      return created === undefined ? [] : [created];
    }
    return inner.type === 'identifier' ? (this.typesOf(inner.text, frame) ?? []) : [];
  }

  private typed(
    site: BusSite,
    library: TypedBusLibrary,
    kind: TopicFact['kind'],
    name: string | undefined,
    written: Node | undefined,
  ): void {
    const via = `${library.library} ${site.method}`;
    const fact: TopicFact = isConcrete(name)
      ? { kind, topic: name, line: site.line, confidence: 'exact', via }
      : {
          kind,
          topic: '',
          unresolved: asWritten(written ?? site.node),
          line: site.line,
          confidence: 'heuristic',
          via,
        };
    this.push(fact, site.owner, library);
  }

  /** `cfg.ReceiveEndpoint("orders", e => …)`: the queue the endpoint reads. */
  private endpoint(site: BusSite, library: TypedBusLibrary): boolean {
    const queue = site.args.positional.find((argument) => stringOf(argument, site.values) !== undefined);
    const name = queue === undefined ? undefined : stringOf(queue, site.values);
    if (queue === undefined || name === undefined || name.text === '') return false;
    const confidence = name.exact ? 'exact' : 'heuristic';
    this.push(
      {
        kind: 'topic_consumer',
        topic: name.text,
        line: site.line,
        confidence,
        via: `${library.library} ${site.method}`,
      },
      site.owner,
      library,
    );
    return true;
  }

  /** `bus.GetSendEndpoint(new Uri("queue:orders"))`: messages sent there go to that queue. */
  private sendEndpoint(site: BusSite, library: TypedBusLibrary): boolean {
    const address = site.args.positional[0];
    const uri = unwrap(address ?? site.node);
    const text =
      uri.type === 'object_creation_expression'
        ? stringOf(csArguments(uri.childForFieldName('arguments')).positional[0] ?? uri, site.values)?.text
        : stringOf(uri, site.values)?.text;
    const queue = /^(?:queue|exchange):([^?]+)/.exec(text ?? '')?.[1];
    if (queue === undefined) return false;
    this.push(
      {
        kind: 'topic_producer',
        topic: queue,
        line: startLineOf(site.node),
        confidence: 'exact',
        via: `${library.library} ${site.method}`,
      },
      site.owner,
      library,
    );
    return true;
  }

  private push(fact: TopicFact, owner: number | undefined, library: TypedBusLibrary): void {
    const known = this.imported ? fact : { ...fact, confidence: 'heuristic' as const };
    this.pending.push({ fact: known, owner, library });
  }

  /** Emits the facts; MassTransit's are on its transport's broker when the file configures one. */
  finish(): void {
    for (const { fact, owner, library } of this.pending) {
      const broker =
        (library.library === 'MassTransit' ? this.transportBroker : undefined) ??
        library.broker ??
        'eventbus';
      this.emit({ ...fact, broker }, owner);
    }
  }
}
