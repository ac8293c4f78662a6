/**
 * Dapr service invocation handlers: `s.AddServiceInvocationHandler("/echo", echoHandler)` on a service of
 * Dapr's Go SDK (`service/http`, `service/grpc`, or the `service/common` interface) receives every
 * invocation of the method `echo`, whatever its verb: a route ANY `/echo`.
 */
import type { Node } from 'web-tree-sitter';
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
