/**
 * Ruby: declarations (modules, classes, methods, singleton methods, constants, with `#` comment docs),
 * `require`/`require_relative` imports, Rails routes declared in a `routes.draw` block (verbs,
 * `match … via:`, `namespace`/`scope` prefixes, `resources`/`resource` with `only:`/`except:`), and Sinatra
 * routes (`post '/x' do … end` at the top level of a file requiring `sinatra` or in a `Sinatra::Base`
 * subclass, with sinatra-contrib `namespace` prefixes).
 */
import type { Node } from 'web-tree-sitter';
import type { CallFact, ContractFact, SymbolKind } from '../../facts.js';
import { emptyFacts } from '../../facts.js';
import type { Extractor } from '../extractor.js';
import { rewriteSidecarCalls } from '../shared/dapr.js';
import { FactBuilder } from '../shared/fact-builder.js';
import { RUBY_BROKER_SITES, RUBY_LIBRARY_SITES, RubyBrokerCalls } from './broker-calls.js';
import { RUBY_HTTP_SITES, RubyHttpCalls } from './http-calls.js';
import { RUBY_CALL_SITES, rubyCallSyntax, rubySupertypes } from './calls.js';
import { RUBY_SCOPE_SITES, RubyScopes } from './scope.js';
import { collectSites, walkSites, type FoundSites } from '../shared/site-walk.js';
import { callsOfSites } from '../shared/call-sites.js';
import { callArgs, named, rubyLiteral } from './values.js';
import {
  declarationAt,
  endLineOf,
  hashCommentDoc,
  joinHttpPath,
  oneLine,
  startLineOf,
} from '../shared/tree-utils.js';

const SITES: ReadonlySet<string> = new Set([
  'module',
  'class',
  'method',
  'singleton_method',
  'assignment',
  'call',
]);
// Interpolated strings can hold calls, so only comments and plain scalars are skipped.
const LEAVES: ReadonlySet<string> = new Set([
  'comment',
  'identifier',
  'constant',
  'integer',
  'float',
  'simple_symbol',
]);

const VERBS = new Set(['get', 'post', 'put', 'patch', 'delete', 'options', 'head']);
const SINATRA_VERBS = new Set([...VERBS, 'link', 'unlink']);
/** Superclasses whose class body is a Sinatra application (modular style). */
const SINATRA_APP = /^(?:::)?Sinatra::(?:Base|Application)$/;

/** The seven (six for a singular resource) REST actions of `resources`, as method, path suffix, action. */
const PLURAL_ACTIONS: readonly (readonly [string, string, string])[] = [
  ['GET', '', 'index'],
  ['POST', '', 'create'],
  ['GET', '/new', 'new'],
  ['GET', '/{id}/edit', 'edit'],
  ['GET', '/{id}', 'show'],
  ['PATCH', '/{id}', 'update'],
  ['PUT', '/{id}', 'update'],
  ['DELETE', '/{id}', 'destroy'],
];
const SINGULAR_ACTIONS: readonly (readonly [string, string, string])[] = [
  ['POST', '', 'create'],
  ['GET', '/new', 'new'],
  ['GET', '/edit', 'edit'],
  ['GET', '', 'show'],
  ['PATCH', '', 'update'],
  ['PUT', '', 'update'],
  ['DELETE', '', 'destroy'],
];

/** `get 'health' => 'status#show'`: the path is the key of the first pair written with a string key. */
function hashRoutePath(call: Node): string | undefined {
  const pair = named(call.childForFieldName('arguments')).find(
    (argument) => argument.type === 'pair' && argument.childForFieldName('key')?.type === 'string',
  );
  return rubyLiteral(pair?.childForFieldName('key'));
}

function literalList(node: Node | undefined): string[] {
  if (node === undefined) return [];
  const items =
    node.type === 'array' || node.type === 'symbol_array' || node.type === 'string_array'
      ? named(node)
      : [node];
  return items.map(rubyLiteral).filter((item): item is string => item !== undefined);
}

