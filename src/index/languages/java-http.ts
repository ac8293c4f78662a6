/**
 * Java HTTP client calls: RestTemplate, WebClient / RestClient request chains and java.net.http
 * `HttpRequest` builders. A URL expression is split into a base (a literal host, a `@Value` placeholder
 * kept verbatim, `env:NAME` from `System.getenv`) and a path whose non-literal pieces become `{param}`.
 */
import type { Node } from 'web-tree-sitter';
import {
  argumentsOf,
  type JavaFile,
  JavaResolver,
  type JavaScope,
  type JavaSite,
  type JavaVar,
  lastSegment,
  receiverConfidence,
  varOf,
} from './java-model.js';
import { type ContractSink, lineOf } from './jvm-common.js';
import { annotationArg, findAnnotation } from './jvm-annotations.js';
import {
  CLIENT_VERBS,
  joinPaths,
  paramName,
  REST_TEMPLATE_METHODS,
  type UrlPart,
  urlTarget,
} from './jvm-http.js';

const REST_TEMPLATES: ReadonlySet<string> = new Set(['RestTemplate', 'TestRestTemplate', 'RestOperations']);
const REQUEST_CLIENTS: ReadonlySet<string> = new Set(['WebClient', 'RestClient', 'WebTestClient']);
/** Names of the calls an HTTP client request starts with; every other call is skipped at once. */
const HTTP_NAMES: ReadonlySet<string> = new Set([
  ...Object.keys(REST_TEMPLATE_METHODS),
  ...CLIENT_VERBS,
  'method',
  'newBuilder',
]);

interface Located {
  readonly node: Node;
  readonly scope: JavaScope;
}

export interface JavaHttpContext {
  /** The one `baseUrl(…)` / `WebClient.create(…)` of the file, used when a client's own base is not traceable. */
  readonly soleBase: Located | undefined;
}

export function javaHttpContext(file: JavaFile): JavaHttpContext {
  const bases: Located[] = [];
  for (const site of file.sites) {
    if (site.name !== 'baseUrl' && site.name !== 'create') continue;
    const base = baseArgument(site.node);
    if (base !== undefined) bases.push({ node: base, scope: site.scope });
  }
  return { soleBase: bases.length === 1 ? bases[0] : undefined };
}

/** The URL argument of `x.baseUrl(url)` or `WebClient.create(url)` / `RestClient.create(url)`. */
function baseArgument(call: Node): Node | undefined {
  const name = call.childForFieldName('name')?.text;
  const object = call.childForFieldName('object');
  const isBase =
    name === 'baseUrl' || (name === 'create' && REQUEST_CLIENTS.has(lastSegment(object?.text ?? '')));
  return isBase ? argumentsOf(call)[0] : undefined;
}

