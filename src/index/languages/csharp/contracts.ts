/**
 * What a C# type or expression means as a contract: generated gRPC clients and service bases,
 * Confluent.Kafka producers and consumers, `HttpClient`s, request messages and minimal-API route groups;
 * and the ASP.NET attribute routes of a controller. The walk in `csharp.ts` supplies the scopes.
 */
import type { Node } from 'web-tree-sitter';
import { csArguments, csDotted, csLiteral, kids, resolveCs, type CsValueScope } from './values.js';
import { isHealthService } from '../shared/grpc-health.js';
import { DAPR_HTTP_CLIENT, DAPR_REQUEST_BUILDER, daprTarget, httpMethodName } from './http-clients.js';
import { joinHttpPath, type Parts } from '../shared/tree-utils.js';

/** What a variable, field, property or parameter is known to hold. */
export type CsBinding =
  | { readonly kind: 'client'; readonly service: string }
  | { readonly kind: 'producer' }
  | { readonly kind: 'consumer' }
  /**
   * `base` is mutable: `client.BaseAddress = new Uri(…)` may follow the construction. `clientName` names
   * the registration of a named client (`factory.CreateClient("orders")`); `service` is the app a Dapr
   * invocation client calls.
   */
  | { readonly kind: 'http'; base?: Parts; readonly clientName?: string; readonly service?: Parts }
  | {
      readonly kind: 'request';
      readonly verb: string;
      readonly url: Parts;
      readonly expression: string;
      readonly service?: Parts;
    }
  | { readonly kind: 'dapr' }
  | { readonly kind: 'group'; readonly prefix: string };

/** `PaymentService.PaymentServiceClient` → `PaymentService` (the generated nested client class). */
export function clientService(type: Node | null | undefined): string | undefined {
  return nestedGenerated(type, 'Client');
}

/** `PaymentService.PaymentServiceBase` → `PaymentService` (the generated nested service base). */
export function serviceBase(type: Node | null | undefined): string | undefined {
  return nestedGenerated(type, 'Base');
}

function nestedGenerated(type: Node | null | undefined, suffix: string): string | undefined {
  const path = csDotted(type);
  if (path === undefined) return undefined;
  const segments = path.split('.');
  const name = segments[segments.length - 1] ?? '';
  const outer = segments[segments.length - 2];
  if (outer === undefined || name !== `${outer}${suffix}` || isHealthService(outer)) return undefined;
  return outer;
}

/** The binding a declared type gives (`IProducer<K, V>`, `HttpClient`, `X.XClient`). */
export function bindingOfType(type: Node | null | undefined): CsBinding | undefined {
  if (type === null || type === undefined) return undefined;
  if (type.type === 'nullable_type') return bindingOfType(kids(type)[0]);
  const service = clientService(type);
  if (service !== undefined) return { kind: 'client', service };
  const name = csDotted(type)?.split('.').pop();
  if (name === 'IProducer' && type.type === 'generic_name') return { kind: 'producer' };
  if (name === 'IConsumer' && type.type === 'generic_name') return { kind: 'consumer' };
  if (name === 'HttpClient') return { kind: 'http' };
  if (name === 'DaprClient') return { kind: 'dapr' };
  return undefined;
}

/**
 * What a declared variable holds: its initial value's binding when that says more of the same kind
 * (`HttpClient c = factory.CreateClient("orders")` is the named client), else its type's.
 */
export function declaredBinding(
  typeBinding: CsBinding | undefined,
  valueBinding: CsBinding | undefined,
): CsBinding | undefined {
  if (valueBinding === undefined) return typeBinding;
  return typeBinding === undefined || typeBinding.kind === valueBinding.kind ? valueBinding : typeBinding;
}

/** The root of a fluent chain (`new ProducerBuilder<…>(c).SetX(…).Build()` → the `new` expression). */
function chainRoot(node: Node): { readonly root: Node; readonly calls: readonly string[] } {
  const calls: string[] = [];
  let current = node;
  for (;;) {
    if (current.type !== 'invocation_expression') break;
    const callee = current.childForFieldName('function');
    if (callee?.type !== 'member_access_expression') break;
    calls.unshift(csDotted(callee.childForFieldName('name')) ?? '');
    const object = callee.childForFieldName('expression');
    if (object === null) break;
    current = object;
  }
  return { root: current, calls };
}

