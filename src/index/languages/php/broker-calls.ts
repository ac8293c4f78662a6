/**
 * PHP message-broker calls, read with the table of `brokers.ts` once the declarations are known (each fact
 * belongs to the innermost declaration around it). A variable or property holding a declared queue or
 * exchange (`$queue = $context->createQueue('q')`, `list($q, ,) = $channel->queue_declare('')`, a PECL
 * `AMQPExchange` named by `setName()`) stands for the destination it was declared with.
 */
import type { Node } from 'web-tree-sitter';
import { PHP_BROKERS, type PhpBrokerCall, type PhpBrokerLibrary, type PhpSlot } from './brokers.js';
import type { PhpScopes } from './scope.js';
import { named, resolvePhp } from './values.js';
import {
  AmqpTopology,
  destinationOf,
  literalDestination,
  type Destination,
} from '../shared/broker-topology.js';
import { innermostSymbolAt, type FactBuilder } from '../shared/fact-builder.js';
import type { FoundSites, SiteQuery } from '../shared/site-walk.js';
import { startLineOf } from '../shared/tree-utils.js';

/** The calls, constructions and assignments this reader looks at (`collectSites`). */
export const PHP_BROKER_SITES: SiteQuery = {
  sites: new Set(['member_call_expression', 'object_creation_expression', 'assignment_expression']),
  leaves: new Set(['comment', 'integer', 'string']),
};
const MAX_DEPTH = 6;

interface Held {
  readonly destination: Destination;
  readonly kind?: 'queue' | 'exchange';
}

/** Positional and named arguments of a call or `new X(…)`. */
function argumentsOf(call: Node): { readonly positional: Node[]; readonly byName: Map<string, Node> } {
  const list = call.childForFieldName('arguments') ?? named(call).find((child) => child.type === 'arguments');
  const positional: Node[] = [];
  const byName = new Map<string, Node>();
  for (const argument of named(list)) {
    if (argument.type !== 'argument') continue;
    const name = argument.childForFieldName('name')?.text;
    const value = named(argument).pop();
    if (value === undefined) continue;
    if (name === undefined) positional.push(value);
    else byName.set(name, value);
  }
  return { positional, byName };
}

function slotArgument(slot: PhpSlot, call: Node): Node | undefined {
  const { positional, byName } = argumentsOf(call);
  return (
    (slot.name === undefined ? undefined : byName.get(slot.name)) ??
    (slot.position === undefined ? undefined : positional[slot.position])
  );
}

function methodName(node: Node): string {
  if (node.type === 'object_creation_expression')
    return (
      named(node)
        .find((child) => child.type === 'name' || child.type === 'qualified_name')
        ?.text.split('\\')
        .pop() ?? ''
    );
  return node.childForFieldName('name')?.text ?? '';
}

export class PhpBrokerCalls {
  private readonly libraries: readonly PhpBrokerLibrary[];
  private readonly topology = new AmqpTopology();
  /** `list($q, ,) = …` and `$x->setName(…)`, by the variable or property written. */
  private readonly listed = new Map<string, Node>();
  private readonly names = new Map<string, Node>();

  constructor(
    /** The sites of `PHP_BROKER_SITES`. */
    private readonly found: FoundSites,
    private readonly facts: FactBuilder,
    source: string,
    /** The file's scopes, built once for every reader of the file. */
    private readonly scopes: PhpScopes,
  ) {
    this.libraries = PHP_BROKERS.filter((library) => library.evidence.some((text) => source.includes(text)));
  }

  run(): void {
    if (this.libraries.length === 0) return;
    const { nodes, types } = this.found;
    for (const node of nodes) this.record(node);
    nodes.forEach((node, index) => {
      if (types[index] !== 'assignment_expression') this.call(node);
    });
    for (const { fact, owner } of this.topology.resolve())
      this.facts.addContract(fact, owner === undefined ? {} : { owner });
  }

  private record(node: Node): void {
    if (node.type === 'assignment_expression') {
      const left = node.childForFieldName('left');
      const right = node.childForFieldName('right');
      const first =
        left?.type === 'list_literal' || left?.type === 'array_creation_expression'
          ? named(left).map((item) => (item.type === 'array_element_initializer' ? named(item)[0] : item))[0]
          : undefined;
      if (first !== undefined && right !== null) this.listed.set(first.text, right);
    } else if (node.type === 'member_call_expression' && methodName(node) === 'setName') {
      const object = node.childForFieldName('object');
      const value = argumentsOf(node).positional[0];
      if (object !== null && value !== undefined) this.names.set(object.text, value);
    }
  }

