/**
 * Python routes served under a prefix set elsewhere, and Tornado's route table:
 * - Flask `app.register_blueprint(bp, url_prefix="/x")`, FastAPI `app.include_router(router, prefix="/x")`,
 *   Starlette/FastAPI `app.mount("/x", sub_app)`: when the mounted object is imported, an `http_mount` of
 *   the module it comes from (applied to that module's routes at reconcile time).
 * - Tornado `tornado.web.Application([(r"/x", Handler), …])`: one route per HTTP method the handler class
 *   defines (`def get`, `def post`…); a handler declared in another file serves any method.
 */
import type { Node } from 'web-tree-sitter';
import type { ContractFact } from '../../facts.js';
import type { MutableSymbol } from '../shared/fact-builder.js';
import { normalizeHttpPath } from '../shared/tree-utils.js';
import type { Origin } from './contracts.js';
import { callArguments, dotted, literalString } from './values.js';

interface MountMethod {
  /** Where the prefix is: a keyword, or a positional index. */
  readonly prefix: string | number;
  /** Positional index of the mounted object. */
  readonly target: number;
  readonly via: string;
}

const MOUNT_METHODS: ReadonlyMap<string, MountMethod> = new Map([
  ['register_blueprint', { prefix: 'url_prefix', target: 0, via: 'flask register_blueprint' }],
  ['include_router', { prefix: 'prefix', target: 0, via: 'fastapi include_router' }],
  ['mount', { prefix: 0, target: 1, via: 'starlette mount' }],
]);

/** `app.register_blueprint(views.bp, url_prefix="/x")` with `views` or `bp` imported → a mount fact. */
export function mountFacts(
  method: string,
  args: Node | null,
  line: number,
  originOf: (path: string) => Origin,
  isImported: (name: string) => boolean,
): ContractFact[] {
  const shape = MOUNT_METHODS.get(method);
  if (shape === undefined) return [];
  const { positional, keywords } = callArguments(args);
  const prefix = literalString(
    typeof shape.prefix === 'number' ? positional[shape.prefix] : keywords.get(shape.prefix),
  );
  const written = dotted(positional[shape.target] ?? null);
  if (prefix === undefined || !prefix.startsWith('/') || written === undefined) return [];
  if (!isImported(written.split('.')[0] ?? written)) return [];
  const origin = originOf(written);
  if (origin.module === undefined) return [];
  // `bp` from `from .views import bp` names the module `.views`; `views.bp` the module `views` stands for.
  const target = origin.qualified
    ? { target: `import:${origin.module}` }
    : { target: `import:${origin.module}`, names: [origin.name] };
  return [{ kind: 'http_mount', prefix: normalizeHttpPath(prefix), ...target, line, via: shape.via }];
}

const TORNADO_METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options'];

/** A Tornado URL regex as a route path: groups become parameters, anchors go. */
function tornadoPath(pattern: string): string | undefined {
  const path = pattern
    .replace(/^\^|\$$/g, '')
    .replace(/\(\?P<(\w+)>[^)]*\)/g, '{$1}')
    .replace(/\([^)]*\)/g, '{}')
    .replace(/\/\?$/, '');
  return path.startsWith('/') && !/[[\]*+?\\|]/.test(path) ? normalizeHttpPath(path) : undefined;
}

/** The methods a handler class of this file defines, with where; `ANY` for a class declared elsewhere. */
function handlerMethods(
  name: string,
  symbols: readonly MutableSymbol[],
): { readonly method: string; readonly symbol?: number }[] {
  const cls = symbols.find((s) => s.kind === 'class' && s.name === name);
  if (cls === undefined) return [{ method: 'ANY' }];
  return symbols
    .filter((s) => s.parent === cls.id && TORNADO_METHODS.includes(s.name))
    .map((s) => ({ method: s.name.toUpperCase(), symbol: s.id }));
}

/** `tornado.web.Application([(r"/x", Handler), url(r"/y", Other)])` → routes. */
export function tornadoRoutes(
  origin: Origin,
  args: Node | null,
  symbols: readonly MutableSymbol[],
): ContractFact[] {
  if (origin.module !== 'tornado.web' || origin.name !== 'Application') return [];
  const { positional, keywords } = callArguments(args);
  const table = positional[0] ?? keywords.get('handlers');
  if (table?.type !== 'list') return [];
  const facts: ContractFact[] = [];
  for (const entry of table.namedChildren) {
    const items =
      entry?.type === 'tuple'
        ? entry.namedChildren
        : entry?.type === 'call'
          ? callArguments(entry.childForFieldName('arguments')).positional
          : [];
    const pattern = literalString(items[0] ?? undefined);
    const handler = dotted(items[1] ?? null);
    const path = pattern === undefined ? undefined : tornadoPath(pattern);
    if (path === undefined || handler === undefined || entry === null) continue;
    const line = entry.startPosition.row + 1;
    // The registration is the evidence; the handler method, when declared here, is the symbol.
    for (const m of handlerMethods(handler.split('.').pop() ?? handler, symbols))
      facts.push({
        kind: 'http_route',
        method: m.method,
        path,
        symbol: m.symbol,
        line,
        via: 'tornado Application',
      });
  }
  return facts;
}
