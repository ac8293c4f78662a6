/**
 * Java HTTP client calls: RestTemplate, WebClient / RestClient request chains and java.net.http
 * `HttpRequest` builders. A URL expression is split into a base (a literal host, a `@Value` placeholder
 * kept verbatim, `env:NAME` from `System.getenv`) and a path whose non-literal pieces become `{param}`.
 */
import type { Node } from 'web-tree-sitter';
import type { FactBuilder } from '../shared/fact-builder.js';
import {
  argumentsOf,
  type JavaFile,
  JavaResolver,
  type JavaScope,
  type JavaSite,
  receiverConfidence,
  varOf,
} from './model.js';
import { lastSegment, lineOf } from '../shared/jvm/common.js';
import {
  firstOfValues,
  httpMethodName,
  paramName,
  REQUEST_CLIENTS,
  type RequestClient,
  requestClientKind,
  SPRING_HTTP_NAMES,
  springHttpCall,
  type UrlPart,
  urlTarget,
  variableUrl,
} from '../shared/jvm/http.js';

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
  facts: FactBuilder,
): void {
  const { node, scope, nameNode, name, object } = site;
  if (nameNode === null || object === null || (!SPRING_HTTP_NAMES.has(name) && name !== 'newBuilder')) return;
  const line = lineOf(nameNode);
  const urls = new UrlReader(file);
  if (SPRING_HTTP_NAMES.has(name)) {
    const args = argumentsOf(node);
    const fact = springHttpCall({
      name,
      symbol: scope.symbol,
      line,
      argument: (index) => args[index],
      method: httpMethodOf,
      receiverOf: (types, namePattern) => receiverConfidence(object, scope, types, namePattern),
      client: () => clientOf(context, object, scope, urls),
      uriArgument: () => {
        const uri = chainCall(node, ['uri']).uri;
        const first = uri === undefined ? undefined : argumentsOf(uri)[0];
        return first?.type === 'lambda_expression' ? undefined : first;
      },
      urlParts: (url) => urls.parts(url, scope),
    });
    if (fact !== undefined) facts.addContract(fact);
    return;
  }

  if (name === 'newBuilder' && lastSegment(object.text) === 'HttpRequest') {
    const args = argumentsOf(node);
    const chain = chainCall(node, ['uri', 'GET', 'POST', 'PUT', 'DELETE', 'HEAD', 'method']);
    const verb = Object.keys(chain).find((key) => key !== 'uri');
    const method = verb === undefined ? 'GET' : verb === 'method' ? literalMethod(chain.method) : verb;
    const uriArg = args[0] ?? (chain.uri === undefined ? undefined : argumentsOf(chain.uri)[0]);
    const target =
      uriArg === undefined || method === undefined ? undefined : urlTarget(urls.parts(uriArg, scope));
    if (target === undefined || method === undefined) return;
    facts.addContract({
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
  return httpMethodName(node.text);
}

function literalMethod(call: Node | undefined): string | undefined {
  const first = call === undefined ? undefined : argumentsOf(call)[0];
  return first?.type === 'string_literal' ? first.text.slice(1, -1).toUpperCase() : undefined;
}

/** A WebClient / RestClient receiver, with the base URL it was built with when that is traceable. */
function clientOf(
  context: JavaHttpContext,
  object: Node,
  scope: JavaScope,
  urls: UrlReader,
): RequestClient | undefined {
  const located = (base: Located | undefined): RequestClient['base'] =>
    base === undefined ? undefined : () => urls.parts(base.node, base.scope);
  if (object.type === 'method_invocation') {
    const base = baseInChain(object, scope);
    const root = chainRoot(object);
    const type = lastSegment(root.text);
    return REQUEST_CLIENTS.has(type) && base !== undefined
      ? { proven: true, base: located(base), via: type }
      : undefined;
  }
  const variable = varOf(object, scope);
  const name = object.type === 'field_access' ? (object.childForFieldName('field')?.text ?? '') : object.text;
  const kind = requestClientKind(variable?.type, name);
  if (kind === undefined) return undefined;
  const base = variable === undefined ? undefined : firstOfValues(variable, scope, baseInChain);
  return { ...kind, base: located(base ?? context.soleBase) };
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
    return variableUrl(
      variable,
      scope,
      (key) => (key.type === 'string_literal' ? key.text.slice(1, -1) : undefined),
      (value, valueScope) => this.parts(value, valueScope, depth + 1),
    );
  }
}
