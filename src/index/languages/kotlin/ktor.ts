/**
 * Ktor routing DSL: `routing { route("/api") { get("/x/{id}") { … } } }` and `fun Route.x() { … }`. The
 * Kotlin walk carries a context down the tree; each call either opens a routing block, adds a prefix, or
 * declares a route under the current prefix. Verbs outside a routing block are ordinary calls.
 */
import type { Node } from 'web-tree-sitter';
import { joinPaths } from '../shared/jvm/route-paths.js';
import { lastSegment, lineOf } from '../shared/jvm/common.js';
import { callOf, type KtFile, type KtScope } from './model.js';
import { KtResolver } from './values.js';

/** A Ktor route found while walking bodies. */
export interface KtRoute {
  readonly method: string;
  readonly path: string;
  readonly symbol: number | undefined;
  readonly line: number;
}

/** Where a body sits: inside `routing { }` / `route("/x") { }` / a `Route.` extension, under which prefix. */
export interface KtorContext {
  readonly routing: boolean;
  readonly prefix: string;
}

const KTOR_VERBS: ReadonlySet<string> = new Set(['get', 'post', 'put', 'delete', 'patch', 'head', 'options']);

/** Records the route a call declares (if any) and returns the context for what the call's lambda holds. */
export function ktorStep(
  node: Node,
  file: KtFile,
  scope: KtScope,
  context: KtorContext,
  routes: KtRoute[],
): KtorContext {
  const call = callOf(node);
  if (call === undefined || call.lambda === undefined || call.receiver !== undefined) return context;
  if (call.name === 'routing') return { routing: true, prefix: '' };
  if (!context.routing) return context;
  const resolver = new KtResolver(file, scope.cls);
  const first = call.args.find((arg) => arg.name === undefined || arg.name === 'path')?.value;
  const path = first === undefined ? '' : resolver.string(first);
  if (path === undefined) return { routing: false, prefix: '' };
  if (call.name === 'route') {
    const method = call.args.find(
      (arg) => arg.name === 'method' || (arg.name === undefined && arg.value !== first),
    )?.value;
    if (method === undefined) return { routing: true, prefix: joinPaths(context.prefix, path) };
    routes.push({
      method: lastSegment(method.text).toUpperCase(),
      path: joinPaths(context.prefix, path),
      symbol: scope.symbol,
      line: lineOf(call.nameNode),
    });
    return context;
  }
  if (KTOR_VERBS.has(call.name)) {
    routes.push({
      method: call.name.toUpperCase(),
      path: joinPaths(context.prefix, path),
      symbol: scope.symbol,
      line: lineOf(call.nameNode),
    });
  }
  return context;
}