export interface BindingContext {
  readonly scope: CsValueScope;
  readonly lookup: (key: string) => CsBinding | undefined;
}

/** The binding an initialiser or assigned expression creates, or undefined. */
export function bindingOfExpression(
  node: Node | null | undefined,
  context: BindingContext,
): CsBinding | undefined {
  if (node === null || node === undefined) return undefined;
  switch (node.type) {
    case 'await_expression':
    case 'parenthesized_expression':
    case 'cast_expression':
      return bindingOfExpression(kids(node).at(-1), context);
    case 'identifier':
      return context.lookup(node.text);
    case 'member_access_expression': {
      const path = csDotted(node);
      return path?.startsWith('this.') === true ? context.lookup(path.slice(5)) : undefined;
    }
    case 'object_creation_expression':
      return bindingOfCreation(node, context.scope);
    case 'invocation_expression':
      break;
    default:
      return undefined;
  }
  const { root, calls } = chainRoot(node);
  const rootType =
    root.type === 'object_creation_expression' ? csDotted(root.childForFieldName('type')) : undefined;
  if (calls[calls.length - 1] === 'Build' && rootType === 'ProducerBuilder') return { kind: 'producer' };
  if (calls[calls.length - 1] === 'Build' && rootType === 'ConsumerBuilder') return { kind: 'consumer' };
  const client = clientOfCall(node, calls, rootType, context.scope);
  if (client !== undefined) return client;
  const group = calls.indexOf('MapGroup');
  if (group >= 0) {
    // `app.MapGroup("/api").RequireAuthorization()`: the group is the first MapGroup's result.
    let current: Node | null = node;
    const groups: string[] = [];
    while (current?.type === 'invocation_expression') {
      const callee: Node | null = current.childForFieldName('function');
      if (csDotted(callee?.childForFieldName('name')) === 'MapGroup') {
        const template = csLiteral(csArguments(current.childForFieldName('arguments')).positional[0]);
        if (template === undefined) return undefined;
        groups.unshift(template);
      }
      current = callee?.childForFieldName('expression') ?? null;
    }
    const receiver = current === null ? undefined : bindingOfExpression(current, context);
    return {
      kind: 'group',
      prefix: joinHttpPath(receiver?.kind === 'group' ? receiver.prefix : '', ...groups),
    };
  }
  return undefined;
}

function bindingOfCreation(node: Node, scope: CsValueScope): CsBinding | undefined {
  const type = node.childForFieldName('type');
  const service = clientService(type);
  if (service !== undefined) return { kind: 'client', service };
  const name = csDotted(type)?.split('.').pop();
  const args = csArguments(node.childForFieldName('arguments'));
  if (name === 'HttpClient') {
    const initializer = node.childForFieldName('initializer');
    for (const assignment of kids(initializer)) {
      if (
        assignment.type !== 'assignment_expression' ||
        assignment.childForFieldName('left')?.text !== 'BaseAddress'
      )
        continue;
      const right = assignment.childForFieldName('right');
      if (right !== null) return { kind: 'http', base: resolveCs(right, scope) };
    }
    return { kind: 'http' };
  }
  if (name === 'HttpRequestMessage') {
    // `new HttpRequestMessage(HttpMethod.Get, url)` or `new HttpRequestMessage { Method = …, RequestUri = … }`
    const initial = new Map<string, Node>();
    for (const assignment of kids(node.childForFieldName('initializer'))) {
      const right = assignment.childForFieldName('right');
      if (assignment.type === 'assignment_expression' && right !== null)
        initial.set(assignment.childForFieldName('left')?.text ?? '', right);
    }
    const verb = httpMethodName(args.positional[0] ?? args.named.get('method') ?? initial.get('Method'));
    const url = args.positional[1] ?? args.named.get('requestUri') ?? initial.get('RequestUri');
    if (verb !== undefined && url !== undefined)
      return { kind: 'request', verb, url: resolveCs(url, scope), expression: url.text };
  }
  return undefined;
}

/**
 * A client or request built by a call: `factory.CreateClient("orders")` (a named client),
 * `DaprClient.CreateInvokeHttpClient("orders")`, `new DaprClientBuilder().Build()`,
 * `dapr.CreateInvokeMethodRequest(HttpMethod.Get, "orders", "orders/1")`.
 */
