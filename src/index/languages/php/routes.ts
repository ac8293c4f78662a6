/**
 * PHP route declarations besides Laravel's verb calls and Slim (in `extract.ts`): Symfony's `#[Route]`
 * attributes and `@Route` annotations on controller methods (the class's own `Route` is the prefix; no
 * `methods` means any method), Laravel's `Route::resource`/`apiResource` expanded to their actions, and the
 * `Route::…` chain test (with its `prefix(…)`) that tells a Laravel verb call from any other call.
 */
import type { Node } from 'web-tree-sitter';
import { argumentsOf, named, phpLiteral } from './values.js';
import { joinHttpPath } from '../shared/tree-utils.js';

/** The `Route` classes whose attribute (or annotation) declares a route. */
const SYMFONY_ROUTE_CLASSES: readonly string[] = [
  'Symfony\\Component\\Routing\\Attribute\\Route',
  'Symfony\\Component\\Routing\\Annotation\\Route',
];

export interface DeclaredRoute {
  readonly method: string;
  readonly path: string;
  readonly via: string;
}

/** Whether the file imports Symfony's `Route` (so `#[Route]` and `@Route` are Symfony's). */
export function importsSymfonyRoute(imports: readonly string[]): boolean {
  return imports.some(
    (source) => SYMFONY_ROUTE_CLASSES.includes(source) || /Routing\\Annotation$/.test(source),
  );
}

interface RouteDeclaration {
  readonly path: string;
  readonly methods: readonly string[];
}

/** `#[Route('/x', methods: ['GET'])]` attributes and `@Route("/x", methods={"GET"})` in the doc block. */
function routeDeclarations(node: Node, doc: string | undefined): RouteDeclaration[] {
  const found: RouteDeclaration[] = [];
  for (const group of named(node.childForFieldName('attributes'))) {
    for (const attribute of named(group).flatMap((child) =>
      child.type === 'attribute_group' ? named(child) : [child],
    )) {
      if (attribute.type !== 'attribute' || named(attribute)[0]?.text.split('\\').pop() !== 'Route') continue;
      const args = named(attribute.childForFieldName('parameters')).filter(
        (child) => child.type === 'argument',
      );
      const byName = new Map<string, Node>();
      const positional: Node[] = [];
      for (const argument of args) {
        const name = argument.childForFieldName('name')?.text;
        const value = named(argument).pop();
        if (value === undefined) continue;
        if (name !== undefined) byName.set(name, value);
        else positional.push(value);
      }
      const path = phpLiteral(byName.get('path') ?? positional[0]);
      const methods = named(byName.get('methods')).map((item) => phpLiteral(named(item)[0]));
      if (path !== undefined)
        found.push({ path, methods: methods.filter((m): m is string => m !== undefined) });
    }
  }
  for (const match of (doc ?? '').matchAll(/@Route\(\s*"([^"]*)"([^)]*)\)/g)) {
    const methods = /methods\s*=\s*\{([^}]*)\}/.exec(match[2] ?? '')?.[1] ?? '';
    found.push({ path: match[1] ?? '', methods: [...methods.matchAll(/"(\w+)"/g)].map((m) => m[1] ?? '') });
  }
  return found;
}

/** The prefix a Symfony controller class declares with its own `Route`. */
export function symfonyPrefix(classNode: Node | null, doc: string | undefined): string {
  return classNode === null ? '' : (routeDeclarations(classNode, doc)[0]?.path ?? '');
}

/** The routes a Symfony controller method declares, under the class's prefix. */
export function symfonyRoutes(method: Node, doc: string | undefined, prefix: string): DeclaredRoute[] {
  return routeDeclarations(method, doc).flatMap(({ path, methods }) =>
    (methods.length === 0 ? ['ANY'] : methods).map((verb) => ({
      method: verb.toUpperCase(),
      path: joinHttpPath(prefix, path),
      via: 'symfony Route',
    })),
  );
}

