/**
 * Ruby message-broker calls, read with the table of `brokers.ts` once the declarations are known (each fact
 * belongs to the innermost declaration around it). A name holding a declared queue or exchange
 * (`q = ch.queue('hello')`, `@exchange = ch.fanout('logs')`, or an attribute reader of one) stands for the
 * destination it was declared with, so `q.name`, `q.bind(x)` and `q.subscribe` are read through it.
 */
import type { Node } from 'web-tree-sitter';
import { RUBY_BROKERS, type RubyBrokerCall, type RubyBrokerLibrary, type RubySlot } from './brokers.js';
import type { RubyScopes } from './scope.js';
import { callArgs, named, resolveRuby, rubyLiteral } from './values.js';
import {
  AmqpTopology,
  destinationOf,
  literalDestination,
  topicFact,
  type Destination,
} from '../shared/broker-topology.js';
import { innermostSymbolAt, type FactBuilder } from '../shared/fact-builder.js';
import type { FoundSites, SiteQuery } from '../shared/site-walk.js';
import { startLineOf } from '../shared/tree-utils.js';

/** The calls read once a broker library is in use (`collectSites`). */
export const RUBY_BROKER_SITES: SiteQuery = {
  sites: new Set(['call']),
  leaves: new Set(['comment', 'integer', 'simple_symbol']),
};
const MAX_DEPTH = 6;

interface Site {
  readonly line: number;
  readonly owner: number | undefined;
  readonly via: string;
  readonly broker: string;
}

/** What shows which libraries a file uses (`collectSites`). */
export const RUBY_LIBRARY_SITES: SiteQuery = {
  sites: new Set(['call', 'constant', 'scope_resolution']),
  leaves: new Set(['comment']),
};

/** The libraries a file shows it uses: a `require` of one, or one of its constants. */
function librariesOf(found: FoundSites): RubyBrokerLibrary[] {
  const required = new Set<string>();
  const constants = new Set<string>();
  found.nodes.forEach((node, index) => {
    const type = found.types[index];
    if (type === 'call' && node.childForFieldName('receiver') === null) {
      const method = node.childForFieldName('method')?.text;
      const first = callArgs(node).positional[0];
      if (method === 'require' && first !== undefined) required.add(rubyLiteral(first) ?? '');
    } else if (type === 'constant') constants.add(node.text);
  });
  return RUBY_BROKERS.filter(
    (library) =>
      library.requires.some((path) => required.has(path)) ||
      library.constants.some((constant) => constants.has(constant)),
  );
}

export class RubyBrokerCalls {
  private readonly libraries: readonly RubyBrokerLibrary[];
  private readonly topology = new AmqpTopology();

  constructor(
    /** The sites of `RUBY_LIBRARY_SITES`. */
    librarySites: FoundSites,
    /** The sites of `RUBY_BROKER_SITES`. */
    private readonly calls: FoundSites,
    private readonly facts: FactBuilder,
    /** The file's scopes, built once for every reader of the file. */
    private readonly scopes: RubyScopes,
  ) {
    this.libraries = librariesOf(librarySites);
  }

  run(): void {
    if (this.libraries.length === 0) return;
    for (const node of this.calls.nodes) this.call(node);
    for (const { fact, owner } of this.topology.resolve())
      this.facts.addContract(fact, owner === undefined ? {} : { owner });
  }