function clientOfCall(
  node: Node,
  calls: readonly string[],
  rootType: string | undefined,
  scope: CsValueScope,
): CsBinding | undefined {
  const last = calls[calls.length - 1];
  if (last === 'Build' && rootType === 'DaprClientBuilder') return { kind: 'dapr' };
  if (calls.length !== 1) return undefined;
  const { positional, named } = csArguments(node.childForFieldName('arguments'));
  if (last === 'CreateClient') {
    const clientName = csLiteral(positional[0] ?? named.get('name'));
    return clientName === undefined ? { kind: 'http' } : { kind: 'http', clientName };
  }
  if (last === DAPR_HTTP_CLIENT) {
    const appId = positional[0] ?? named.get('appId');
    return appId === undefined ? { kind: 'http' } : { kind: 'http', service: resolveCs(appId, scope) };
  }
  if (last === DAPR_REQUEST_BUILDER) {
    const target = daprTarget(node, scope);
    if (target === undefined) return undefined;
    const { verb, method: url, appId: service, expression } = target;
    return { kind: 'request', verb, url, expression, service };
  }
  return undefined;
}

export const MAP_VERBS: ReadonlyMap<string, string> = new Map([
  ['MapGet', 'GET'],
  ['MapPost', 'POST'],
  ['MapPut', 'PUT'],
  ['MapDelete', 'DELETE'],
  ['MapPatch', 'PATCH'],
]);

const ROUTE_ATTRIBUTES: ReadonlyMap<string, string> = new Map([
  ['HttpGet', 'GET'],
  ['HttpPost', 'POST'],
  ['HttpPut', 'PUT'],
  ['HttpDelete', 'DELETE'],
  ['HttpPatch', 'PATCH'],
  ['HttpHead', 'HEAD'],
  ['HttpOptions', 'OPTIONS'],
]);

interface AttributeInfo {
  readonly name: string;
  readonly template?: string;
}

/** The attributes of a declaration: name without the `Attribute` suffix, and its first string argument. */
export function attributesOf(node: Node): AttributeInfo[] {
  const result: AttributeInfo[] = [];
  for (const list of kids(node)) {
    if (list.type !== 'attribute_list') continue;
    for (const attribute of kids(list)) {
      if (attribute.type !== 'attribute') continue;
      const name = (csDotted(attribute.childForFieldName('name'))?.split('.').pop() ?? '').replace(
        /Attribute$/,
        '',
      );
      const argument = kids(kids(attribute).find((child) => child.type === 'attribute_argument_list')).find(
        (child) => child.type === 'attribute_argument' && child.childForFieldName('name') === null,
      );
      const template = csLiteral(kids(argument).at(-1));
      result.push(template === undefined ? { name } : { name, template });
    }
  }
  return result;
}

/** The class-level `[Route]` template with `[controller]` expanded, or '' when there is none. */
export function controllerPrefix(attributes: readonly AttributeInfo[], className: string): string {
  const route = attributes.find((attribute) => attribute.name === 'Route')?.template ?? '';
  return route.replace(/\[controller\]/gi, className.replace(/Controller$/, ''));
}

/** The routes of a controller action: one per `[HttpX]` attribute (an `[HttpX]` without template uses `[Route]`). */
export function actionRoutes(
  attributes: readonly AttributeInfo[],
  prefix: string,
  actionName: string,
): { readonly method: string; readonly path: string; readonly via: string }[] {
  const own = attributes.find((attribute) => attribute.name === 'Route')?.template;
  const routes: { method: string; path: string; via: string }[] = [];
  for (const attribute of attributes) {
    const method = ROUTE_ATTRIBUTES.get(attribute.name);
    if (method === undefined) continue;
    const template = (attribute.template ?? own ?? '').replace(/\[action\]/gi, actionName);
    // `~/x` and `/x` ignore the controller's prefix.
    const absolute = template.startsWith('/') || template.startsWith('~/');
    const path = absolute
      ? joinHttpPath(template.replace(/^~/, ''))
      : joinHttpPath(prefix.replace(/\[action\]/gi, actionName), template);
    routes.push({ method, path, via: `aspnet [${attribute.name}]` });
  }
  return routes;
}
