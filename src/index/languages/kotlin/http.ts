/**
 * Kotlin Spring HTTP clients: RestTemplate calls and WebClient / RestClient request chains, read from the
 * Kotlin tree into the rules Java uses too (`springHttpCall`). A receiver counts by its declared type or by
 * the value it is built from (`RestTemplate()`, `WebClient.create(…)`, `builder.baseUrl(…).build()`); only
 * when neither is known does a telling name count, and then as a heuristic.
 */
import type { Node } from 'web-tree-sitter';
import type { ContractFact } from '../../facts.js';
import type { ContractSink } from '../shared/jvm/grpc-stub-use.js';
import { lastSegment, lineOf } from '../shared/jvm/common.js';
import { firstOfValues, type RequestClient, requestClientKind } from '../shared/jvm/http.js';
import {
  CLIENT_VERBS,
  DIRECT_CALL_NAMES,
  type DirectClient,
  httpMethodName,
  isClientType,
  JAVA_NET_HTTP,
  OKHTTP,
  REQUEST_CLIENTS,
  REST_TEMPLATE,
} from '../shared/jvm/http-clients.js';
import {
  builderChainCalls,
  type CallReader,
  type ChainStep,
  directHttpCalls,
  requestChainCalls,
} from '../shared/jvm/client-calls.js';
import { callOf, type KtCall, type KtFile, type KtScope, varOf } from './model.js';
import { constructedType, receiverConfidence } from './receivers.js';
import { KtUrlReader } from './urls.js';
import { ktString } from './values.js';

/** A call site with its parts read once. */
export interface KtCallSite {
  readonly node: Node;
  readonly scope: KtScope;
  readonly call: KtCall;
}

interface Located {
  readonly node: Node;
  readonly scope: KtScope;
}

export interface KtHttpContext {
  readonly urls: KtUrlReader;
  /**
   * The one `baseUrl(…)` / `WebClient.create(…)` of the file, for a client whose own base is not traceable
   * (injected, but built by a `@Bean` of the same file).
   */
  readonly soleBase: Located | undefined;
}

export function kotlinHttpContext(file: KtFile, calls: readonly KtCallSite[]): KtHttpContext {
  const bases: Located[] = [];
  for (const { call, scope } of calls) {
    const base = baseArgument(call);
    if (base !== undefined) bases.push({ node: base, scope });
  }
  return { urls: new KtUrlReader(file), soleBase: bases.length === 1 ? bases[0] : undefined };
}

export function kotlinHttpCall(context: KtHttpContext, site: KtCallSite, facts: ContractSink): void {
  for (const fact of httpCallsAt(context, site)) facts.addContract(fact);
}

function httpCallsAt(context: KtHttpContext, site: KtCallSite): ContractFact[] {
  const { node, scope, call } = site;
  const receiver = call.receiver;
  const reader: CallReader = {
    name: call.name,
    symbol: scope.symbol,
    line: lineOf(call.nameNode),
    argument: (index) => call.args[index]?.value,
    method: methodOf,
    urls: (url) => context.urls.alternatives(url, scope),
    string: (value) => ktString(value),
  };
  if (call.name === 'Builder' && lastSegment(receiver?.text ?? '') === 'Request')
    return builderChainCalls(OKHTTP, { name: call.name, args: [] }, chainSteps(node), reader, {
      proven: true,
    });
  if (call.name === 'newBuilder' && lastSegment(receiver?.text ?? '') === 'HttpRequest') {
    const args = call.args.map((arg) => arg.value);
    return builderChainCalls(JAVA_NET_HTTP, { name: call.name, args }, chainSteps(node), reader, {
      proven: true,
    });
  }
  if (receiver === undefined) return [];
  if (DIRECT_CALL_NAMES.has(call.name)) {
    const found = directHttpCalls({
      ...reader,
      receiverOf: (client) => directReceiver(client, receiver, scope),
      clientBase: (client) =>
        client.via === 'Ktor HttpClient' ? ktorBase(context, receiver, scope) : undefined,
    });
    if (found.length > 0 || call.args.length > 0) return found;
  }
  if (!CLIENT_VERBS.has(call.name) && call.name !== 'method') return [];
  return requestChainCalls({
    ...reader,
    client: () => clientOf(context, receiver, scope),
    uriArgument: () => chainedUri(node),
  });
}

