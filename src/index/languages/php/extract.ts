/**
 * PHP: the namespace as the package, declarations (classes, interfaces, traits, enums, methods, functions,
 * constants, enum cases, with `#[…]` attributes and `/** … *\/` docs), `use` and `require`/`include`
 * imports, Laravel routes (`Route::get('/x/{id}', …)`, `Route::match`, `Route::any`, prefixes from
 * `Route::prefix('api')->group(function () { … })`) and Slim routes (`$app->post('/x', …)`, `map`, `group`).
 */
import type { Node } from 'web-tree-sitter';
import type { CallFact, ContractFact, SymbolKind } from '../../facts.js';
import { emptyFacts } from '../../facts.js';
import type { Extractor } from '../extractor.js';
import { rewriteSidecarCalls } from '../shared/dapr.js';
import { FactBuilder } from '../shared/fact-builder.js';
import { PHP_BROKER_SITES, PhpBrokerCalls } from './broker-calls.js';
import { PHP_HTTP_SITES, PhpHttpCalls } from './http-calls.js';
import { PHP_CALL_SITES, phpCallSyntax, phpSupertypes } from './calls.js';
import { PHP_SCOPE_SITES, PhpScopes } from './scope.js';
import { collectSites, walkSites, type FoundSites } from '../shared/site-walk.js';
import { callsOfSites } from '../shared/call-sites.js';
import { argumentsOf, named, phpLiteral } from './values.js';
import { docBlock } from './doc-block.js';
import {
  importsSymfonyRoute,
  laravelResourceRoutes,
  routeChain,
  symfonyPrefix,
  symfonyRoutes,
} from './routes.js';
import { slimRouterPrefix } from './slim.js';
import { declarationAt, endLineOf, joinHttpPath, oneLine, startLineOf } from '../shared/tree-utils.js';

const TYPE_KINDS: Readonly<Record<string, SymbolKind>> = {
  class_declaration: 'class',
  interface_declaration: 'interface',
  trait_declaration: 'trait',
  enum_declaration: 'enum',
};
const SITES: ReadonlySet<string> = new Set([
  'class_declaration',
  'interface_declaration',
  'trait_declaration',
  'enum_declaration',
  'namespace_definition',
  'namespace_use_declaration',
  'function_definition',
  'method_declaration',
  'const_declaration',
  'enum_case',
  'scoped_call_expression',
  'member_call_expression',
  'require_expression',
  'require_once_expression',
  'include_expression',
  'include_once_expression',
]);
// Double-quoted strings can hold expressions, so only comments, plain strings and names are skipped.
const LEAVES: ReadonlySet<string> = new Set([
  'comment',
  'name',
  'variable_name',
  'string',
  'integer',
  'text',
]);
const ROUTE_VERBS = new Set(['get', 'post', 'put', 'patch', 'delete', 'options', 'any']);
const INCLUDES = new Set([
  'require_expression',
  'require_once_expression',
  'include_expression',
  'include_once_expression',
]);

class PhpExtraction {
  readonly facts = new FactBuilder('php');
  package: string | undefined;
  readonly calls: CallFact[];
  private readonly uses = { classes: new Map<string, string>(), functions: new Map<string, string>() };
  /** Slim group closures being visited: router parameter name → the group's path prefix. */
  private slimGroups = new Map<string, string>();

  constructor(
    private readonly source: string,
    root: Node,
  ) {
    this.visit(root, undefined, undefined, '');
    const imported = new Map(
      this.facts.imports.map((fact) => [fact.source.split('\\').pop() ?? '', fact.source]),
    );
    // The readers after the declarations share one walk of the tree.
    const [scopeSites, httpSites, brokerSites, callSites] = collectSites(root, [
      PHP_SCOPE_SITES,
      PHP_HTTP_SITES,
      PHP_BROKER_SITES,
      PHP_CALL_SITES,
    ]) as [FoundSites, FoundSites, FoundSites, FoundSites];
    const scopes = new PhpScopes(scopeSites);
    new PhpHttpCalls(httpSites, this.facts, imported, scopes).run();
    new PhpBrokerCalls(brokerSites, this.facts, source, scopes).run();
    const syntax = phpCallSyntax(scopes, this.uses);
    this.calls = callsOfSites(callSites, PHP_CALL_SITES, syntax, this.facts.symbols);
  }

  /** Reads `node` and its subtree. */
  private visit(node: Node, owner: number | undefined, scope: string | undefined, prefix: string): void {
    if (this.site(node, node.type, owner, scope, prefix)) return;
    walkSites(node, SITES, LEAVES, (site, type) => this.site(site, type, owner, scope, prefix));
  }