class RubyExtraction {
  readonly facts = new FactBuilder('ruby');
  readonly calls: CallFact[];

  /**
   * The route prefix where a Sinatra route (`get '/x' do … end`) may be declared: the top level of a file
   * requiring `sinatra` (classic style), the body of a `Sinatra::Base` subclass, a sinatra-contrib
   * `namespace`; undefined elsewhere (method bodies, route blocks, other classes).
   */
  private sinatra: string | undefined;

  constructor(
    private readonly source: string,
    root: Node,
  ) {
    this.sinatra = requiresSinatra(root) ? '' : undefined;
    this.visit(root, undefined, undefined, undefined);
    // The readers after the declarations share one walk of the tree.
    const [scopeSites, httpSites, librarySites, brokerSites, callSites] = collectSites(root, [
      RUBY_SCOPE_SITES,
      RUBY_HTTP_SITES,
      RUBY_LIBRARY_SITES,
      RUBY_BROKER_SITES,
      RUBY_CALL_SITES,
    ]) as [FoundSites, FoundSites, FoundSites, FoundSites, FoundSites];
    const scopes = new RubyScopes(scopeSites);
    new RubyHttpCalls(httpSites, this.facts, scopes).run();
    new RubyBrokerCalls(librarySites, brokerSites, this.facts, scopes).run();
    const syntax = rubyCallSyntax(scopes, this.facts.symbols);
    this.calls = callsOfSites(callSites, RUBY_CALL_SITES, syntax, this.facts.symbols);
  }

  /** Visits `node` with the Sinatra prefix `prefix`, restoring the current one afterwards. */
  private withSinatra(
    prefix: string | undefined,
    node: Node,
    owner: number | undefined,
    scope: string | undefined,
    routes: string | undefined,
  ): void {
    const saved = this.sinatra;
    this.sinatra = prefix;
    this.visit(node, owner, scope, routes);
    this.sinatra = saved;
  }

  /** `routes` is the current route prefix inside a `routes.draw` block, undefined outside one. */
  /** Reads `node` and its subtree. */
  private visit(
    node: Node,
    owner: number | undefined,
    scope: string | undefined,
    routes: string | undefined,
  ): void {
    if (this.site(node, node.type, owner, scope, routes)) return;
    walkSites(node, SITES, LEAVES, (site, type) => this.site(site, type, owner, scope, routes));
  }

  /** Reads one site; true when its subtree has been read already. */
  private site(
    node: Node,
    type: string,
    owner: number | undefined,
    scope: string | undefined,
    routes: string | undefined,
  ): boolean {
    switch (type) {
      case 'module':
      case 'class':
        this.container(node, owner, scope, routes);
        return true;
      case 'method':
      case 'singleton_method':
        this.method(node, owner, scope, routes);
        return true;
      case 'assignment': {
        const left = node.childForFieldName('left');
        if (left?.type === 'constant') this.constant(node, left.text, owner, scope);
        return false;
      }
      case 'call':
        return this.call(node, owner, scope, routes);
      default:
        return false;
    }
  }

  /** Adds the symbol of a declaration at `node`, with the `#` comment above it as doc; returns its id. */
  private declare(
    node: Node,
    kind: SymbolKind,
    name: string,
    scope: string | undefined,
    signature: string,
    owner: number | undefined,
  ): number {
    const symbol = declarationAt(node, kind, name, scope, signature);
    const doc = commentDoc(node);
    if (doc !== undefined) symbol.docstring = doc;
    if (owner !== undefined) symbol.parent = owner;
    return this.facts.addSymbol(symbol);
  }

