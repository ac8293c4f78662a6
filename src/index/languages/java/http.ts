/**
 * Java HTTP client calls, read from the Java tree into the shared client table: direct calls on a client
 * (RestTemplate and its subclasses, Dapr), WebClient / RestClient request chains, and request builders
 * (java.net.http, OkHttp, JAX-RS client). URL expressions are read by `JavaUrlReader`.
 */
import type { Node } from 'web-tree-sitter';
import type { ContractFact } from '../../facts.js';
import type { ContractSink } from '../shared/jvm/grpc-stub-use.js';
import {
  argumentsOf,
  type JavaFile,
  JavaResolver,
  type JavaScope,
  type JavaSite,
  javaString,
  plainType,
  typeOfVar,
  varOf,
} from './model.js';
import { lastSegment, lineOf } from '../shared/jvm/common.js';
import { firstOfValues, type RequestClient, requestClientKind } from '../shared/jvm/http.js';
import {
  CLIENT_VERBS,
  DIRECT_CALL_NAMES,
  type DirectClient,
  httpMethodName,
  isClientType,
  JAVA_NET_HTTP,
  JAXRS_CLIENT,
  OKHTTP,
  REQUEST_CLIENTS,
} from '../shared/jvm/http-clients.js';
import {
  builderChainCalls,
  type CallReader,
  type ChainStep,
  directHttpCalls,
  requestChainCalls,
} from '../shared/jvm/client-calls.js';
import { JavaUrlReader } from './urls.js';

interface Located {
  readonly node: Node;
  readonly scope: JavaScope;
}

export interface JavaHttpContext {
  readonly urls: JavaUrlReader;
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
  return { urls: new JavaUrlReader(file), soleBase: bases.length === 1 ? bases[0] : undefined };
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
  facts: ContractSink,
): void {
  for (const fact of httpCallsAt(file, context, site)) facts.addContract(fact);
}

function httpCallsAt(file: JavaFile, context: JavaHttpContext, site: JavaSite): ContractFact[] {
  const { node, scope, name, object } = site;
  const reader = callReader(file, context, site);
  if (node.type === 'object_creation_expression') {
    const type = plainType(node.childForFieldName('type'));
    return type?.replace(/\s+/g, '') === 'Request.Builder'
      ? builderChainCalls(OKHTTP, { name: 'Builder', args: [] }, chainSteps(node), reader, { proven: true })
      : [];
  }
  if (site.nameNode === null) return [];
  if (DIRECT_CALL_NAMES.has(name)) {
    const found = directHttpCalls({
      ...reader,
      receiverOf: (client) => directReceiver(file, client, object, scope),
    });
    if (found.length > 0) return found;
  }
  if (object !== null && (CLIENT_VERBS.has(name) || name === 'method')) {
    return requestChainCalls({
      ...reader,
      client: () => clientOf(context, object, scope),
      uriArgument: () => {
        const uri = chainSteps(node).find((step) => step.name === 'uri');
        const first = uri?.args[0];
        return first?.type === 'lambda_expression' ? undefined : first;
      },
    });
  }
  if (name === 'newBuilder' && lastSegment(object?.text ?? '') === 'HttpRequest') {
    return builderChainCalls(JAVA_NET_HTTP, { name, args: argumentsOf(node) }, chainSteps(node), reader, {
      proven: true,
    });
  }
  if (name === 'target' && object !== null) {
    return builderChainCalls(JAXRS_CLIENT, { name, args: argumentsOf(node) }, chainSteps(node), reader, {
      proven: true,
    });
  }
  return webTargetCalls(context, site, reader);
}