  /** Reads one site; true when its subtree has been read already. */
  private site(
    node: Node,
    type: string,
    owner: number | undefined,
    scope: string | undefined,
    prefix: string,
  ): boolean {
    const kind = TYPE_KINDS[type];
    if (kind !== undefined) {
      this.typeDeclaration(node, kind, owner, prefix);
      return true;
    }
    switch (type) {
      case 'namespace_definition':
        this.package ??= node.childForFieldName('name')?.text;
        return false;
      case 'namespace_use_declaration':
        this.use(node);
        return true;
      case 'function_definition':
      case 'method_declaration':
        this.callable(node, owner, scope, prefix);
        return true;
      case 'const_declaration':
        for (const element of named(node).filter((child) => child.type === 'const_element')) {
          const name = named(element)[0]?.text ?? '';
          this.declare(node, 'const', name, scope, oneLine(this.slice(node, null)).replace(/;$/, ''), owner);
        }
        return true;
      case 'enum_case': {
        const name = node.childForFieldName('name')?.text ?? '';
        this.declare(
          node,
          'enum_member',
          name,
          scope,
          oneLine(this.slice(node, null)).replace(/;$/, ''),
          owner,
        );
        return true;
      }
      case 'scoped_call_expression':
      case 'member_call_expression':
        return this.call(node, owner, scope, prefix);
      default:
        if (INCLUDES.has(type)) this.include(node);
        return false;
    }
  }

  /** The declaration's text from its first non-attribute token to `stop` (or its end). */
  private slice(node: Node, stop: Node | null): string {
    const first = node.children.find(
      (child) => child !== null && child.type !== 'attribute_list' && child.type !== 'comment',
    );
    return this.source.slice(first?.startIndex ?? node.startIndex, stop?.startIndex ?? node.endIndex);
  }

  /** Adds the symbol of a declaration at `node`, with its doc block and `#[…]` attributes; returns its id. */
  private declare(
    node: Node,
    kind: SymbolKind,
    name: string,
    scope: string | undefined,
    signature: string,
    owner: number | undefined,
  ): number {
    const symbol = declarationAt(node, kind, name, scope, signature);
    const doc = docBlock(node);
    if (doc !== undefined) symbol.docstring = doc;
    const attributes = named(node).filter((child) => child.type === 'attribute_list');
    if (attributes.length > 0)
      symbol.decorators = attributes.flatMap((list) => named(list).map((group) => oneLine(group.text)));
    if (owner !== undefined) symbol.parent = owner;
    return this.facts.addSymbol(symbol);
  }

  private typeDeclaration(node: Node, kind: SymbolKind, owner: number | undefined, prefix: string): void {
    const name = node.childForFieldName('name')?.text ?? '';
    const body = node.childForFieldName('body');
    const id = this.declare(node, kind, name, undefined, oneLine(this.slice(node, body)), owner);
    const supertypes = phpSupertypes(node, body, this.uses);
    const symbol = this.facts.symbol(id);
    if (symbol !== undefined && supertypes.length > 0) symbol.supertypes = supertypes;
    if (body !== null) this.visit(body, id, name, prefix);
  }

  private callable(node: Node, owner: number | undefined, scope: string | undefined, prefix: string): void {
    const name = node.childForFieldName('name')?.text ?? '';
    const body = node.childForFieldName('body');
    const signature = oneLine(this.slice(node, body)).replace(/;$/, '');
    const id = this.declare(
      node,
      node.type === 'method_declaration' ? 'method' : 'function',
      name,
      scope,
      signature,
      owner,
    );
    const symbol = this.facts.symbol(id);
    if (symbol !== undefined && body !== null) {
      const first = startLineOf(body) + 1;
      const last = endLineOf(body) - 1;
      if (last >= first) {
        symbol.bodyStartLine = first;
        symbol.bodyEndLine = last;
      }
    }
    if (node.type === 'method_declaration' && importsSymfonyRoute(this.facts.imports.map((i) => i.source))) {
      const cls = node.parent?.parent ?? null;
      const classPrefix = symfonyPrefix(cls, cls === null ? undefined : docBlock(cls));
      for (const route of symfonyRoutes(node, docBlock(node), classPrefix))
        this.route(route.method, route.path, startLineOf(node), id, route.via);
    }
    if (body !== null) this.visit(body, id, scope, prefix);
  }

  private use(node: Node): void {
    const line = startLineOf(node);
    const group = node.childForFieldName('body');
    const base =
      group === null ? '' : `${named(node).find((child) => child.type === 'namespace_name')?.text ?? ''}\\`;
    // `use function A\fmt;` imports a function, `use const A\X;` a constant, plain `use` a class (the
    // keyword stands before the group, or before each name).
    const declared = useKind(node);
    for (const clause of named(group ?? node).filter((child) => child.type === 'namespace_use_clause')) {
      const target = named(clause).find((child) => child.type === 'qualified_name' || child.type === 'name');
      if (target === undefined) continue;
      const source = `${base}${target.text}`.replace(/^\\/, '');
      this.facts.addImport({ source, line });
      const local = clause.childForFieldName('alias')?.text ?? source.slice(source.lastIndexOf('\\') + 1);
      const kind = declared ?? useKind(clause);
      if (kind === undefined) this.uses.classes.set(local, source);
      else if (kind === 'function') this.uses.functions.set(local, source);
    }
  }

