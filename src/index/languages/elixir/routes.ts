/**
 * HTTP routes declared with Elixir routing DSLs, read only in the body of a module that `use`s one (so a
 * function named `get` elsewhere is no route):
 * - Phoenix (`use Phoenix.Router`, or `use MyAppWeb, :router`): verbs and `match` with a controller,
 *   `resources` (the standard actions, `only:`/`except:`, `singleton:`, `param:`, nested resources),
 *   `live` (GET), `live_dashboard` (GET), `forward` (any method), inside `scope` prefixes that nest;
 *   `pipeline`s and `pipe_through` say nothing about paths; routes under an `if` on `:dev_routes` or
 *   `Mix.env() == :dev` are development-only and left out.
 * - Plug.Router (`use Plug.Router`): `get "/x" do … end`, `match "/x", via: :post`, `forward "/x", to: P`.
 *   The catch-all `match _` has no path and is not a route.
 */
import type { Node } from 'web-tree-sitter';
import { joinHttpPath, startLineOf } from '../shared/tree-utils.js';
import type { Frame, Walker } from './model.js';
import { atomName, callArgs, doBlockOf, literalList, literalString, type CallArgs } from './syntax.js';

const VERBS = new Set(['get', 'post', 'put', 'patch', 'delete', 'options', 'head']);
const PHOENIX_VERBS = new Set([...VERBS, 'connect', 'trace']);
/** A condition that holds only in development builds. */
const DEV_ONLY = /:dev_routes\b|Mix\.env\(?\)?\s*==\s*:dev\b/;

/** Phoenix's resource actions in the order the router declares them: action, method, path after the resource. */
type Action = readonly [string, string, (param: string) => string];
const PLURAL_ACTIONS: readonly Action[] = [
  ['index', 'GET', () => ''],
  ['edit', 'GET', (param) => `/{${param}}/edit`],
  ['new', 'GET', () => '/new'],
  ['show', 'GET', (param) => `/{${param}}`],
  ['create', 'POST', () => ''],
  ['update', 'PATCH', (param) => `/{${param}}`],
  ['update', 'PUT', (param) => `/{${param}}`],
  ['delete', 'DELETE', (param) => `/{${param}}`],
];
const SINGLETON_ACTIONS: readonly Action[] = [
  ['edit', 'GET', () => '/edit'],
  ['new', 'GET', () => '/new'],
  ['show', 'GET', () => ''],
  ['create', 'POST', () => ''],
  ['update', 'PATCH', () => ''],
  ['update', 'PUT', () => ''],
  ['delete', 'DELETE', () => ''],
];

/** Reads a routing macro at `node`; true when the node (and its block) has been handled. */
export function readRoute(walker: Walker, node: Node, name: string, frame: Frame): boolean {
  const router = frame.module?.router;
  if (router === 'phoenix') return phoenixRoute(walker, node, name, frame);
  if (router === 'plug') return plugRoute(walker, node, name, frame);
  return false;
}