/** Laravel resource actions: action, method, path after the resource (`{}` is the parameter). */
const RESOURCE_ACTIONS: readonly (readonly [string, string, string])[] = [
  ['index', 'GET', ''],
  ['create', 'GET', '/create'],
  ['store', 'POST', ''],
  ['show', 'GET', '/{}'],
  ['edit', 'GET', '/{}/edit'],
  ['update', 'PUT', '/{}'],
  ['update', 'PATCH', '/{}'],
  ['destroy', 'DELETE', '/{}'],
];
/** `apiResource` leaves out the two HTML form pages. */
const API_EXCLUDED = new Set(['create', 'edit']);

/**
 * `Route::resource('photos', C::class)`, `Route::apiResource('users.posts', C::class)->only([…])`: the
 * routes, with each resource's parameter named by its singular (`photos` → `{photo}`).
 */
export function laravelResourceRoutes(call: Node, kind: string, prefix: string): DeclaredRoute[] {
  const name = phpLiteral(argumentsOf(call)[0]);
  if (name === undefined) return [];
  const { only, except } = actionFilters(call);
  const segments = name.split('.');
  const last = segments.pop() ?? '';
  const parents = segments.map((segment) => `${segment}/{${singular(segment)}}`);
  const base = joinHttpPath(prefix, ...parents, last);
  return RESOURCE_ACTIONS.filter(
    ([action]) =>
      !(kind === 'apiResource' && API_EXCLUDED.has(action)) &&
      (only === undefined || only.has(action)) &&
      !except.has(action),
  ).map(([, method, suffix]) => ({
    method,
    path: joinHttpPath(base, suffix.replace('{}', `{${singular(last)}}`)),
    via: `laravel Route::${kind}`,
  }));
}

/** `->only([…])` / `->except([…])` chained after the resource call. */
function actionFilters(call: Node): { only?: Set<string>; except: Set<string> } {
  let only: Set<string> | undefined;
  const except = new Set<string>();
  for (let current = call; current.parent?.type === 'member_call_expression'; current = current.parent) {
    const outer = current.parent;
    if (outer.childForFieldName('object')?.id !== current.id) break;
    const name = outer.childForFieldName('name')?.text;
    const list = argumentsOf(outer)[0];
    const items = named(list).map((item) => phpLiteral(named(item)[0]) ?? phpLiteral(item));
    const actions =
      list?.type === 'array_creation_expression' ? items : argumentsOf(outer).map((a) => phpLiteral(a));
    const known = actions.filter((action): action is string => action !== undefined);
    if (name === 'only') only = new Set(known);
    else if (name === 'except') for (const action of known) except.add(action);
  }
  return only === undefined ? { except } : { only, except };
}

/** Laravel's parameter name for a resource: `photos` → `photo`, `categories` → `category`. */
function singular(name: string): string {
  const word = name.replace(/-/g, '_');
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (/(?:ss|sh|ch|x)es$/.test(word)) return word.slice(0, -2);
  return word.replace(/s$/, '');
}

/**
 * Whether a call belongs to a `Route::…` chain (`Route::get`, `Route::middleware('x')->prefix('v1')->get`),
 * and the `prefix(…)` it carries; undefined for any other call.
 */
export function routeChain(node: Node): { readonly prefix?: string } | undefined {
  let prefix: string | undefined;
  let current: Node | null = node;
  while (current?.type === 'member_call_expression') {
    const object: Node | null = current.childForFieldName('object');
    if (object?.type === 'member_call_expression' || object?.type === 'scoped_call_expression') {
      if (object.childForFieldName('name')?.text === 'prefix')
        prefix = phpLiteral(argumentsOf(object)[0]) ?? prefix;
    }
    current = object;
  }
  if (current?.type !== 'scoped_call_expression' || current.childForFieldName('scope')?.text !== 'Route')
    return undefined;
  if (current.id !== node.id && current.childForFieldName('name')?.text === 'prefix')
    prefix = phpLiteral(argumentsOf(current)[0]) ?? prefix;
  return prefix === undefined ? {} : { prefix };
}
