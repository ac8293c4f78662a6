/**
 * Walks the call graph from one declaration, breadth first, `depth` hops up (callers) or down (callees):
 * one row per call edge, each declaration expanded once so that cycles and recursion end the walk. Callers
 * of a method include the calls bound to the interface or base-class methods it implements, and callees of
 * a call bound to an interface or base method include the methods overriding it, since such a call may
 * dispatch there; those rows say `interface` and are `heuristic` at best.
 */
import type { CallEdge, CallGraph, CallVia, Confidence, DeclRef, IndexedFile } from '../../index/reader.js';
import { confidenceRank, weaker } from '../shared/confidence.js';

export type WalkDirection = 'callers' | 'callees';

export const CONFIDENCE_LEVELS = ['exact', 'heuristic', 'ambiguous'] as const;

export interface CallRow {
  /** 1 for calls of (or by) the declaration itself, one more per hop beyond it. */
  readonly hop: number;
  readonly edge: CallEdge;
  readonly confidence: Confidence;
  readonly via: CallVia | 'interface';
}

export interface CallWalk {
  readonly rows: readonly CallRow[];
  /** Edges left out for being weaker than the minimum confidence. */
  readonly belowConfidence: number;
  /** The walk stopped at the row cap before reaching `depth`. */
  readonly truncated: boolean;
}

export interface WalkRequest {
  readonly start: DeclRef;
  readonly direction: WalkDirection;
  readonly depth: number;
  readonly minConfidence: Confidence;
  /** Rows kept at most; the walk stops there. */
  readonly cap: number;
}

/** Declarations already expanded, by file and local symbol id. */
class Visited {
  private readonly seen = new Map<IndexedFile, Set<number>>();

  /** Marks the declaration; false when it was marked already. */
  add(ref: DeclRef): boolean {
    let ids = this.seen.get(ref.file);
    if (!ids) this.seen.set(ref.file, (ids = new Set()));
    if (ids.has(ref.symbol)) return false;
    ids.add(ref.symbol);
    return true;
  }
}

/** The calls reaching one declaration: its own callers, then those bound to what it overrides. */
function callersOf(graph: CallGraph, target: DeclRef): Omit<CallRow, 'hop'>[] {
  const direct = graph
    .callersOf(target)
    .map((edge) => ({ edge, confidence: edge.confidence, via: edge.via as CallRow['via'] }));
  const dispatched = graph.overridden(target).flatMap((base) =>
    graph.callersOf(base).map((edge) => ({
      edge,
      confidence: weaker(edge.confidence, 'heuristic'),
      via: 'interface' as const,
    })),
  );
  return [...direct, ...dispatched];
}

/** The calls one declaration makes, and for a call bound to an interface or base method, its overriders. */
function calleesOf(graph: CallGraph, source: DeclRef): Omit<CallRow, 'hop'>[] {
  return graph.calleesOf(source.file, source.symbol).flatMap((edge) => {
    const direct = { edge, confidence: edge.confidence, via: edge.via as CallRow['via'] };
    const dispatched = graph.overriders({ file: edge.to, symbol: edge.callee }).map((found) => ({
      edge: { ...edge, to: found.method.file, callee: found.method.symbol },
      confidence: weaker(weaker(edge.confidence, found.confidence), 'heuristic'),
      via: 'interface' as const,
    }));
    return [direct, ...dispatched];
  });
}

/** The declaration at the far end of a row: where the walk goes next. */
function nextOf(row: Omit<CallRow, 'hop'>, direction: WalkDirection): DeclRef | undefined {
  const { edge } = row;
  if (direction === 'callees') return { file: edge.to, symbol: edge.callee };
  return edge.caller === undefined ? undefined : { file: edge.from, symbol: edge.caller };
}

const edgeKey = (edge: CallEdge): string =>
  `${edge.from.root}\u0000${edge.from.path}\u0000${edge.line}\u0000${edge.name}\u0000${edge.to.root}\u0000${edge.to.path}\u0000${edge.callee}`;

export function walkCalls(graph: CallGraph, request: WalkRequest): CallWalk {
  const visited = new Visited();
  visited.add(request.start);
  const shown = new Set<string>();
  const rows: CallRow[] = [];
  const minRank = confidenceRank(request.minConfidence);
  let belowConfidence = 0;
  let frontier: DeclRef[] = [request.start];
  for (let hop = 1; hop <= request.depth && frontier.length > 0; hop++) {
    const next: DeclRef[] = [];
    for (const ref of frontier) {
      const found = request.direction === 'callers' ? callersOf(graph, ref) : calleesOf(graph, ref);
      for (const row of found) {
        if (confidenceRank(row.confidence) > minRank) {
          belowConfidence++;
          continue;
        }
        const key = edgeKey(row.edge);
        if (shown.has(key)) continue;
        shown.add(key);
        if (rows.length >= request.cap) return { rows, belowConfidence, truncated: true };
        rows.push({ hop, ...row });
        const far = nextOf(row, request.direction);
        if (far && visited.add(far)) next.push(far);
      }
    }
    frontier = next;
  }
  return { rows, belowConfidence, truncated: false };
}
