/**
 * Dapr's gRPC callback server for Python (`dapr.ext.grpc`): `app = App()` then `@app.method(name='orders')`
 * makes the function the handler of every invocation of the method `orders`, whatever its verb — a route
 * ANY `/orders` of the app.
 */
import type { Node } from 'web-tree-sitter';
import type { ContractFact } from '../../facts.js';
import { callArguments, literalString } from './values.js';
import { joinHttpPath } from '../shared/tree-utils.js';

/** Where the server comes from, the decorator that registers a handler, and where it takes the name. */
export const DAPR_APP = {
  module: 'dapr.ext.grpc',
  servers: ['App'],
  decorators: ['method'],
  name: { position: 0, keyword: 'name' },
} as const;

/** The route `@app.<decorator>(…)` declares on a Dapr App; undefined for another decorator or no name. */
export function daprMethodRoute(decorator: string, call: Node, line: number): ContractFact | undefined {
  if (!DAPR_APP.decorators.some((name) => name === decorator)) return undefined;
  const { positional, keywords } = callArguments(call.childForFieldName('arguments'));
  const name = literalString(keywords.get(DAPR_APP.name.keyword) ?? positional[DAPR_APP.name.position]);
  if (name === undefined || name.trim() === '') return undefined;
  return {
    kind: 'http_route',
    method: 'ANY',
    path: joinHttpPath(name.trim()),
    line,
    via: 'dapr invocation handler',
  };
}
