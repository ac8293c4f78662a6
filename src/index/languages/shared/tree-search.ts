/**
 * One native search of a tree for the node types several readers of a file look for. `descendantsOfType`
 * walks the whole tree inside wasm on every call, and a JVM file was searched twice: its body sites, then
 * its declarations and calls. Each reader's search is answered from the one result, filtered to the types
 * it asks for, in the same document order and with each node's type read once; a reader asking for a type
 * outside the shared search gets a search of its own, so a list that falls behind costs time, never facts.
 */
import type { Node } from 'web-tree-sitter';
import type { FoundSites } from './site-walk.js';

export class TreeSearch {
  private found: FoundSites | undefined;

  constructor(
    readonly root: Node,
    private readonly searched: ReadonlySet<string>,
  ) {}

  /** The nodes of these types below the root (and the root itself, as `descendantsOfType` does). */
  find(types: readonly string[]): FoundSites {
    if (!types.every((type) => this.searched.has(type))) return search(this.root, types);
    this.found ??= search(this.root, [...this.searched]);
    const wanted = new Set(types);
    const nodes: Node[] = [];
    const kept: string[] = [];
    this.found.nodes.forEach((node, index) => {
      const type = this.found?.types[index] as string;
      if (!wanted.has(type)) return;
      nodes.push(node);
      kept.push(type);
    });
    return { nodes, types: kept };
  }
}

/** The nodes of `types` below `root` (or found by a shared search), with their types. */
export function searchTree(root: Node | TreeSearch, types: readonly string[]): FoundSites {
  return root instanceof TreeSearch ? root.find(types) : search(root, types);
}

function search(root: Node, types: readonly string[]): FoundSites {
  const nodes: Node[] = [];
  const found: string[] = [];
  for (const node of root.descendantsOfType([...new Set(types)])) {
    if (node === null) continue;
    nodes.push(node);
    found.push(node.type);
  }
  return { nodes, types: found };
}