export function javaHttpCall(
  file: JavaFile,
  context: JavaHttpContext,
  site: JavaSite,
  sink: ContractSink,
): void {
  const { node, scope, nameNode, name, object } = site;
  if (nameNode === null || object === null || !HTTP_NAMES.has(name)) return;
  const args = argumentsOf(node);
  const line = lineOf(nameNode);
  const urls = new UrlReader(file);

  const restMethod = REST_TEMPLATE_METHODS[name];
  if (restMethod !== undefined && args[0] !== undefined) {
    const confidence = receiverConfidence(object, scope, REST_TEMPLATES, /resttemplate$/i);
    if (confidence === undefined) return;
    const method = restMethod === '' ? httpMethodOf(args[1]) : restMethod;
    const target = method === undefined ? undefined : urlTarget(urls.parts(args[0], scope));
    if (method === undefined || target === undefined) return;
    sink.add({
      kind: 'http_call',
      method,
      path: target.path,
      base: target.base,
      symbol: scope.symbol,
      line,
      confidence: confidence === 'exact' && !target.inferred ? 'exact' : 'heuristic',
      via: 'RestTemplate',
    });
    return;
  }

  if (CLIENT_VERBS.has(name) || name === 'method') {
    const method = name === 'method' ? httpMethodOf(args[0]) : name.toUpperCase();
    const client = clientOf(file, context, object, scope);
    const uri = method === undefined || client === undefined ? undefined : chainCall(node, ['uri'])?.uri;
    const uriArg = uri === undefined ? undefined : argumentsOf(uri)[0];
    if (
      method === undefined ||
      client === undefined ||
      uriArg === undefined ||
      uriArg.type === 'lambda_expression'
    )
      return;
    const call = urlTarget(urls.parts(uriArg, scope));
    if (call === undefined) return;
    const base =
      client.base === undefined || call.base !== undefined
        ? undefined
        : urlTarget(urls.parts(client.base.node, client.base.scope));
    sink.add({
      kind: 'http_call',
      method,
      path: base === undefined ? call.path : joinPaths(base.path, call.path),
      base: call.base ?? base?.base,
      symbol: scope.symbol,
      line,
      confidence: client.proven && !call.inferred ? 'exact' : 'heuristic',
      via: client.via,
    });
    return;
  }

  if (name === 'newBuilder' && lastSegment(object.text) === 'HttpRequest') {
    const chain = chainCall(node, ['uri', 'GET', 'POST', 'PUT', 'DELETE', 'HEAD', 'method']);
    const verb = Object.keys(chain).find((key) => key !== 'uri');
    const method = verb === undefined ? 'GET' : verb === 'method' ? literalMethod(chain.method) : verb;
    const uriArg = args[0] ?? (chain.uri === undefined ? undefined : argumentsOf(chain.uri)[0]);
    const target =
      uriArg === undefined || method === undefined ? undefined : urlTarget(urls.parts(uriArg, scope));
    if (target === undefined || method === undefined) return;
    sink.add({
      kind: 'http_call',
      method,
      path: target.path,
      base: target.base,
      symbol: scope.symbol,
      line,
      confidence: target.inferred ? 'heuristic' : 'exact',
      via: 'HttpRequest',
    });
  }
}

/** The calls chained on `start` (`start.uri(…).retrieve()`), first of each wanted name. */
function chainCall(start: Node, wanted: readonly string[]): Partial<Record<string, Node>> {
  const found: Partial<Record<string, Node>> = {};
  let current = start;
  for (let parent = current.parent; parent?.type === 'method_invocation'; parent = current.parent) {
    if (parent.childForFieldName('object')?.id !== current.id) break;
    const name = parent.childForFieldName('name')?.text ?? '';
    if (wanted.includes(name) && found[name] === undefined) found[name] = parent;
    current = parent;
  }
  return found;
}

/** `HttpMethod.GET`, `GET` (static import) → `GET`. */
function httpMethodOf(node: Node | undefined): string | undefined {
  if (node === undefined || (node.type !== 'field_access' && node.type !== 'identifier')) return undefined;
  const name = lastSegment(node.text);
  return /^(?:GET|POST|PUT|DELETE|PATCH|HEAD|OPTIONS)$/.test(name) ? name : undefined;
}

function literalMethod(call: Node | undefined): string | undefined {
  const first = call === undefined ? undefined : argumentsOf(call)[0];
  return first?.type === 'string_literal' ? first.text.slice(1, -1).toUpperCase() : undefined;
}

interface Client {
  readonly proven: boolean;
  readonly base: Located | undefined;
  readonly via: string;
}

/** A WebClient / RestClient receiver, with the base URL it was built with when that is traceable. */
function clientOf(
  file: JavaFile,
  context: JavaHttpContext,
  object: Node,
  scope: JavaScope,
): Client | undefined {
  if (object.type === 'method_invocation') {
    const base = baseInChain(object, scope);
    const root = chainRoot(object);
    const type = lastSegment(root.text);
    return REQUEST_CLIENTS.has(type) && base !== undefined ? { proven: true, base, via: type } : undefined;
  }
  const variable = varOf(object, scope);
  const type = variable?.type === undefined ? undefined : lastSegment(variable.type);
  if (variable !== undefined && type !== undefined) {
    if (!REQUEST_CLIENTS.has(type)) return undefined;
    return { proven: true, base: baseOfVar(variable, scope) ?? context.soleBase, via: type };
  }
  const name = object.type === 'field_access' ? (object.childForFieldName('field')?.text ?? '') : object.text;
  if (!/(?:webclient|restclient)$/i.test(name)) return undefined;
  const base = variable === undefined ? context.soleBase : (baseOfVar(variable, scope) ?? context.soleBase);
  return { proven: false, base, via: /restclient$/i.test(name) ? 'RestClient' : 'WebClient' };
}

