import type { GraphEdge, GraphNode } from '../../index/reader.js';

/** One contract listed on a topology node; `file` is workspace-relative, so a reader can open it. */
export interface ContractEntry {
  readonly kind: string;
  readonly name: string;
  readonly file?: string;
  readonly line?: number;
}

/** A root-relative file as answers show it (workspace-relative when the root is inside the workspace). */
export type DisplayPath = (root: string, file: string) => string;

/**
 * The contracts each root implements, serves, produces, consumes or (a contracts folder) declares, listed
 * on its node. Each is located where the contract is declared (the .proto line, the route's handler); a
 * topic has no declaration, so its entry points at the first statement producing or consuming it.
 */
export class ContractLists {
  private readonly byRoot = new Map<string, Map<string, ContractEntry>>();

  constructor(private readonly displayPath: DisplayPath) {}

  /** `evidence` locates the entry when the contract itself has no location (a topic). */
  add(root: string, kind: string, node: GraphNode, evidence?: GraphEdge): void {
    const map = this.byRoot.get(root) ?? this.byRoot.set(root, new Map()).get(root);
    const key = `${kind}|${node.name}`;
    if (!map || map.has(key)) return;
    map.set(key, { kind, name: node.name, ...this.locationOf(node, evidence) });
  }

  count(root: string): number {
    return this.byRoot.get(root)?.size ?? 0;
  }

  sorted(root: string): ContractEntry[] {
    return [...(this.byRoot.get(root)?.values() ?? [])].sort((a, b) =>
      a.kind + a.name < b.kind + b.name ? -1 : 1,
    );
  }

  private locationOf(node: GraphNode, evidence: GraphEdge | undefined): { file?: string; line?: number } {
    if (node.file !== undefined && node.root !== undefined)
      return { file: this.displayPath(node.root, node.file), line: node.line ?? 0 };
    if (evidence !== undefined)
      return { file: this.displayPath(evidence.root, evidence.file), line: evidence.line };
    return {};
  }
}
