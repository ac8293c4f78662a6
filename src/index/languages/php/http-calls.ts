/**
 * Outgoing HTTP calls of PHP clients, read with the tables of `http-clients.ts` after the declarations are
 * known (each call belongs to the innermost declaration around it). A method like `get` or `request` is a
 * call only on a receiver known to hold a client: built in place or assigned earlier (`new Client([…])`,
 * `HttpClient::create()`), or a parameter or property declared with a client type; so `->get()` on a
 * collection is none. Laravel's `Http::` chains, curl handles and `file_get_contents('http…')` are read too.
 */
import type { Node } from 'web-tree-sitter';
import {
  BASE_OPTIONS,
  CLIENT_CLASSES,
  CLIENT_FACTORIES,
  CLIENT_TYPES,
  CURL,
  FACADES,
  REQUEST_METHODS,
  URL_READERS,
  VERB_METHODS,
  WITH_OPTIONS,
  type ClientLibrary,
} from './http-clients.js';
import type { PhpScopes } from './scope.js';
import { argumentsOf, arrayEntries, named, phpLiteral, resolvePhp } from './values.js';
import { innermostSymbolAt, type FactBuilder } from '../shared/fact-builder.js';
import { httpCallFact } from '../shared/http-call.js';
import type { FoundSites, SiteQuery } from '../shared/site-walk.js';
import { startLineOf, type Parts } from '../shared/tree-utils.js';

/** The calls this reader looks at (`collectSites`). */
export const PHP_HTTP_SITES: SiteQuery = {
  sites: new Set(['member_call_expression', 'scoped_call_expression', 'function_call_expression']),
  leaves: new Set(['comment', 'string', 'name', 'integer', 'variable_name']),
};
const MAX_DEPTH = 6;

interface Client {
  readonly library: ClientLibrary;
  readonly base?: Parts;
}

/** A curl handle being configured: where it was created and what the options say. */
interface CurlHandle {
  readonly init: Node;
  url?: Node;
  method?: string;
  implied?: string;
}

export class PhpHttpCalls {
  private readonly curl = new Map<string, CurlHandle>();

  constructor(
    /** The sites of `PHP_HTTP_SITES`. */
    private readonly found: FoundSites,
    private readonly facts: FactBuilder,
    /** Short class name → fully qualified, from the file's `use` imports. */
    private readonly imported: ReadonlyMap<string, string>,
    /** The file's scopes, built once for every reader of the file. */
    private readonly scopes: PhpScopes,
  ) {}

  run(): void {
    this.found.nodes.forEach((node, index) => {
      if (this.found.types[index] === 'function_call_expression') this.functionCall(node);
      else this.methodCall(node);
    });
    for (const handle of this.curl.values()) {
      const url = handle.url;
      if (url === undefined) continue;
      this.emit(handle.init, handle.method ?? handle.implied ?? 'GET', url, undefined, true, 'curl');
    }
  }

  private className(name: string): string {
    if (name.includes('\\')) return name.replace(/^\\/, '');
    return this.imported.get(name) ?? name;
  }

  private methodCall(node: Node): void {
    const method = node.childForFieldName('name')?.text ?? '';
    const verb = VERB_METHODS.get(method);
    if (verb === undefined && !REQUEST_METHODS.has(method)) return;
    const client = this.facadeChain(node) ?? this.clientOf(receiverOf(node), 0);
    if (client === undefined) return;
    const args = argumentsOf(node);
    if (verb !== undefined && client.library.verbMethods) {
      if (args[0] !== undefined)
        this.emit(node, verb, args[0], client.base, true, `${client.library.name} ${method}`);
      return;
    }
    const requested = phpLiteral(args[0])?.toUpperCase();
    if (REQUEST_METHODS.has(method) && requested !== undefined && args[1] !== undefined)
      this.emit(node, requested, args[1], client.base, true, `${client.library.name} ${method}`);
  }

  /** `Http::get($url)`, `Http::withToken($t)->baseUrl($b)->post('/x')`: the facade and the base in the chain. */
  private facadeChain(node: Node): Client | undefined {
    let base: Node | undefined;
    let current: Node | null = node;
    let baseMethod: string | undefined;
    const names: { name: string; args: Node[] }[] = [];
    while (current?.type === 'member_call_expression' || current?.type === 'scoped_call_expression') {
      if (current.id !== node.id)
        names.push({ name: current.childForFieldName('name')?.text ?? '', args: argumentsOf(current) });
      if (current.type === 'scoped_call_expression') {
        const scope = this.className(current.childForFieldName('scope')?.text ?? '');
        const facade = FACADES.find((entry) => entry.classes.includes(scope));
        if (facade === undefined) return undefined;
        baseMethod = facade.baseMethod;
        for (const call of names) if (call.name === baseMethod) base ??= call.args[0];
        const scope0 = this.scopes.scopeAt(node);
        return base === undefined
          ? { library: facade.library }
          : { library: facade.library, base: resolvePhp(base, scope0) };
      }
      current = current.childForFieldName('object');
    }
    return undefined;
  }