function phoenixRoute(walker: Walker, node: Node, name: string, frame: Frame): boolean {
  const prefix = frame.routes ?? '';
  const args = callArgs(node);
  const block = doBlockOf(node);
  const path = literalString(args.positional[0]);
  switch (name) {
    case 'scope': {
      const scoped = path ?? literalString(args.keywords.get('path'));
      if (block !== undefined)
        walker.visitChildren(block, {
          ...frame,
          routes: scoped === undefined ? prefix : joinHttpPath(prefix, scoped),
        });
      return true;
    }
    case 'live_session':
      if (block !== undefined) walker.visitChildren(block, frame);
      return true;
    case 'pipeline':
      return true;
    case 'if':
      // Phoenix generates dev-only routes (LiveDashboard, the mailbox preview) under
      // `if Application.compile_env(:app, :dev_routes)`: not served by a release build.
      if (!DEV_ONLY.test(args.positional[0]?.text ?? '') || block === undefined || !frame.module)
        return false;
      walker.visitChildren(block, { ...frame, module: { ...frame.module, router: undefined } });
      return true;
    case 'resources':
      if (path !== undefined) resources(walker, node, joinHttpPath(prefix, path), args, frame);
      return true;
    case 'match': {
      const verb = atomName(args.positional[0]);
      const matched = literalString(args.positional[1]);
      if (verb !== undefined && matched !== undefined)
        route(
          walker,
          node,
          verb === '*' ? 'ANY' : verb.toUpperCase(),
          joinHttpPath(prefix, matched),
          'phoenix match',
          frame,
        );
      return true;
    }
    default:
      break;
  }
  if (path === undefined) return false;
  const method = PHOENIX_VERBS.has(name)
    ? name.toUpperCase()
    : name === 'live' || name === 'live_dashboard'
      ? 'GET'
      : name === 'forward'
        ? 'ANY'
        : undefined;
  if (method === undefined) return false;
  route(walker, node, method, joinHttpPath(prefix, path), `phoenix ${name}`, frame);
  return true;
}

/** `resources "/users", UserController, only: […]` and its nested resources. */
function resources(walker: Walker, node: Node, path: string, args: CallArgs, frame: Frame): void {
  const singleton = args.keywords.get('singleton')?.text === 'true';
  const param = literalString(args.keywords.get('param')) ?? 'id';
  const only = args.keywords.has('only') ? new Set(literalList(args.keywords.get('only'))) : undefined;
  const except = new Set(literalList(args.keywords.get('except')));
  for (const [action, method, suffix] of singleton ? SINGLETON_ACTIONS : PLURAL_ACTIONS) {
    if ((only !== undefined && !only.has(action)) || except.has(action)) continue;
    route(walker, node, method, joinHttpPath(path, suffix(param)), 'phoenix resources', frame);
  }
  const block = doBlockOf(node);
  if (block === undefined) return;
  // Nested resources hang under the member path, whose parameter is named after the resource: `user_id`.
  const resource =
    atomName(args.keywords.get('as')) ??
    literalString(args.keywords.get('as')) ??
    resourceName(args.positional[1]);
  const nested = singleton || resource === undefined ? path : joinHttpPath(path, `{${resource}_${param}}`);
  walker.visitChildren(block, { ...frame, routes: nested });
}

/** Phoenix's resource name of a controller: `Admin.UserProfileController` → `user_profile`. */
function resourceName(controller: Node | undefined): string | undefined {
  if (controller?.type !== 'alias') return undefined;
  const last = controller.text.split('.').pop() ?? '';
  const base = last.replace(/Controller$/, '');
  if (base === '') return undefined;
  return base.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
}

function plugRoute(walker: Walker, node: Node, name: string, frame: Frame): boolean {
  const args = callArgs(node);
  const path = literalString(args.positional[0]);
  const prefix = frame.routes ?? '';
  let methods: string[] | undefined;
  if (VERBS.has(name)) methods = [name.toUpperCase()];
  else if (name === 'forward') methods = ['ANY'];
  else if (name === 'match') {
    const via = literalList(args.keywords.get('via'));
    methods = via.length === 0 ? ['ANY'] : via.map((verb) => verb.toUpperCase());
  }
  if (methods === undefined) return false;
  if (path !== undefined) {
    for (const method of methods)
      route(walker, node, method, joinHttpPath(prefix, path), `plug ${name}`, frame);
  }
  // A route's body runs per request: it is code, not more route declarations.
  const block = doBlockOf(node);
  if (block !== undefined) walker.visitChildren(block, { ...frame, routes: undefined, locals: new Map() });
  return true;
}

function route(walker: Walker, node: Node, method: string, path: string, via: string, frame: Frame): void {
  walker.facts.addContract(
    { kind: 'http_route', method, path, line: startLineOf(node), via },
    { owner: frame.owner },
  );
}
