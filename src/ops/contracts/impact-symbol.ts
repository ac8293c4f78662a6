/**
 * What changing one function breaks, in every service: its callers up to the entry points of its service;
 * from each entry point to its contract (a route, an RPC, a topic) and across to the code in other services
 * that calls or produces it; from there callers again up to those services' entry points, and so on, to a
 * number of services. Each function is listed once, at the fewest steps from the target, with the weakest
 * confidence along the way it was reached.
 */
import { compareStrings } from '../../core/order.js';
import type { Confidence, IndexedFile, SnapshotReader } from '../../index/reader.js';
import {
  contractLabel,
  flowKey,
  FlowGraph,
  nodeLabel,
  rootOf,
  stepVia,
  type FlowNode,
  type FlowStep,
} from '../shared/flow-graph.js';
import { confidenceRank as rank, weaker } from '../shared/confidence.js';
import { isTestPath } from '../shared/workspace-paths.js';

export type SymbolScope = 'same service' | 'cross-service';

export interface SymbolImpactRow {
  /** Steps from the target: one per call, one per contract crossed. */
  readonly hop: number;
  /** Services crossed to get here, the target's own being 1. */
  readonly level: number;
  readonly scope: SymbolScope;
  readonly root: string;
  readonly service: string;
  readonly function: string;
  /** Where this function calls toward the target (the call site, the client call, the producer). */
  readonly file: IndexedFile;
  readonly line: number;
  /** The weakest confidence along the way from the target. */
  readonly confidence: Confidence;
  /** `target`, `call`, `call via Iface.m`, or the contract crossed: `route GET /x`, `rpc pkg.Svc/M`, `topic t`. */
  readonly via: string;
  /** The contracts this function is an entry point of. */
  readonly entryPoints: readonly string[];
}

export interface SymbolImpact {
  readonly rows: readonly SymbolImpactRow[];
  /** Entry-point contracts reached at the last service level, whose callers were not followed. */
  readonly notFollowed: readonly string[];
  readonly testRowsLeftOut: number;
  /** The walk stopped at the cap on functions visited. */
  readonly capped: boolean;
}

/** Functions a walk visits at most; a utility called from everywhere would otherwise list the workspace. */
const MAX_VISITED = 5000;

interface Reached {
  readonly node: FlowNode;
  readonly hop: number;
  readonly level: number;
  readonly confidence: Confidence;
}

const rowOrder = (a: SymbolImpactRow, b: SymbolImpactRow): number =>
  a.hop - b.hop ||
  (a.scope === b.scope ? 0 : a.scope === 'same service' ? -1 : 1) ||
  compareStrings(a.service, b.service) ||
  compareStrings(a.file.path, b.file.path) ||
  a.line - b.line ||
  compareStrings(a.function, b.function);

class SymbolImpactWalk {
  private readonly flow: FlowGraph;
  private readonly visited = new Set<string>();
  readonly rows: SymbolImpactRow[] = [];
  readonly notFollowed = new Set<string>();
  private readonly testPlaces = new Set<string>();
  capped = false;

  constructor(
    private readonly snapshot: SnapshotReader,
    private readonly targetRoot: string,
    private readonly depth: number,
    private readonly includeTests: boolean,
  ) {
    this.flow = new FlowGraph(snapshot);
  }

  get testRowsLeftOut(): number {
    return this.testPlaces.size;
  }

  run(target: FlowNode, declaredAt: { file: IndexedFile; line: number }): void {
    this.visited.add(flowKey(target));
    this.addRow({ node: target, hop: 0, level: 1, confidence: 'exact' }, declaredAt, 'target');
    let frontier: Reached[] = [{ node: target, hop: 0, level: 1, confidence: 'exact' }];
    while (frontier.length > 0 && !this.capped) frontier = this.nextLevel(frontier);
  }

  /** Everything one step upstream of the frontier, each function once, the surest arrival kept. */
  private nextLevel(frontier: readonly Reached[]): Reached[] {
    const next = new Map<string, { reached: Reached; step: FlowStep; via: string }>();
    const offer = (reached: Reached, step: FlowStep, via: string) => {
      const key = flowKey(reached.node);
      if (this.visited.has(key)) return;
      const known = next.get(key);
      if (!known || rank(reached.confidence) < rank(known.reached.confidence))
        next.set(key, { reached, step, via });
    };
    for (const from of frontier) {
      for (const up of this.flow.upstream(from.node)) {
        const confidence = weaker(from.confidence, up.step.confidence);
        if (up.node.kind === 'code') {
          offer(
            { node: up.node, hop: from.hop + 1, level: from.level, confidence },
            up.step,
            stepVia(up.step),
          );
          continue;
        }
        const contract = contractLabel(up.node.node);
        if (from.level >= this.depth) {
          this.notFollowed.add(contract);
          continue;
        }
        for (const client of this.flow.upstream(up.node)) {
          const crossed = rootOf(client.node) !== rootOf(from.node);
          offer(
            {
              node: client.node,
              hop: from.hop + 1,
              level: from.level + (crossed ? 1 : 0),
              confidence: weaker(confidence, client.step.confidence),
            },
            client.step,
            contract,
          );
        }
      }
    }
    const out: Reached[] = [];
    for (const [key, { reached, step, via }] of next) {
      if (this.visited.size >= MAX_VISITED) {
        this.capped = true;
        break;
      }
      this.visited.add(key);
      if (this.addRow(reached, step, via)) out.push(reached);
    }
    return out;
  }

  /** Adds a row; a function in a test file (other than the target) is counted instead, and not walked further. */
  private addRow(reached: Reached, at: { file: IndexedFile; line: number }, via: string): boolean {
    const root = rootOf(reached.node) ?? at.file.root;
    if (reached.hop > 0 && !this.includeTests && isTestPath(at.file.path)) {
      this.testPlaces.add(`${at.file.root}\u0000${at.file.path}\u0000${at.line}`);
      return false;
    }
    const entryPoints = [...new Set(this.flow.entriesOf(reached.node).map((p) => contractLabel(p.contract)))];
    this.rows.push({
      hop: reached.hop,
      level: reached.level,
      scope: root === this.targetRoot ? 'same service' : 'cross-service',
      root,
      service: this.snapshot.serviceOf(root),
      function: nodeLabel(reached.node),
      file: at.file,
      line: at.line,
      confidence: reached.confidence,
      via,
      entryPoints: entryPoints.sort(compareStrings),
    });
    return true;
  }
}

/** The impact of changing the declaration `symbol` of `file`, across at most `depth` services. */
export function collectSymbolImpact(
  snapshot: SnapshotReader,
  file: IndexedFile,
  symbol: number,
  depth: number,
  includeTests: boolean,
): SymbolImpact {
  const walk = new SymbolImpactWalk(snapshot, file.root, depth, includeTests);
  const declaration = file.facts.symbols[symbol];
  walk.run({ kind: 'code', file, symbol }, { file, line: declaration?.startLine ?? 1 });
  return {
    rows: [...walk.rows].sort(rowOrder),
    notFollowed: [...walk.notFollowed].sort(compareStrings),
    testRowsLeftOut: walk.testRowsLeftOut,
    capped: walk.capped,
  };
}