  private call(node: Node): void {
    const method = methodName(node);
    for (const library of this.libraries) {
      for (const call of library.calls) {
        if (call.role === 'declare' || !call.methods.includes(method)) continue;
        const line = startLineOf(node);
        const site = {
          line,
          owner: innermostSymbolAt(this.facts.symbols, line),
          via: `${library.lib} ${method}`,
          broker: library.broker,
        };
        if (this.apply(library, call, node, site)) return;
      }
    }
  }

  private apply(
    library: PhpBrokerLibrary,
    call: PhpBrokerCall,
    node: Node,
    site: Parameters<AmqpTopology['publish']>[2],
  ): boolean {
    const read = (slot: PhpSlot | undefined): Held | undefined =>
      slot === undefined ? undefined : this.slotValue(slot, library, node);
    const queue = read(call.queue)?.destination;
    const exchange = read(call.exchange)?.destination;
    const routingKey = read(call.routingKey)?.destination;
    switch (call.role) {
      case 'declare':
        return false;
      case 'bind':
        if (queue === undefined || exchange === undefined) return false;
        this.topology.bind(queue, exchange, routingKey);
        return true;
      case 'consume':
        if (queue === undefined) return false;
        this.topology.consume(queue, site);
        return true;
      case 'publish': {
        const target = read(call.destination);
        if (target !== undefined) {
          if (target.kind === 'exchange') this.topology.publish(target.destination, undefined, site);
          else this.topology.publish(literalDestination(''), target.destination, site);
          return true;
        }
        return this.topology.publishCall(exchange, routingKey, call.exchange?.receiver === true, site);
      }
    }
  }

  private slotValue(slot: PhpSlot, library: PhpBrokerLibrary, node: Node): Held | undefined {
    if (slot.receiver === true) {
      const object = node.childForFieldName('object');
      return object === null ? undefined : this.held(object, library, 0);
    }
    const argument = slotArgument(slot, node);
    return argument === undefined ? undefined : this.value(argument, library);
  }

  private value(node: Node, library: PhpBrokerLibrary): Held {
    return (
      this.held(node, library, 0) ?? {
        destination: destinationOf(resolvePhp(node, this.scopes.scopeAt(node)), node.text),
      }
    );
  }

  /** What a variable, property, declaration or `->name` read holds, when it is a declared destination. */
  private held(node: Node, library: PhpBrokerLibrary, depth: number): Held | undefined {
    if (depth > MAX_DEPTH) return undefined;
    const next = (inner: Node): Held | undefined => this.held(inner, library, depth + 1);
    const listed = this.listed.get(node.text);
    if (listed !== undefined) return next(listed);
    if (node.type === 'variable_name' || node.type === 'member_access_expression') {
      const value = this.scopes.valueOf(node);
      if (value?.type === 'object_creation_expression') return this.namedObject(node, value, library);
      if (value !== undefined) return next(value);
      const object = node.type === 'member_access_expression' ? node.childForFieldName('object') : null;
      return object !== null && node.childForFieldName('name')?.text === 'name' ? next(object) : undefined;
    }
    if (node.type === 'member_call_expression') {
      const method = methodName(node);
      const object = node.childForFieldName('object');
      if ((method === 'getQueueName' || method === 'getTopicName' || method === 'getName') && object !== null)
        return next(object);
      const declaration = library.calls.find(
        (call) => call.role === 'declare' && call.methods.includes(method),
      );
      if (declaration === undefined) return undefined;
      const kind = declaration.declares;
      const slot = declaration.queue ?? declaration.exchange;
      const argument = slot === undefined ? undefined : slotArgument(slot, node);
      const serverNamed = { destination: { name: '', identity: `#${node.startIndex}` }, kind };
      if (declaration.serverNamed === true || argument === undefined) return serverNamed;
      const destination = this.value(argument, library).destination;
      return destination.name === '' ? serverNamed : { destination, kind };
    }
    return undefined;
  }

  /** A PECL `AMQPExchange`/`AMQPQueue`: its `setName()` value, else the default exchange or a server-named queue. */
  private namedObject(variable: Node, creation: Node, library: PhpBrokerLibrary): Held | undefined {
    const entry = library.named?.find((item) => item.class === methodName(creation));
    if (entry === undefined) return undefined;
    const name = this.names.get(variable.text);
    if (name !== undefined)
      return { destination: this.value(name, library).destination, kind: entry.declares };
    const destination =
      entry.declares === 'exchange'
        ? literalDestination('')
        : { name: '', identity: `#${creation.startIndex}` };
    return { destination, kind: entry.declares };
  }
}