  /** The client an expression holds, if it is known to hold one. */
  private clientOf(node: Node | null, depth: number): Client | undefined {
    if (node === null || depth > MAX_DEPTH) return undefined;
    switch (node.type) {
      case 'parenthesized_expression':
        return this.clientOf(named(node)[0] ?? null, depth + 1);
      case 'object_creation_expression': {
        const type = named(node).find((child) => child.type === 'name' || child.type === 'qualified_name');
        const library = CLIENT_CLASSES.get(this.className(type?.text ?? ''));
        return library === undefined
          ? undefined
          : this.withBase({ library }, optionsBase(argumentsOf(node)[0]), node);
      }
      case 'scoped_call_expression': {
        const scope = this.className(node.childForFieldName('scope')?.text ?? '');
        const method = node.childForFieldName('name')?.text;
        const factory = CLIENT_FACTORIES.find((entry) => entry.class === scope && entry.method === method);
        if (factory === undefined) return undefined;
        const args = argumentsOf(node);
        const base = factory.baseArgument === undefined ? optionsBase(args[0]) : args[factory.baseArgument];
        return this.withBase({ library: factory.library }, base, node);
      }
      case 'member_call_expression': {
        if (node.childForFieldName('name')?.text !== WITH_OPTIONS) return undefined;
        const inner = this.clientOf(receiverOf(node), depth + 1);
        return inner === undefined
          ? undefined
          : this.withBase(inner, optionsBase(argumentsOf(node)[0]), node);
      }
      case 'variable_name':
      case 'member_access_expression': {
        const value = this.scopes.valueOf(node);
        const held = value === undefined ? undefined : this.clientOf(value, depth + 1);
        if (held !== undefined) return held;
        const type = this.scopes.typeOf(node);
        const library = type === undefined ? undefined : CLIENT_TYPES.get(this.className(type));
        return library === undefined ? undefined : { library };
      }
      default:
        return undefined;
    }
  }

  private withBase(client: Client, base: Node | undefined, at: Node): Client {
    return base === undefined ? client : { ...client, base: resolvePhp(base, this.scopes.scopeAt(at)) };
  }

  private functionCall(node: Node): void {
    const name = node.childForFieldName('function')?.text.replace(/^\\/, '') ?? '';
    const args = argumentsOf(node);
    if (name === CURL.init) {
      const handle = curlHandleName(node);
      if (handle !== undefined) this.curl.set(handle, { init: node, ...(args[0] ? { url: args[0] } : {}) });
    } else if (name === CURL.setopt || name === CURL.setoptArray) {
      const handle = this.curl.get(`${functionId(node)}:${args[0]?.text ?? ''}`);
      if (handle === undefined) return;
      const options =
        name === CURL.setopt
          ? [[args[1]?.text ?? '', args[2]] as const]
          : named(args[1]).map((element) => [named(element)[0]?.text ?? '', named(element)[1]] as const);
      for (const [option, value] of options) curlOption(handle, option, value);
    } else {
      const reader = URL_READERS.get(name);
      const url = reader === undefined ? undefined : args[reader.url];
      if (reader === undefined || url === undefined) return;
      const parts = resolvePhp(url, this.scopes.scopeAt(url));
      const first = parts[0];
      if (first?.t !== 'lit' || !/^https?:\/\//i.test(first.v)) return;
      const method = this.contextMethod(args[reader.context]) ?? 'GET';
      this.emit(node, method, url, undefined, true, name);
    }
  }

  /** `stream_context_create(['http' => ['method' => 'POST']])`, in place or assigned earlier. */
  private contextMethod(node: Node | undefined): string | undefined {
    const value = node?.type === 'variable_name' ? this.scopes.valueOf(node) : node;
    if (value?.type !== 'function_call_expression') return undefined;
    const http = arrayEntries(argumentsOf(value)[0]).get('http');
    return phpLiteral(arrayEntries(http).get('method'))?.toUpperCase();
  }

  private emit(
    node: Node,
    method: string,
    url: Node,
    base: Parts | undefined,
    proven: boolean,
    via: string,
  ): void {
    const line = startLineOf(node);
    const parts = resolvePhp(url, this.scopes.scopeAt(url));
    const fact = httpCallFact({
      method,
      url: parts,
      ...(base === undefined ? {} : { clientBase: base }),
      expression: url.text,
      line,
      proven,
      via,
    });
    const owner = innermostSymbolAt(this.facts.symbols, line);
    this.facts.addContract(fact, owner === undefined ? {} : { owner });
  }
}

function receiverOf(node: Node): Node | null {
  return node.childForFieldName('object');
}

function optionsBase(options: Node | undefined): Node | undefined {
  const entries = arrayEntries(options);
  for (const key of BASE_OPTIONS) {
    const value = entries.get(key);
    if (value !== undefined) return value;
  }
  return undefined;
}

function functionId(node: Node): number {
  for (let current = node.parent; current !== null; current = current.parent) {
    if (/function|method_declaration/.test(current.type)) return current.id;
  }
  return 0;
}

/** `$ch = curl_init(…)`: the handle's key (function and variable). */
function curlHandleName(init: Node): string | undefined {
  const assignment = init.parent;
  const left = assignment?.type === 'assignment_expression' ? assignment.childForFieldName('left') : null;
  return left?.type === 'variable_name' ? `${functionId(init)}:${left.text}` : undefined;
}

function curlOption(handle: CurlHandle, option: string, value: Node | undefined): void {
  if (value === undefined) return;
  if (option === CURL.url) handle.url = value;
  else if (option === CURL.customRequest) handle.method = phpLiteral(value)?.toUpperCase() ?? handle.method;
  else if (value.text.toLowerCase() !== 'false') handle.implied ??= CURL.impliedMethods.get(option);
}
