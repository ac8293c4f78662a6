/**
 * Outgoing HTTP calls of Ruby clients, read with the tables of `http-clients.ts` after the declarations are
 * known (each call belongs to the innermost declaration around it). A `get` or `post` is a call only on a
 * module that sends (`RestClient.get`), on a receiver known to hold a client (`conn = Faraday.new(…)`,
 * `Net::HTTP.start(host) { |http| … }`), or inside a class including HTTParty; so `.get` on a Hash, a
 * cache or a Redis connection is none.
 */
import type { Node } from 'web-tree-sitter';
import {
  CLIENT_CONSTRUCTORS,
  EXECUTE_CALLS,
  HTTPARTY,
  MODULE_FUNCTIONS,
  REQUEST_CLASSES,
  RUN_REQUEST,
  SEND_REQUEST,
  VERBS,
} from './http-clients.js';
import type { RubyScopes } from './scope.js';
import { callArgs, named, resolveRuby, rubyLiteral } from './values.js';
import { innermostSymbolAt, type FactBuilder } from '../shared/fact-builder.js';
import { httpCallFact } from '../shared/http-call.js';
import type { FoundSites, SiteQuery } from '../shared/site-walk.js';
import { startLineOf, type Part, type Parts } from '../shared/tree-utils.js';

/** The calls this reader looks at (`collectSites`). */
export const RUBY_HTTP_SITES: SiteQuery = {
  sites: new Set(['call']),
  leaves: new Set(['comment', 'identifier', 'constant', 'integer', 'simple_symbol']),
};
const BLOCKS = new Set(['do_block', 'block']);
const MAX_DEPTH = 6;

interface Client {
  readonly library: string;
  readonly base?: Parts;
}

export class RubyHttpCalls {
  constructor(
    /** The sites of `RUBY_HTTP_SITES`. */
    private readonly found: FoundSites,
    private readonly facts: FactBuilder,
    /** The file's scopes, built once for every reader of the file. */
    private readonly scopes: RubyScopes,
  ) {}

  run(): void {
    for (const node of this.found.nodes) this.call(node);
  }

  private call(node: Node): void {
    const receiver = node.childForFieldName('receiver');
    const method = node.childForFieldName('method')?.text ?? '';
    const { positional, options } = callArgs(node);
    const moduleVerb = receiver === null ? undefined : MODULE_FUNCTIONS.get(receiver.text)?.get(method);
    if (receiver !== null && moduleVerb !== undefined) {
      this.moduleFunction(node, receiver.text, method, moduleVerb, positional);
      return;
    }
    if (
      receiver !== null &&
      EXECUTE_CALLS.some((entry) => entry.receiver === receiver.text && entry.method === method)
    ) {
      const verb = rubyLiteral(options.get('method'))?.toUpperCase();
      const url = options.get('url');
      if (verb !== undefined && url !== undefined)
        this.emit(node, verb, url, undefined, `${receiver.text} ${method}`);
      return;
    }
    const verb = VERBS.get(method);
    if (verb !== undefined && node.childForFieldName('block') === null) {
      const party = this.httpartyReceiver(node, receiver);
      if (party !== undefined) {
        if (positional[0] !== undefined)
          this.emit(node, verb, positional[0], party.base, `HTTParty ${method}`);
        return;
      }
    }
    if (verb === undefined && method !== RUN_REQUEST && method !== SEND_REQUEST) return;
    const client = receiver === null ? undefined : this.clientOf(receiver, 0);
    if (client === undefined) return;
    const via = `${client.library} ${method}`;
    if (verb !== undefined) {
      this.emit(node, verb, positional[0], client.base, via);
    } else if (method === RUN_REQUEST) {
      const requested = rubyLiteral(positional[0])?.toUpperCase();
      if (requested !== undefined) this.emit(node, requested, positional[1], client.base, via);
    } else {
      const request = this.requestOf(positional[0]);
      if (request !== undefined) this.emit(node, request.verb, request.url, client.base, via);
    }
  }

  /** `Net::HTTP.get(URI(url))`, `Net::HTTP.get('host', '/path')`, `RestClient.get(url)`. */
  private moduleFunction(node: Node, module: string, method: string, verb: string, positional: Node[]): void {
    const [first, second] = positional;
    if (first === undefined) return;
    const hostAndPath =
      module === 'Net::HTTP' && first.type === 'string' && rubyLiteral(second)?.startsWith('/');
    if (hostAndPath && second !== undefined) {
      this.emit(
        node,
        verb,
        second,
        [{ t: 'lit', v: `http://${rubyLiteral(first) ?? ''}` }],
        `${module} ${method}`,
      );
    } else {
      this.emit(node, verb, first, undefined, `${module} ${method}`);
    }
  }