/** `target.path("x").request().get()` on a `WebTarget` variable: its base is the `target(…)` it was given. */
function webTargetCalls(context: JavaHttpContext, site: JavaSite, reader: CallReader): ContractFact[] {
  const { node, scope, name, object } = site;
  if (object === null || (name !== 'path' && name !== 'request')) return [];
  const variable = varOf(object, scope);
  if (variable === undefined || lastSegment(typeOfVar(variable) ?? '') !== 'WebTarget') return [];
  const target = firstOfValues(variable, scope, (value, valueScope) => {
    const call = value.type === 'method_invocation' && value.childForFieldName('name')?.text === 'target';
    const arg = call ? argumentsOf(value)[0] : undefined;
    return arg === undefined ? undefined : { node: arg, scope: valueScope };
  });
  const startBase =
    target === undefined
      ? [[{ kind: 'param' as const, name: '' }]]
      : context.urls.alternatives(target.node, target.scope);
  const steps = [{ name, args: argumentsOf(node) }, ...chainSteps(node)];
  return builderChainCalls(JAXRS_CLIENT, { name: 'target', args: [] }, steps, reader, {
    startBase,
    proven: true,
  });
}

function callReader(file: JavaFile, context: JavaHttpContext, site: JavaSite): CallReader {
  const args = site.node.type === 'method_invocation' ? argumentsOf(site.node) : [];
  return {
    name: site.name,
    symbol: site.scope.symbol,
    line: lineOf(site.nameNode ?? site.node),
    argument: (index) => args[index],
    method: methodOf,
    urls: (url) => context.urls.alternatives(url, site.scope),
    string: (node) => new JavaResolver(file, site.scope.cls).string(node),
  };
}

/** The calls chained on `start` (`start.uri(…).retrieve()`), in order. */
function chainSteps(start: Node): ChainStep[] {
  const steps: ChainStep[] = [];
  let current = start;
  for (let parent = current.parent; parent?.type === 'method_invocation'; parent = current.parent) {
    if (parent.childForFieldName('object')?.id !== current.id) break;
    steps.push({ name: parent.childForFieldName('name')?.text ?? '', args: argumentsOf(parent) });
    current = parent;
  }
  return steps;
}

/** `HttpMethod.GET`, `GET` (static import), `HttpExtension.POST` or `"PUT"` → the method. */
function methodOf(node: Node | undefined): string | undefined {
  if (node?.type === 'string_literal') return httpMethodName(javaString(node).toUpperCase());
  if (node === undefined || (node.type !== 'field_access' && node.type !== 'identifier')) return undefined;
  return httpMethodName(node.text);
}

/**
 * How sure it is that a call's receiver is the client: `exact` when its declared type is the client's or a
 * class of this file extending it (also `this` and unqualified calls inside such a class), `heuristic` for
 * an unknown type with a telling name.
 */
function directReceiver(
  file: JavaFile,
  client: DirectClient,
  object: Node | null,
  scope: JavaScope,
): 'exact' | 'heuristic' | undefined {
  const isClient = (type: string | undefined): boolean => {
    if (type === undefined) return false;
    if (isClientType(client, type)) return true;
    const declared = file.classes.find((cls) => cls.name === lastSegment(type));
    return declared?.superclass !== undefined && isClientType(client, declared.superclass);
  };
  if (object === null || object.type === 'this') return isClient(scope.cls.superclass) ? 'exact' : undefined;
  const variable = varOf(object, scope);
  const type = variable === undefined ? undefined : typeOfVar(variable);
  if (type !== undefined) return isClient(type) ? 'exact' : undefined;
  const name = object.type === 'field_access' ? (object.childForFieldName('field')?.text ?? '') : object.text;
  return (object.type === 'identifier' || object.type === 'field_access') && client.namePattern.test(name)
    ? 'heuristic'
    : undefined;
}

/** A WebClient / RestClient receiver, with the base URL it was built with when that is traceable. */
function clientOf(context: JavaHttpContext, object: Node, scope: JavaScope): RequestClient | undefined {
  const located = (base: Located | undefined): RequestClient['base'] =>
    base === undefined ? undefined : () => [...(context.urls.alternatives(base.node, base.scope)[0] ?? [])];
  if (object.type === 'method_invocation') {
    const base = baseInChain(object, scope);
    const type = lastSegment(chainRoot(object).text);
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
