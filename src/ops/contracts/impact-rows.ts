import type { Confidence, ContractGraph, GraphEdge } from '../../index/reader.js';
import { compareStrings as cmp } from '../../core/order.js';
import { weaker } from '../shared/confidence.js';
import { isTestPath } from '../shared/workspace-paths.js';

export type ImpactRole = 'client' | 'handler' | 'producer' | 'consumer' | 'topic';

export interface ImpactRow {
  readonly hop: number;
  readonly scope: 'INTERNAL' | 'EXTERNAL';
  readonly role: ImpactRole;
  /** The code (or topic) impacted. */
  readonly element: string;
  /** Root name, or undefined for a topic hub. */
  readonly root: string | undefined;
  readonly file: string | undefined;
  readonly line: number | undefined;
  readonly confidence: Confidence;
  readonly via: string;
}

/** A row before the owners are known, so before it can say whether it is internal. */
export type UnscopedRow = Omit<ImpactRow, 'scope'>;

const ROLE_ORDER: Record<ImpactRole, number> = { client: 0, producer: 1, topic: 2, consumer: 3, handler: 4 };

const rowOrder = (a: ImpactRow, b: ImpactRow): number =>
  a.hop - b.hop ||
  ROLE_ORDER[a.role] - ROLE_ORDER[b.role] ||
  (a.scope === b.scope ? 0 : a.scope === 'EXTERNAL' ? -1 : 1) ||
  cmp(a.root ?? '', b.root ?? '') ||
  cmp(a.file ?? '', b.file ?? '') ||
  (a.line ?? 0) - (b.line ?? 0) ||
  cmp(a.element, b.element) ||
  cmp(a.via, b.via);

/**
 * The rows an impact walk collects: each listed once, rows in test files counted (once per place) and left
 * out unless asked for.
 */
export class ImpactRows {
  private readonly raw: UnscopedRow[] = [];
  private readonly seen = new Set<string>();
  private leftOut = 0;
  private readonly graph: ContractGraph;
  private readonly includeTests: boolean;

  constructor(graph: ContractGraph, includeTests: boolean) {
    this.graph = graph;
    this.includeTests = includeTests;
  }

  get testRowsLeftOut(): number {
    return this.leftOut;
  }

  add(row: UnscopedRow): void {
    if (row.file !== undefined && isTestPath(row.file) && !this.includeTests) {
      const key = `test|${row.role}|${row.root}|${row.file}|${row.line}|${row.via}`;
      if (!this.seen.has(key)) {
        this.seen.add(key);
        this.leftOut++;
      }
      return;
    }
    const key = `${row.element}|${row.role}|${row.via}|${row.root ?? ''}|${row.file ?? ''}|${row.line ?? ''}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.raw.push(row);
  }

  /** The code an edge comes from, as a row; `cap` weakens the edge's confidence. */
  addEdge(edge: GraphEdge, role: ImpactRole, hop: number, via: string, cap?: Confidence): void {
    this.add({
      hop,
      role,
      element: this.graph.node(edge.from).name,
      root: edge.root,
      file: edge.file,
      line: edge.line,
      confidence: cap ? weaker(edge.confidence, cap) : edge.confidence,
      via,
    });
  }

  /** The rows, each internal or external to the owners, in answer order. */
  scoped(owners: ReadonlySet<string>): ImpactRow[] {
    return this.raw
      .map((row): ImpactRow => ({
        ...row,
        scope: row.root !== undefined && owners.has(row.root) ? 'INTERNAL' : 'EXTERNAL',
      }))
      .sort(rowOrder);
  }
}