  private container(
    node: Node,
    owner: number | undefined,
    scope: string | undefined,
    routes: string | undefined,
  ): void {
    const nameNode = node.childForFieldName('name');
    const body = node.childForFieldName('body');
    // `class Shop::Orders::Cart` declares `Cart` inside the written path.
    const path = (nameNode?.text ?? '').split('::');
    const name = path.pop() ?? '';
    const inner = [scope, ...path].filter((part) => part !== undefined && part !== '').join('.') || undefined;
    const superclass = node.childForFieldName('superclass');
    const signature = `${node.type} ${nameNode?.text ?? ''}${superclass === null ? '' : ` ${oneLine(superclass.text)}`}`;
    const id = this.declare(node, node.type === 'module' ? 'module' : 'class', name, inner, signature, owner);
    const supertypes = rubySupertypes(superclass, body);
    const symbol = this.facts.symbol(id);
    if (symbol !== undefined && supertypes.length > 0) symbol.supertypes = supertypes;
    const qualified = inner === undefined ? name : `${inner}.${name}`;
    const app = superclass !== null && SINATRA_APP.test(oneLine(superclass.text).replace(/^<\s*/, ''));
    if (body !== null) this.withSinatra(app ? '' : undefined, body, id, qualified, routes);
  }

  private method(
    node: Node,
    owner: number | undefined,
    scope: string | undefined,
    routes: string | undefined,
  ): void {
    const name = node.childForFieldName('name')?.text ?? '';
    const parameters = node.childForFieldName('parameters');
    const object = node.childForFieldName('object');
    const signature = `def ${object === null ? '' : `${object.text}.`}${name}${parameters === null ? '' : oneLine(parameters.text)}`;
    const kind = owner === undefined ? 'function' : 'method';
    const id = this.declare(node, kind, name, scope, signature, owner);
    const symbol = this.facts.symbol(id);
    const body = node.childForFieldName('body');
    if (symbol !== undefined && body !== null && body.type === 'body_statement') {
      const first = startLineOf(node) + 1;
      const last = endLineOf(node) - 1;
      if (last >= first) {
        symbol.bodyStartLine = first;
        symbol.bodyEndLine = last;
      }
    }
    if (body !== null) this.withSinatra(undefined, body, id, scope, routes);
  }

  private constant(node: Node, name: string, owner: number | undefined, scope: string | undefined): void {
    const text = this.source.slice(node.startIndex, node.endIndex);
    const signature = text.includes('\n') ? `${name} = …` : oneLine(text);
    this.declare(node, 'const', name, scope, signature, owner);
  }

  /** Handles imports and routes; true when the call's children were already visited. */
  private call(
    node: Node,
    owner: number | undefined,
    scope: string | undefined,
    routes: string | undefined,
  ): boolean {
    const method = node.childForFieldName('method')?.text ?? '';
    const receiver = node.childForFieldName('receiver');
    const isImport = receiver === null && (method === 'require' || method === 'require_relative');
    if (!isImport && routes === undefined && this.sinatra !== undefined && receiver === null)
      return this.sinatraCall(node, method, owner, scope);
    if (!isImport && routes === undefined && method !== 'draw') return false;
    const args = callArgs(node);
    if (isImport) {
      const source = rubyLiteral(args.positional[0]);
      if (source !== undefined && args.positional[0]?.type === 'string')
        this.facts.addImport({ source, line: startLineOf(node) });
      return false;
    }
    const block = node.childForFieldName('block');
    if (method === 'draw' && receiver !== null && /(^|\.)routes$/.test(receiver.text) && block !== null) {
      this.visit(block, owner, scope, '');
      return true;
    }
    if (routes === undefined || receiver !== null) return false;
    const line = startLineOf(node);
    const first = rubyLiteral(args.positional[0]) ?? hashRoutePath(node);
    if ((method === 'namespace' || method === 'scope') && block !== null) {
      const prefix = method === 'namespace' ? first : (rubyLiteral(args.options.get('path')) ?? first);
      this.visit(block, owner, scope, prefix === undefined ? routes : joinHttpPath(routes, prefix));
      return true;
    }
    if (VERBS.has(method) && first !== undefined) {
      this.route(method.toUpperCase(), joinHttpPath(routes, first), line, `rails ${method}`, owner);
    } else if (method === 'match' && first !== undefined) {
      const via = literalList(args.options.get('via'));
      for (const verb of via.length === 0 ? [] : via) {
        this.route(
          verb === 'all' ? 'ANY' : verb.toUpperCase(),
          joinHttpPath(routes, first),
          line,
          'rails match',
          owner,
        );
      }
    } else if (method === 'root') {
      this.route('GET', joinHttpPath(routes, '/'), line, 'rails root', owner);
    } else if ((method === 'resources' || method === 'resource') && first !== undefined) {
      this.resources(method, first, args.options, routes, line, owner);
      if (block !== null) {
        const nested = method === 'resources' ? `${first}/{${singular(first)}_id}` : first;
        this.visit(block, owner, scope, joinHttpPath(routes, nested));
      }
      return true;
    }
    return false;
  }

