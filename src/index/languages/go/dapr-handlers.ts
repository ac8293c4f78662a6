/**
 * Dapr service invocation handlers and subscription routes: `s.AddServiceInvocationHandler("/echo", echoHandler)` on a service of
 * Dapr's Go SDK (`service/http`, `service/grpc`, or the `service/common` interface) receives every
 * invocation of the method `echo`, whatever its verb: a route ANY `/echo`. On the HTTP service
 * (`service/http`), `common.Subscription{Route: "/orders"}` is where the sidecar POSTs each event of the
 * subscribed topic: a route POST `/orders` (the gRPC service delivers events through its callback instead).
 */
import type { Node } from 'web-tree-sitter';
import { keyedFields } from './events.js';
import { argumentsOf, stringValue, type GoScope } from './scope.js';
import { joinHttpPath, startLineOf } from '../shared/tree-utils.js';

const DAPR_SERVICE = {
  importPath: /^github\.com\/dapr\/go-sdk\/service\/(http|grpc|common)$/,
  methods: ['AddServiceInvocationHandler'],
  name: 0,
} as const;

export const DAPR_HANDLER_METHODS: readonly string[] = DAPR_SERVICE.methods;

/** Emits the route a Dapr invocation handler registration declares; true when `call` was one. */
export function daprInvocationHandler(call: Node, method: string, scope: GoScope): boolean {
  if (!DAPR_SERVICE.methods.some((name) => name === method)) return false;
  if (![...scope.file.imports.values()].some((path) => DAPR_SERVICE.importPath.test(path))) return false;
  const nameArg = argumentsOf(call)[DAPR_SERVICE.name];
  const name = nameArg === undefined ? undefined : stringValue(nameArg, scope)?.value;
  if (nameArg === undefined || name === undefined || name.trim() === '') return false;
  scope.file.facts.addContract({
    kind: 'http_route',
    method: 'ANY',
    path: joinHttpPath(name.trim()),
    symbol: scope.symbol,
    line: startLineOf(nameArg),
    via: 'dapr invocation handler',
  });
  return true;
}

const DAPR_HTTP_SERVICE = /^github\.com\/dapr\/go-sdk\/service\/http$/;
const DAPR_COMMON = /^github\.com\/dapr\/go-sdk\/service\/common$/;

/** Emits the POST route of a `common.Subscription{…, Route: "/x"}` in a file serving over Dapr's HTTP service. */
export function daprSubscriptionRoute(literal: Node, type: Node, scope: GoScope): void {
  if (type.childForFieldName('name')?.text !== 'Subscription') return;
  const pkg = scope.packagePath(type.childForFieldName('package')?.text ?? '') ?? '';
  if (!DAPR_COMMON.test(pkg)) return;
  if (![...scope.file.imports.values()].some((path) => DAPR_HTTP_SERVICE.test(path))) return;
  const route = keyedFields(literal).get('Route');
  const path = route === undefined ? undefined : stringValue(route, scope)?.value.trim();
  if (route === undefined || path === undefined || path === '') return;
  scope.file.facts.addContract({
    kind: 'http_route',
    method: 'POST',
    path: joinHttpPath(path),
    symbol: scope.symbol,
    line: startLineOf(route),
    via: 'dapr subscription route',
  });
}