/** `HttpMethod.PUT`, Ktor's `HttpMethod.Put`, `HttpExtension.POST`, `"PUT"` → the method. */
function methodOf(argument: Node | undefined): string | undefined {
  if (argument === undefined) return undefined;
  const literal = argument.type === 'string_literal' ? ktString(argument) : undefined;
  if (literal !== undefined) return httpMethodName(literal.toUpperCase());
  return argument.type === 'identifier' || argument.type === 'navigation_expression'
    ? httpMethodName(argument.text.replace(/\s+/g, ''))
    : undefined;
}

function directReceiver(
  client: DirectClient,
  receiver: Node,
  scope: KtScope,
): 'exact' | 'heuristic' | undefined {
  const types = new Set([...client.types]);
  const confidence = receiverConfidence(receiver, scope, types, client.namePattern, (value) =>
    builtType(value, scope),
  );
  if (confidence !== undefined || client.typeSuffix === undefined) return confidence;
  // A subclass named after its base (`OAuth2RestTemplate`) is the client too.
  const variable = varOf(receiver, scope);
  const type = variable?.type ?? (variable?.init === undefined ? undefined : constructedType(variable.init));
  return type !== undefined && isClientType(client, type) ? 'exact' : undefined;
}

/** The `defaultRequest { url("…") }` base of a Ktor client built in the same file. */
function ktorBase(
  context: KtHttpContext,
  receiver: Node,
  scope: KtScope,
): ReturnType<KtUrlReader['alternatives']> | undefined {
  const variable = varOf(receiver, scope);
  if (variable === undefined) return undefined;
  const found = firstOfValues(variable, scope, (value, valueScope) => {
    for (const candidate of value.descendantsOfType('call_expression')) {
      const call = candidate === null ? undefined : callOf(candidate);
      if (call?.name !== 'url' || call.args[0] === undefined) continue;
      const inDefault = hasAncestorCall(candidate as Node, value, 'defaultRequest');
      if (inDefault) return { node: call.args[0].value, scope: valueScope };
    }
    return undefined;
  });
  return found === undefined ? undefined : context.urls.alternatives(found.node, found.scope);
}

function hasAncestorCall(node: Node, limit: Node, name: string): boolean {
  for (
    let current = node.parent;
    current !== null && current.id !== limit.parent?.id;
    current = current.parent
  ) {
    if (current.type === 'call_expression' && callOf(current)?.name === name) return true;
  }
  return false;
}

/** The calls chained on `start` (`Request.Builder().url(u).post(body).build()`), in order. */
function chainSteps(start: Node): ChainStep[] {
  const steps: ChainStep[] = [];
  let current = start;
  for (let depth = 0; depth < 16; depth++) {
    const navigation = current.parent;
    if (navigation?.type !== 'navigation_expression' || navigation.firstNamedChild?.id !== current.id) break;
    const outer = navigation.parent;
    const call = outer?.type === 'call_expression' ? callOf(outer) : undefined;
    if (outer === null || call === undefined) break;
    steps.push({ name: call.name, args: call.args.map((arg) => arg.value) });
    const wrapper = outer.parent;
    current =
      wrapper?.type === 'call_expression' && wrapper.firstNamedChild?.id === outer.id ? wrapper : outer;
  }
  return steps;
}

/** A WebClient / RestClient receiver, with the base URL it was built with when that is traceable. */
function clientOf(context: KtHttpContext, receiver: Node, scope: KtScope): RequestClient | undefined {
  const located = (base: Located | undefined): RequestClient['base'] =>
    base === undefined ? undefined : () => context.urls.parts(base.node, base.scope);
  if (receiver.type === 'call_expression') {
    // `WebClient.create(url).get()`, `RestClient.builder().baseUrl(url).build().get()`.
    const type = builtType(receiver, scope);
    const base = baseInChain(receiver, scope);
    const via = type === undefined ? undefined : lastSegment(type);
    return via !== undefined && REQUEST_CLIENTS.has(via) && base !== undefined
      ? { proven: true, via, base: located(base) }
      : undefined;
  }
  if (receiver.type !== 'identifier' && receiver.type !== 'navigation_expression') return undefined;
  const variable = varOf(receiver, scope);
  const type = variable?.type ?? (variable?.init === undefined ? undefined : builtType(variable.init, scope));
  const kind = requestClientKind(type, lastSegment(receiver.text.replace(/\s+/g, '')));
  if (kind === undefined) return undefined;
  const own = variable === undefined ? undefined : firstOfValues(variable, scope, baseInChain);
  return { ...kind, base: located(own ?? context.soleBase) };
}