  /** `get '/x'`, `self.class.get`, `Client.get` where the class includes HTTParty: its `base_uri`. */
  private httpartyReceiver(node: Node, receiver: Node | null): { base?: Parts } | undefined {
    const own = receiver === null || receiver.text === 'self' || receiver.text === 'self.class';
    const name = own
      ? this.scopes.httpartyClassAt(node)
      : receiver.type === 'constant'
        ? receiver.text
        : undefined;
    if (name === undefined || name === HTTPARTY || !this.scopes.httparty.has(name)) return undefined;
    const base = this.scopes.httparty.get(name);
    return base === null || base === undefined ? {} : { base: resolveRuby(base, this.scopes.scopeAt(base)) };
  }

  /** The client an expression holds: a constructor in place, a variable assigned one, a block parameter. */
  private clientOf(node: Node, depth: number): Client | undefined {
    if (depth > MAX_DEPTH) return undefined;
    if (node.type === 'call') return this.constructed(node);
    if (node.type !== 'identifier' && node.type !== 'instance_variable' && node.type !== 'constant')
      return undefined;
    const value = this.scopes.valueOf(node);
    if (value !== undefined) return this.clientOf(value, depth + 1);
    return node.type === 'identifier' ? this.blockParameterClient(node) : undefined;
  }

  /** `Net::HTTP.start(host, port) do |http| … end`: `http` is the client. */
  private blockParameterClient(node: Node): Client | undefined {
    for (let current = node.parent; current !== null; current = current.parent) {
      if (!BLOCKS.has(current.type)) continue;
      const parameters = named(current.childForFieldName('parameters')).map((parameter) => parameter.text);
      if (!parameters.includes(node.text)) continue;
      return current.parent?.type === 'call' ? this.constructed(current.parent) : undefined;
    }
    return undefined;
  }

  private constructed(call: Node): Client | undefined {
    const receiver = call.childForFieldName('receiver')?.text;
    const method = call.childForFieldName('method')?.text ?? '';
    const entry = CLIENT_CONSTRUCTORS.find(
      (item) => item.receiver === receiver && item.methods.includes(method),
    );
    if (entry === undefined) return undefined;
    const { positional, options } = callArgs(call);
    const client = { library: entry.library };
    if (entry.base === 'first') {
      const base =
        (entry.baseOption === undefined ? undefined : options.get(entry.baseOption)) ?? positional[0];
      return base === undefined ? client : { ...client, base: resolveRuby(base, this.scopes.scopeAt(base)) };
    }
    const host =
      positional[0] === undefined
        ? undefined
        : hostBase(resolveRuby(positional[0], this.scopes.scopeAt(positional[0])), positional[1]);
    return host === undefined ? client : { ...client, base: host };
  }

  /** `Net::HTTP::Post.new(path)`, in place or assigned earlier. */
  private requestOf(node: Node | undefined): { verb: string; url: Node | undefined } | undefined {
    const value = node?.type === 'identifier' ? this.scopes.valueOf(node) : node;
    if (value?.type !== 'call' || value.childForFieldName('method')?.text !== 'new') return undefined;
    const verb = REQUEST_CLASSES.get(value.childForFieldName('receiver')?.text ?? '');
    return verb === undefined ? undefined : { verb, url: callArgs(value).positional[0] };
  }

  private emit(
    node: Node,
    method: string,
    url: Node | undefined,
    base: Parts | undefined,
    via: string,
  ): void {
    const line = startLineOf(node);
    const fact = httpCallFact({
      method,
      ...(url === undefined ? {} : { url: resolveRuby(url, this.scopes.scopeAt(url)) }),
      ...(base === undefined ? {} : { clientBase: base }),
      expression: url?.text ?? '',
      line,
      proven: true,
      via,
    });
    const owner = innermostSymbolAt(this.facts.symbols, line);
    this.facts.addContract(fact, owner === undefined ? {} : { owner });
  }
}

/** `Net::HTTP.new('inventory', 8080)`: `http://inventory:8080`; an env host is the base as it is. */
function hostBase(host: Parts, port: Node | undefined): Parts | undefined {
  const only = host.length === 1 ? host[0] : undefined;
  if (only?.t === 'env') return [only];
  if (only?.t !== 'lit') return undefined;
  const suffix: Part[] = port?.type === 'integer' ? [{ t: 'lit', v: `:${port.text}` }] : [];
  return [{ t: 'lit', v: `http://${only.v}` }, ...suffix];
}
