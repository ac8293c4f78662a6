/**
 * Unresolved HTTP calls that might reach a route or a service: `contracts dependents` names them, so that a
 * call the graph could not link is not mistaken for no call at all.
 */
import type { GraphNode, SnapshotReader, UnresolvedCall } from '../../index/reader.js';
import { displayPath } from '../shared/workspace-paths.js';

/** How many possibly-reaching calls an answer lists; the rest are counted. */
const FIRST_LISTED = 10;

export interface UnresolvedReach {
  /** Unresolved calls in the whole workspace. */
  readonly total: number;
  /** Those that might reach the target: their host named its service, or their path fits one of its routes. */
  readonly mightReach: readonly UnresolvedCall[];
}

/** `/orders/{id}` → `['orders', '{}']`: lower-case segments, parameters as wildcards. */
const segments = (path: string): string[] =>
  path
    .replace(/[?#].*$/, '')
    .split('/')
    .filter(Boolean)
    .map((s) => (/^\{[^}]*\}$/.test(s) ? '{}' : s.toLowerCase()));

const fits = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && a.every((s, i) => s === b[i] || s === '{}' || b[i] === '{}');

/** Whether a call could be one to the route: same method (or ANY) and a path that fits (in part, when only part is known). */
function mightCall(call: UnresolvedCall, route: GraphNode): boolean {
  const space = route.name.indexOf(' ');
  const method = route.name.slice(0, space);
  if (method !== 'ANY' && call.method !== 'ANY' && method !== call.method) return false;
  const routePath = segments(route.name.slice(space + 1));
  const callPath = segments(call.path);
  if (!call.partial) return fits(routePath, callPath);
  // Only the start of the path is known: it fits when the route starts with it (and something is known).
  return callPath.length > 0 && fits(routePath.slice(0, callPath.length), callPath);
}

/**
 * The unresolved calls that might reach the routes named by `target` (`GET /orders/{id}`) or the service
 * it names (a root or its service name): undefined when the target is neither.
 */
export function unresolvedReaching(snapshot: SnapshotReader, target: string): UnresolvedReach | undefined {
  const graph = snapshot.contractGraph();
  const routes = graph.nodesOfKind('http_route').filter((n) => n.name === target);
  const roots = graph
    .nodesOfKind('service')
    .filter((n) => n.name === target || snapshot.serviceOf(n.name) === target)
    .map((n) => n.name);
  if (routes.length === 0 && roots.length === 0) return undefined;
  const served = [
    ...routes,
    ...graph.nodesOfKind('http_route').filter((n) => n.root !== undefined && roots.includes(n.root)),
  ];
  const mightReach = graph.unresolved.filter(
    (call) =>
      (call.roots ?? []).some((r) => roots.includes(r)) || served.some((route) => mightCall(call, route)),
  );
  return { total: graph.unresolved.length, mightReach };
}

export function unresolvedLines(snapshot: SnapshotReader, target: string, reach: UnresolvedReach): string[] {
  if (reach.total === 0) return [];
  const lines = [
    '',
    `${reach.total} HTTP call(s) in the workspace reach no known route (\`admin status\` lists them); ${reach.mightReach.length} might reach \`${target}\` (host or path fits):`,
  ];
  for (const call of reach.mightReach.slice(0, FIRST_LISTED))
    lines.push(
      `- \`${displayPath(snapshot.roots, call.root, call.file)}:${call.line}\` ${call.method} \`${call.url}\` (${call.via})`,
    );
  if (reach.mightReach.length > FIRST_LISTED)
    lines.push(`- … and ${reach.mightReach.length - FIRST_LISTED} more`);
  return lines;
}

export const unresolvedJson = (snapshot: SnapshotReader, reach: UnresolvedReach | undefined) =>
  reach === undefined
    ? {}
    : {
        unresolved_http: {
          total: reach.total,
          might_reach: reach.mightReach.map((c) => ({
            path: displayPath(snapshot.roots, c.root, c.file),
            line: c.line,
            method: c.method,
            url: c.url,
            via: c.via,
          })),
        },
      };
