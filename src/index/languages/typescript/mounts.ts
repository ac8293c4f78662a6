/**
 * Routers mounted under a prefix: Express/Connect `app.use('/api', router)`, koa-router
 * `router.use('/api', sub.routes())`, Fastify `app.register(plugin, { prefix: '/api' })`.
 * - A router of this file: its routes are emitted with the prefix (routes.ts reads `state.routerMounts`);
 *   mounts inside mounts compose.
 * - A router from another module (`require('./routes')`, an imported binding): an `http_mount` fact naming
 *   that module, applied to its routes at reconcile time.
 */
import type { Node } from 'web-tree-sitter';
import type { FactBuilder } from '../shared/fact-builder.js';
import { joinHttpPath } from '../shared/tree-utils.js';
import { args, receiverRef, type Site } from './holders.js';
import { resolveRef, type FileState, type Holder } from './model.js';
import { frameworkOf, ROUTER_NAME } from './router-frameworks.js';
import { memberPath, toVal, unwrap } from './values.js';
import { resolveString } from './resolve-values.js';

/** How each mounting method names its prefix and the mounted routers. */
interface MountShape {
  /** The prefix is this positional argument (a path string)… */
  readonly prefixArg?: number;
  /** …or this property of the argument after the mounted one (`{ prefix: '/x' }`). */
  readonly prefixOption?: string;
  /** The mounted routers: every argument from this one on (middleware among them is skipped). */
  readonly from: number;
  readonly via: string;
}

const MOUNT_METHODS: Readonly<Record<string, MountShape>> = {
  use: { prefixArg: 0, from: 1, via: 'use' },
  register: { prefixOption: 'prefix', from: 0, via: 'register' },
};

/** koa-router hands its routes to `use` through these. */
const ROUTER_EXPORTS = new Set(['routes', 'middleware']);

/** What one argument mounts: a module (by its specifier) or a router of this file (by its binding). */
type Mounted = { readonly source: string } | { readonly name: string; readonly node: Node };

function mountedOf(arg: Node, state: FileState): Mounted | undefined {
  let n = unwrap(arg);
  if (n.type === 'call_expression') {
    const fn = n.childForFieldName('function');
    const first = args(n)[0];
    if (fn?.type === 'identifier' && fn.text === 'require' && first?.type === 'string')
      return { source: first.text.slice(1, -1) };
    // `sub.routes()`: the router is `sub`.
    const property = fn?.type === 'member_expression' ? fn.childForFieldName('property')?.text : undefined;
    const object = fn?.childForFieldName('object');
    if (property === undefined || !ROUTER_EXPORTS.has(property) || object === null || object === undefined)
      return undefined;
    n = unwrap(object);
  }
  if (n.type !== 'identifier') return undefined;
  const binding = state.importBindings.get(n.text);
  return binding === undefined ? { name: n.text, node: n } : { source: binding.source };
}

function prefixOf(call: Node, shape: MountShape, site: Site, state: FileState): string | undefined {
  const list = args(call);
  const node = shape.prefixArg !== undefined ? list[shape.prefixArg] : list[shape.from + 1];
  if (node === undefined) return undefined;
  const val = toVal(node, site.locals, site.cls);
  const text =
    shape.prefixOption === undefined ? val : val.k === 'obj' ? val.props.get(shape.prefixOption) : undefined;
  const value = text === undefined ? undefined : resolveString(text, state.tables)?.value;
  return value !== undefined && value.startsWith('/') ? joinHttpPath(value) : undefined;
}

/** Whether the receiver of a mounting call is a router (known, or named like one when nothing is known). */
function isRouter(holder: Holder | undefined, object: Node): boolean {
  if (holder !== undefined) return holder.t === 'router';
  const path = memberPath(unwrap(object));
  return path?.length === 1 && ROUTER_NAME.test(path[0] ?? '');
}

/**
 * `recv.use(prefix, …routers)` / `recv.register(plugin, { prefix })`: records the file's own routers as
 * mounted and emits a mount fact per mounted module. Runs before the file's route rules (they read the
 * mounts), so the closure goes to the front of `pending`.
 */
export function mountCall(state: FileState, node: Node, method: string, site: Site): void {
  const shape = MOUNT_METHODS[method];
  const object = node.childForFieldName('function')?.childForFieldName('object');
  if (shape === undefined || object === null || object === undefined) return;
  const prefix = prefixOf(node, shape, site, state);
  if (prefix === undefined) return;
  const list = args(node);
  const targets = (
    shape.prefixArg === undefined ? list.slice(shape.from, shape.from + 1) : list.slice(shape.from)
  )
    .map((arg) => mountedOf(arg, state))
    .filter((m): m is Mounted => m !== undefined);
  if (targets.length === 0) return;
  const receiver = receiverRef(object, site);
  const symbol = site.symbol === undefined ? {} : { symbol: site.symbol };
  state.pending.unshift((out: FactBuilder) => {
    const by = resolveRef(state, receiver);
    if (!isRouter(by, object)) return;
    for (const target of targets) {
      if ('source' in target) {
        const via = `${frameworkOf(state, by)} ${shape.via}`;
        out.addContract({
          kind: 'http_mount',
          prefix,
          target: `import:${target.source}`,
          ...symbol,
          line: site.line,
          via,
        });
        continue;
      }
      const mounted = resolveRef(state, receiverRef(target.node, site));
      if (mounted?.t !== 'router' || mounted === by) continue;
      const list = state.routerMounts.get(mounted) ?? state.routerMounts.set(mounted, []).get(mounted);
      list?.push({ prefix, by: by?.t === 'router' ? by : undefined });
    }
  });
}

/** The prefixes a router of this file is mounted under in this file, outermost first; `['']` when none. */
export function mountedPrefixes(state: FileState, router: Holder, depth = 0): readonly string[] {
  const mounts = state.routerMounts.get(router);
  if (mounts === undefined || depth > 8) return [''];
  return mounts.flatMap((m) =>
    (m.by === undefined ? [''] : mountedPrefixes(state, m.by, depth + 1)).map((outer) =>
      joinHttpPath(outer, m.prefix),
    ),
  );
}
