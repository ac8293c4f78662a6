/**
 * Cursor walks over the named nodes of a tree that stop only at the node types a reader cares about. A
 * cursor creates no Node object for the many nodes it only passes through, and each step asks it one thing,
 * the node's type id, read against a table per grammar: every question to the cursor crosses into wasm.
 */
import type { Language, Node } from 'web-tree-sitter';

/**
 * Walks the named descendants of `node` (not `node` itself) in source order with a cursor, which creates
 * no Node object for the many nodes that are only passed through: `visit` sees only the node types in
 * `sites` and returns true when it has handled that node's subtree itself; subtrees of `leaves` (strings,
 * comments) are skipped. Each step asks the cursor one thing, the node's type id, and a table per grammar
 * says what that id is: every question to the cursor crosses into wasm, and asking for the type name, the
 * named flag and the depth at every node made this walk one of the costliest parts of extraction for
 * the languages that use it.
 */
export function walkSites(
  node: Node,
  sites: ReadonlySet<string>,
  leaves: ReadonlySet<string>,
  visit: (site: Node, type: string) => boolean,
): void {
  const kinds = siteKinds(node.tree.language, sites, leaves);
  const cursor = node.walk();
  try {
    if (!cursor.gotoFirstChild()) return;
    let depth = 1;
    for (;;) {
      const id = cursor.nodeTypeId;
      const kind = id < kinds.table.length ? (kinds.table[id] as number) : kinds.error;
      const descend =
        kind === PASS || (kind === SITE && !visit(cursor.currentNode, kinds.names[id] ?? 'ERROR'));
      if (descend && cursor.gotoFirstChild()) {
        depth++;
        continue;
      }
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent() || --depth === 0) return;
      }
    }
  } finally {
    cursor.delete();
  }
}

/** The node types one reader visits (`sites`) and the subtrees it skips (`leaves`), as for `walkSites`. */
export interface SiteQuery {
  readonly sites: ReadonlySet<string>;
  readonly leaves: ReadonlySet<string>;
}

/** The sites a query found, in source order, with their types. */
export interface FoundSites {
  readonly nodes: readonly Node[];
  readonly types: readonly string[];
}

/**
 * The nodes `walkSites(node, sites, leaves, visit)` would hand to a `visit` that never handles a subtree
 * itself, for several queries in one walk. Readers that only look at every site (the pre-passes and call
 * readers run after the declarations) each walked the whole tree; reading each list afterwards, one reader
 * after the other, runs their visits in the very order their own walks did. A node found by several
 * queries is one Node object.
 */
export function collectSites(node: Node, queries: readonly SiteQuery[]): FoundSites[] {
  const found = queries.map(() => ({ nodes: [] as Node[], types: [] as string[] }));
  const kinds = queries.map((query) => siteKinds(node.tree.language, query.sites, query.leaves));
  // Per query, the depth of the node whose subtree it skips (a leaf or a token); 0 while it reads on.
  const skippedBelow = new Array<number>(queries.length).fill(0);
  const cursor = node.walk();
  try {
    if (!cursor.gotoFirstChild()) return found;
    let depth = 1;
    for (;;) {
      const id = cursor.nodeTypeId;
      let current: Node | undefined;
      let descend = false;
      for (let index = 0; index < kinds.length; index++) {
        if (skippedBelow[index] !== 0) continue;
        const table = kinds[index] as SiteKinds;
        const kind = id < table.table.length ? (table.table[id] as number) : table.error;
        if (kind === LEAF || kind === TOKEN) {
          skippedBelow[index] = depth;
          continue;
        }
        descend = true;
        if (kind === SITE) {
          current ??= cursor.currentNode;
          const list = found[index] as { nodes: Node[]; types: string[] };
          list.nodes.push(current);
          list.types.push(table.names[id] ?? 'ERROR');
        }
      }
      if (descend && cursor.gotoFirstChild()) {
        depth++;
        continue;
      }
      for (;;) {
        // Leaving the node at `depth`: the queries that skipped its subtree read on from its next sibling.
        for (let index = 0; index < skippedBelow.length; index++)
          if ((skippedBelow[index] as number) >= depth) skippedBelow[index] = 0;
        if (cursor.gotoNextSibling()) break;
        if (!cursor.gotoParent() || --depth === 0) return found;
      }
    }
  } finally {
    cursor.delete();
  }
}

/** What `walkSites` does at a node: descend, visit, skip a leaf's subtree, or pass a token by. */
const PASS = 0;
const SITE = 1;
const LEAF = 2;
const TOKEN = 3;

interface SiteKinds {
  /** By type id. */
  readonly table: Uint8Array;
  /** The kind of an ERROR node, whose id lies outside the grammar's symbols. */
  readonly error: number;
  readonly names: readonly string[];
}

const namedTypes = new WeakMap<Language, Uint8Array>();
const kindTables = new WeakMap<
  Language,
  WeakMap<ReadonlySet<string>, WeakMap<ReadonlySet<string>, SiteKinds>>
>();

/** The kinds of every type id of `language` for one pair of site and leaf sets (built once per grammar). */
function siteKinds(language: Language, sites: ReadonlySet<string>, leaves: ReadonlySet<string>): SiteKinds {
  let bySites = kindTables.get(language);
  if (bySites === undefined) kindTables.set(language, (bySites = new WeakMap()));
  let byLeaves = bySites.get(sites);
  if (byLeaves === undefined) bySites.set(sites, (byLeaves = new WeakMap()));
  let kinds = byLeaves.get(leaves);
  if (kinds === undefined) {
    const named = namedTypesOf(language);
    const names = language.types;
    const kindOf = (name: string, isNamed: boolean): number =>
      !isNamed ? TOKEN : leaves.has(name) ? LEAF : sites.has(name) ? SITE : PASS;
    const table = new Uint8Array(names.length);
    names.forEach((name, id) => (table[id] = kindOf(name, named[id] === 1)));
    kinds = { table, error: kindOf('ERROR', true), names };
    byLeaves.set(leaves, kinds);
  }
  return kinds;
}

function namedTypesOf(language: Language): Uint8Array {
  let named = namedTypes.get(language);
  if (named === undefined) {
    named = new Uint8Array(language.types.length);
    for (let id = 0; id < named.length; id++) named[id] = language.nodeTypeIsNamed(id) ? 1 : 0;
    namedTypes.set(language, named);
  }
  return named;
}
