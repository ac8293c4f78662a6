/**
 * Slim's router variables: which variable holds a Slim app or a group's route collector where a call is,
 * and the path prefix it adds.
 */
import type { Node } from 'web-tree-sitter';
import type { ImportFact } from '../../facts.js';
import { named } from './values.js';

/** Parameter types that make a variable a Slim router: the app, or a group's route collector. */
const SLIM_ROUTER_TYPE = /(?:^|\\)(?:App|RouteCollectorProxy(?:Interface)?)$/;
const FUNCTIONS = new Set([
  'anonymous_function',
  'arrow_function',
  'function_definition',
  'method_declaration',
]);

/**
 * The path prefix of a variable that holds a Slim router where `at` is, undefined when it is none: a group
 * closure's parameter (in `groups`), a parameter typed `App`/`RouteCollectorProxy`, or `$app` in a file
 * importing `Slim\…`.
 */
export function slimRouterPrefix(
  variable: string,
  at: Node,
  groups: ReadonlyMap<string, string>,
  imports: readonly ImportFact[],
): string | undefined {
  const grouped = groups.get(variable);
  if (grouped !== undefined) return grouped;
  const slimFile = imports.some((i) => /^Slim\\/.test(i.source));
  for (let node = at.parent; node !== null; node = node.parent) {
    if (!FUNCTIONS.has(node.type)) continue;
    for (const param of named(node.childForFieldName('parameters'))) {
      if (param.childForFieldName('name')?.text !== variable) continue;
      const type = param.childForFieldName('type')?.text.replace(/^\\/, '');
      const slim = type !== undefined && SLIM_ROUTER_TYPE.test(type) && (slimFile || /^Slim\\/.test(type));
      return slim ? '' : undefined;
    }
    // A closure sees outer variables through `use (…)`: look further out; a named function ends the search.
    if (node.type !== 'anonymous_function' && node.type !== 'arrow_function') break;
  }
  return variable === '$app' && slimFile ? '' : undefined;
}