  private call(node: Node): void {
    const receiver = node.childForFieldName('receiver');
    const method = node.childForFieldName('method')?.text ?? '';
    for (const library of this.libraries) {
      for (const call of library.calls) {
        if (!call.methods.includes(method) || (call.bare === true) !== (receiver === null)) continue;
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

  private apply(library: RubyBrokerLibrary, call: RubyBrokerCall, node: Node, site: Site): boolean {
    const read = (slot: RubySlot | undefined): Destination[] =>
      slot === undefined ? [] : this.slotValues(slot, library, node);
    switch (call.role) {
      case 'declare':
        return false;
      case 'bind': {
        const [queue] = read(call.queue);
        const [exchange] = read(call.exchange);
        if (queue === undefined || exchange === undefined) return false;
        this.topology.bind(queue, exchange, read(call.routingKey)[0]);
        return true;
      }
      case 'publish': {
        if (library.amqp !== true) return this.topics('topic_producer', read(call.topic), site);
        const [exchange] = read(call.exchange);
        const [routingKey] = read(call.routingKey);
        return this.topology.publishCall(exchange, routingKey, call.exchange?.receiver === true, site);
      }
      case 'consume': {
        if (library.amqp !== true) return this.topics('topic_consumer', read(call.topic), site);
        const [queue] = read(call.queue);
        if (queue === undefined) return false;
        const [exchange] = read(call.exchange);
        if (exchange !== undefined) {
          const keys = read(call.routingKey);
          for (const key of keys.length === 0 ? [undefined] : keys) this.topology.bind(queue, exchange, key);
        }
        this.topology.consume(queue, site);
        return true;
      }
    }
  }

  private topics(
    kind: 'topic_producer' | 'topic_consumer',
    destinations: Destination[],
    site: Site,
  ): boolean {
    for (const destination of destinations) {
      if (destination.name === '') continue;
      this.facts.addContract(
        topicFact(kind, destination, site),
        site.owner === undefined ? {} : { owner: site.owner },
      );
    }
    return destinations.length > 0;
  }

  /** The destinations a slot gives: none when the argument is absent or the receiver is nothing declared. */
  private slotValues(slot: RubySlot, library: RubyBrokerLibrary, node: Node): Destination[] {
    if (slot.receiver === true) {
      const receiver = node.childForFieldName('receiver');
      if (receiver === null) return [];
      if (receiver.type === 'call' && receiver.childForFieldName('method')?.text === library.defaultExchange)
        return [literalDestination('')];
      const held = this.held(receiver, library, 0);
      return held === undefined ? [] : [held];
    }
    const { positional, options } = callArgs(node);
    const argument =
      (slot.option === undefined ? undefined : options.get(slot.option)) ??
      (slot.position === undefined ? undefined : positional[slot.position]);
    if (argument === undefined) return [];
    const items = argument.type === 'array' ? named(argument) : [argument];
    return items.map((item) => this.destination(item, library));
  }

  private destination(node: Node, library: RubyBrokerLibrary): Destination {
    return (
      this.held(node, library, 0) ?? destinationOf(resolveRuby(node, this.scopes.scopeAt(node)), node.text)
    );
  }

  /**
   * The destination an expression holds when it is a declaration (`ch.queue('q')`), a variable or an
   * attribute reader assigned one, its `name`, or the default exchange.
   */
  private held(node: Node, library: RubyBrokerLibrary, depth: number): Destination | undefined {
    if (depth > MAX_DEPTH) return undefined;
    if (node.type === 'identifier' || node.type === 'instance_variable') {
      const scope = this.scopes.scopeAt(node);
      // A bare name is a local, else an attribute reader of the instance variable of that name.
      const value =
        node.type === 'identifier'
          ? (scope.local(node.text) ?? scope.instance(`@${node.text}`))
          : scope.instance(node.text);
      return value === undefined ? undefined : this.held(value, library, depth + 1);
    }
    if (node.type !== 'call') return undefined;
    const method = node.childForFieldName('method')?.text ?? '';
    const receiver = node.childForFieldName('receiver');
    if (method === library.defaultExchange && receiver !== null) return literalDestination('');
    if (method === 'name' && receiver !== null) return this.held(receiver, library, depth + 1);
    const declaration = library.calls.find(
      (call) => call.role === 'declare' && call.methods.includes(method) && receiver !== null,
    );
    if (declaration === undefined) return undefined;
    const slot = declaration.queue ?? declaration.exchange;
    const argument = slot?.position === undefined ? undefined : callArgs(node).positional[slot.position];
    const serverNamed = { name: '', identity: `#${node.startIndex}` };
    if (declaration.serverNamed === true || argument === undefined) return serverNamed;
    const destination = this.destination(argument, library);
    return destination.name === '' ? serverNamed : destination;
  }
}