  /** `get '/orders/:id' do … end` and `namespace '/api' do … end` where Sinatra routes are declared. */
  private sinatraCall(
    node: Node,
    method: string,
    owner: number | undefined,
    scope: string | undefined,
  ): boolean {
    const block = node.childForFieldName('block');
    const first = callArgs(node).positional[0];
    const path = first?.type === 'string' ? rubyLiteral(first) : undefined;
    const prefix = this.sinatra ?? '';
    if (block === null || path === undefined || !path.startsWith('/')) return false;
    if (SINATRA_VERBS.has(method)) {
      this.route(
        method.toUpperCase(),
        joinHttpPath(prefix, path),
        startLineOf(node),
        `sinatra ${method}`,
        owner,
      );
      // A route's body runs per request: a `get` inside it is no route.
      this.withSinatra(undefined, block, owner, scope, undefined);
      return true;
    }
    if (method === 'namespace') {
      this.withSinatra(joinHttpPath(prefix, path), block, owner, scope, undefined);
      return true;
    }
    return false;
  }

  private resources(
    method: string,
    name: string,
    options: Map<string, Node>,
    routes: string,
    line: number,
    owner: number | undefined,
  ): void {
    const only = options.has('only') ? new Set(literalList(options.get('only'))) : undefined;
    const except = new Set(literalList(options.get('except')));
    const actions = method === 'resources' ? PLURAL_ACTIONS : SINGULAR_ACTIONS;
    for (const [verb, suffix, action] of actions) {
      if ((only !== undefined && !only.has(action)) || except.has(action)) continue;
      this.route(verb, joinHttpPath(routes, name + suffix), line, `rails ${method}`, owner);
    }
  }

  private route(method: string, path: string, line: number, via: string, owner: number | undefined): void {
    const fact: ContractFact = { kind: 'http_route', method, path, line, via };
    this.facts.addContract(fact, { owner });
  }
}

/** A top-level `require "sinatra"` (classic style; `sinatra/base` alone is the modular style). */
function requiresSinatra(root: Node): boolean {
  return named(root).some((node) => {
    if (node.type !== 'call' || node.childForFieldName('receiver') !== null) return false;
    if (node.childForFieldName('method')?.text !== 'require') return false;
    const first = callArgs(node).positional[0];
    return first?.type === 'string' && rubyLiteral(first) === 'sinatra';
  });
}

/** Rails' nested-resource parameter: `orders` → `order` (`order_id`). */
function singular(name: string): string {
  return name.endsWith('ies') ? `${name.slice(0, -3)}y` : name.replace(/s$/, '');
}

/** The `#` comment lines right above a declaration. */
function commentDoc(node: Node): string | undefined {
  // The grammar puts comments before a body's first statement outside the body node.
  const previous = (of: Node): Node | null =>
    of.previousNamedSibling ?? (of.parent?.type === 'body_statement' ? of.parent.previousNamedSibling : null);
  return hashCommentDoc(previous(node), startLineOf(node), previous);
}

export const extractRuby: Extractor = (input) => {
  if (input.tree === undefined) return emptyFacts('ruby');
  const extraction = new RubyExtraction(input.source, input.tree.rootNode);
  return rewriteSidecarCalls(extraction.facts.build({ calls: extraction.calls }));
};