  /** `require_once 'x.php'` and `require __DIR__ . '/x.php'` (→ `./x.php`); computed paths are skipped. */
  private include(node: Node): void {
    const argument = named(node)[0];
    let source = phpLiteral(argument);
    if (source === undefined && argument?.type === 'binary_expression') {
      const left = argument.childForFieldName('left');
      const rest = phpLiteral(argument.childForFieldName('right'));
      if (left?.text === '__DIR__' && rest !== undefined)
        source = `.${rest.startsWith('/') ? '' : '/'}${rest}`.replace(/^\.\/\.\.\//, '../');
    }
    if (source !== undefined) this.facts.addImport({ source, line: startLineOf(node) });
  }

  /** Laravel routes; true when the call's children were already visited (a prefixed group). */
  private call(node: Node, owner: number | undefined, scope: string | undefined, prefix: string): boolean {
    const method = node.childForFieldName('name')?.text ?? '';
    const chain = routeChain(node);
    if (chain === undefined) return this.slimCall(node, method, owner, scope, prefix);
    const args = argumentsOf(node);
    if (method === 'group') {
      const groupPrefix = chain.prefix ?? '';
      for (const argument of args) this.visit(argument, owner, scope, joinHttpPath(prefix, groupPrefix));
      return true;
    }
    const line = startLineOf(node);
    if (method === 'resource' || method === 'apiResource') {
      for (const route of laravelResourceRoutes(node, method, joinHttpPath(prefix, chain.prefix ?? '')))
        this.route(route.method, route.path, line, owner, route.via);
    } else if (ROUTE_VERBS.has(method)) {
      const path = phpLiteral(args[0]);
      if (path !== undefined)
        this.route(
          method === 'any' ? 'ANY' : method.toUpperCase(),
          joinHttpPath(prefix, chain.prefix ?? '', path),
          line,
          owner,
        );
    } else if (method === 'match') {
      const path = phpLiteral(args[1]);
      const verbs = named(args[0]).map((item) => phpLiteral(named(item)[0]));
      for (const verb of path === undefined ? [] : verbs) {
        if (verb !== undefined)
          this.route(verb.toUpperCase(), joinHttpPath(prefix, chain.prefix ?? '', path ?? ''), line, owner);
      }
    }
    return false;
  }

  /**
   * Slim routes: `$app->get('/x', …)`, `$app->map(['GET', 'POST'], '/x', …)` and the same on the router a
   * `$app->group('/api', function (RouteCollectorProxy $group) { … })` closure receives, prefixed. The
   * receiver must be a Slim router: a group's parameter, a parameter typed `App`/`RouteCollectorProxy`, or
   * `$app` in a file importing `Slim\…` — so `$client->get('/x')` (Guzzle) is no route.
   */
  private slimCall(
    node: Node,
    method: string,
    owner: number | undefined,
    scope: string | undefined,
    prefix: string,
  ): boolean {
    if (node.type !== 'member_call_expression') return false;
    const isVerb = ROUTE_VERBS.has(method);
    if (!isVerb && method !== 'map' && method !== 'group') return false;
    const object = node.childForFieldName('object');
    const base =
      object?.type === 'variable_name'
        ? slimRouterPrefix(object.text, node, this.slimGroups, this.facts.imports)
        : undefined;
    if (base === undefined) return false;
    const args = argumentsOf(node);
    const line = startLineOf(node);
    if (method === 'group') {
      const path = phpLiteral(args[0]);
      const closure = args[1];
      const param =
        closure?.type === 'anonymous_function' || closure?.type === 'arrow_function'
          ? named(closure.childForFieldName('parameters'))[0]?.childForFieldName('name')?.text
          : undefined;
      if (path === undefined || closure === undefined || param === undefined) return false;
      const saved = this.slimGroups;
      this.slimGroups = new Map(saved).set(param, joinHttpPath(base, path));
      this.visit(closure, owner, scope, prefix);
      this.slimGroups = saved;
      return true;
    }
    const path = phpLiteral(isVerb ? args[0] : args[1]);
    if (path === undefined || !path.startsWith('/') || args.length < (isVerb ? 2 : 3)) return false;
    const verbs = isVerb ? [method] : named(args[0]).map((item) => phpLiteral(named(item)[0]));
    for (const verb of verbs) {
      if (verb !== undefined)
        this.route(
          verb === 'any' ? 'ANY' : verb.toUpperCase(),
          joinHttpPath(base, path),
          line,
          owner,
          `slim ${method}`,
        );
    }
    return false;
  }

  private route(
    method: string,
    path: string,
    line: number,
    owner: number | undefined,
    via = 'laravel Route',
  ): void {
    const fact: ContractFact = { kind: 'http_route', method, path, line, via };
    this.facts.addContract(fact, { owner });
  }
}

/** `function` or `const` when a `use` declaration or clause imports functions or constants. */
function useKind(node: Node): string | undefined {
  return node.children.find((child) => child?.type === 'function' || child?.type === 'const')?.type;
}

export const extractPhp: Extractor = (input) => {
  if (input.tree === undefined) return emptyFacts('php');
  const extraction = new PhpExtraction(input.source, input.tree.rootNode);
  return rewriteSidecarCalls(
    extraction.facts.build({ package: extraction.package, calls: extraction.calls }),
  );
};