function baseOfVar(variable: JavaVar, scope: JavaScope): Located | undefined {
  const values = [
    ...(variable.init === undefined ? [] : [{ node: variable.init, scope }]),
    ...variable.assigned,
  ];
  for (const value of values) {
    const base = baseInChain(value.node, value.scope);
    if (base !== undefined) return base;
  }
  return undefined;
}

/** `builder.baseUrl(x).build()` / `WebClient.create(x)` anywhere down a call chain. */
function baseInChain(node: Node, scope: JavaScope): Located | undefined {
  for (
    let current: Node | null = node;
    current?.type === 'method_invocation';
    current = current.childForFieldName('object')
  ) {
    const base = baseArgument(current);
    if (base !== undefined) return { node: base, scope };
  }
  return undefined;
}

function chainRoot(node: Node): Node {
  let current = node;
  for (
    let object = current.childForFieldName('object');
    object !== null;
    object = current.childForFieldName('object')
  ) {
    current = object;
    if (current.type !== 'method_invocation') break;
  }
  return current;
}

/** Turns a URL expression into parts, following locals, fields, constants and `@Value` placeholders. */
class UrlReader {
  constructor(private readonly file: JavaFile) {}

  parts(node: Node, scope: JavaScope, depth = 0): UrlPart[] {
    const param = (): UrlPart[] => [{ kind: 'param', name: paramName(node.text) }];
    if (depth > 6) return param();
    switch (node.type) {
      case 'string_literal':
      case 'field_access':
      case 'identifier': {
        const value = new JavaResolver(this.file, scope.cls).string(node);
        if (value !== undefined) return [{ kind: 'text', text: value }];
        if (node.type === 'string_literal') return param();
        return this.variable(node, scope, depth) ?? param();
      }
      case 'parenthesized_expression': {
        const inner = node.namedChildren[0];
        return inner ? this.parts(inner, scope, depth + 1) : param();
      }
      case 'binary_expression': {
        const left = node.childForFieldName('left');
        const right = node.childForFieldName('right');
        if (node.childForFieldName('operator')?.text !== '+' || left === null || right === null)
          return param();
        return [...this.parts(left, scope, depth + 1), ...this.parts(right, scope, depth + 1)];
      }
      case 'object_creation_expression': {
        const first = argumentsOf(node)[0];
        return lastSegment(node.childForFieldName('type')?.text ?? '') === 'URI' && first
          ? this.parts(first, scope, depth + 1)
          : param();
      }
      case 'method_invocation': {
        const name = node.childForFieldName('name')?.text ?? '';
        const object = node.childForFieldName('object')?.text ?? '';
        const first = argumentsOf(node)[0];
        if (name === 'getenv' && lastSegment(object) === 'System' && first?.type === 'string_literal') {
          return [{ kind: 'base', base: `env:${first.text.slice(1, -1)}` }];
        }
        if (name === 'create' && lastSegment(object) === 'URI' && first)
          return this.parts(first, scope, depth + 1);
        if (name === 'toString' && node.childForFieldName('object')) {
          return this.parts(node.childForFieldName('object') as Node, scope, depth + 1);
        }
        return param();
      }
      default:
        return param();
    }
  }

  private variable(node: Node, scope: JavaScope, depth: number): UrlPart[] | undefined {
    const variable = varOf(node, scope);
    if (variable === undefined) return undefined;
    const placeholder = findAnnotation(variable.annotations, 'Value');
    const key = placeholder === undefined ? undefined : annotationArg(placeholder, [undefined, 'value']);
    if (key?.type === 'string_literal') return [{ kind: 'text', text: key.text.slice(1, -1) }];
    // A single assignment (`this.baseUrl = baseUrl` from a `@Value` constructor parameter) is followed.
    const values = [
      ...(variable.init === undefined ? [] : [{ node: variable.init, scope }]),
      ...variable.assigned,
    ];
    const only = values.length === 1 ? values[0] : undefined;
    if (only !== undefined) {
      const scopeForValue =
        variable.init !== undefined && variable.symbol !== undefined
          ? { ...scope, vars: new Map() }
          : only.scope;
      return this.parts(only.node, scopeForValue, depth + 1);
    }
    return undefined;
  }
}
