/**
 * The HTTP calls (and gateway routes) that reach no route, as `admin status` lists them: counted, the
 * first ones with `file:line`, so a reader knows what the graph could not link instead of assuming it is
 * complete.
 */
import type { SnapshotReader, UnresolvedCall } from '../../index/reader.js';
import { displayPath } from '../shared/workspace-paths.js';

/** How many unresolved calls the status lists; the rest are counted. */
export const FIRST_UNRESOLVED = 20;

export interface UnresolvedSummary {
  readonly count: number;
  readonly calls: readonly {
    readonly at: string;
    readonly method: string;
    readonly url: string;
    readonly via: string;
    readonly reason: string;
  }[];
}

/** The unresolved calls of the snapshot's graph (reconciling it if no query has yet). */
export function unresolvedSummary(snapshot: SnapshotReader): UnresolvedSummary {
  const all: readonly UnresolvedCall[] = snapshot.contractGraph().unresolved;
  return {
    count: all.length,
    calls: all.slice(0, FIRST_UNRESOLVED).map((c) => ({
      at: `${displayPath(snapshot.roots, c.root, c.file)}:${c.line}`,
      method: c.method,
      url: c.url,
      via: c.via,
      reason: c.reason,
    })),
  };
}

export function renderUnresolved(summary: UnresolvedSummary): string[] {
  if (summary.count === 0)
    return ['**Unresolved HTTP calls:** none (every HTTP call found reaches a route).'];
  const lines = [
    `**Unresolved HTTP calls:** ${summary.count} call(s) or gateway route(s) reach no known route (kept, not dropped):`,
  ];
  for (const c of summary.calls)
    lines.push(`- \`${c.at}\` ${c.method} \`${c.url}\` (${c.via}) — ${c.reason}`);
  if (summary.count > summary.calls.length)
    lines.push(`- … and ${summary.count - summary.calls.length} more`);
  return lines;
}