/**
 * The type a value is built as, when the source shows it: a constructor call (`RestTemplate()`), or a
 * `create` / `build` chain started from a client type or its builder (`WebClient.create(…)`,
 * `RestClient.builder()….build()`, `builder.build()` of a `WebClient.Builder` or `RestTemplateBuilder`).
 * Any other chain says nothing about what it returns.
 */
function builtType(value: Node, scope: KtScope): string | undefined {
  const constructed = constructedType(value);
  if (constructed !== undefined || value.type !== 'call_expression') return constructed;
  const name = callOf(value)?.name;
  if (name !== 'build' && name !== 'create') return undefined;
  const root = chainRoot(value);
  const written = lastSegment(root.text.replace(/\s+/g, ''));
  const rootType =
    varOf(root, scope)?.type ??
    (root.type !== 'call_expression' && /^[A-Z]/.test(written) ? written : constructedType(root));
  const built = rootType === undefined ? undefined : lastSegment(rootType.replace(/\.?Builder$/, ''));
  return built !== undefined && (REQUEST_CLIENTS.has(built) || REST_TEMPLATE.types.has(built))
    ? built
    : undefined;
}

/** The expression a call chain starts from: `WebClient` in `WebClient.builder().build()`. */
function chainRoot(node: Node): Node {
  let current = node;
  for (let depth = 0; depth < 16 && current.type === 'call_expression'; depth++) {
    const receiver = callOf(current)?.receiver;
    if (receiver === undefined) break;
    current = receiver;
  }
  return current;
}

/** The URL argument of `x.baseUrl(url)` or `WebClient.create(url)` / `RestClient.create(url)`. */
function baseArgument(call: KtCall): Node | undefined {
  const owner = call.receiver === undefined ? '' : lastSegment(call.receiver.text.replace(/\s+/g, ''));
  const isBase = call.name === 'baseUrl' || (call.name === 'create' && REQUEST_CLIENTS.has(owner));
  return isBase ? call.args[0]?.value : undefined;
}

/** `builder.baseUrl(x).build()` / `WebClient.create(x)` anywhere down a call chain. */
function baseInChain(node: Node, scope: KtScope): Located | undefined {
  let current: Node | undefined = node;
  for (let depth = 0; depth < 16 && current?.type === 'call_expression'; depth++) {
    const call = callOf(current);
    const base = call === undefined ? undefined : baseArgument(call);
    if (base !== undefined) return { node: base, scope };
    current = call?.receiver;
  }
  return undefined;
}

/**
 * The URL argument of the `.uri(…)` chained on a request call (`client.get().uri(url, id).retrieve()`);
 * none for a URI-builder lambda (`uri { it.path(…).build() }`).
 */
function chainedUri(start: Node): Node | undefined {
  let current = start;
  for (let depth = 0; depth < 16; depth++) {
    const navigation = current.parent;
    if (navigation?.type !== 'navigation_expression' || navigation.firstNamedChild?.id !== current.id)
      return undefined;
    const outer = navigation.parent;
    const call = outer?.type === 'call_expression' ? callOf(outer) : undefined;
    if (outer === null || call === undefined) return undefined;
    if (call.name === 'uri') {
      const first = call.args[0]?.value;
      return call.lambda !== undefined || first?.type === 'lambda_literal' ? undefined : first;
    }
    // `.header("a", "b") { … }`: a trailing lambda after parentheses wraps the call once more.
    const wrapper = outer.parent;
    current =
      wrapper?.type === 'call_expression' && wrapper.firstNamedChild?.id === outer.id ? wrapper : outer;
  }
  return undefined;
}
