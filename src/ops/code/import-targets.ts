/**
 * Where a file's imports lead, as the contract graph resolved them (each language's resolver, tsconfig
 * aliases, Go modules, JVM packages): by the line of the import statement, the workspace files or folders it
 * reaches. An import the extractor resolved itself keeps that answer.
 */
import type { GraphNode, IndexedFile, SnapshotReader } from '../../index/reader.js';
import { displayPath } from '../shared/workspace-paths.js';

/** A resolved target as answers show it: a file's path, or a folder's (or a package root's) ending in `/`. */
function targetOf(snapshot: SnapshotReader, node: GraphNode): string | undefined {
  if (node.root === undefined) return undefined;
  if (node.kind === 'module' && node.file !== undefined)
    return displayPath(snapshot.roots, node.root, node.file);
  if (node.kind === 'module') {
    const folder = node.name === './' ? '' : node.name;
    const root = snapshot.roots.find((r) => r.name === node.root);
    const base = root && root.name !== '.' ? `${root.name}/` : '';
    return `${base}${folder}`;
  }
  // A package: the root that publishes it.
  return node.root === '.' ? './' : `${node.root}/`;
}

/** Import statement line → where the graph says it leads. */
function graphTargets(snapshot: SnapshotReader, file: IndexedFile): Map<number, string[]> {
  const byLine = new Map<number, string[]>();
  const graph = snapshot.contractGraph();
  const module = graph.nodeInRoot('module', file.root, file.path);
  if (!module) return byLine;
  for (const edge of graph.outgoing(module.id, 'imports')) {
    const target = targetOf(snapshot, graph.node(edge.to));
    if (target === undefined) continue;
    const list = byLine.get(edge.line) ?? [];
    if (!list.includes(target)) list.push(target);
    byLine.set(edge.line, list);
  }
  return byLine;
}

/** One import statement's facts, as extraction recorded it. */
type ImportFact = IndexedFile['facts']['imports'][number];

export interface ResolvedImport {
  readonly fact: ImportFact;
  /** Workspace paths the import reaches; empty when unresolved (a third-party package, a standard library). */
  readonly resolved: readonly string[];
}

/** The file's imports in order, each with where it leads. */
export function resolvedImports(snapshot: SnapshotReader, file: IndexedFile): ResolvedImport[] {
  const imports = file.facts.imports;
  if (imports.length === 0) return [];
  const fromGraph = imports.every((i) => i.resolved !== undefined)
    ? new Map<number, string[]>()
    : graphTargets(snapshot, file);
  // The graph keeps one edge per target, evidenced by the first statement reaching it: a later statement of
  // the same line (two imports on one line) shares its answer.
  return imports.map((fact) => ({
    fact,
    resolved:
      fact.resolved !== undefined
        ? [displayPath(snapshot.roots, file.root, fact.resolved)]
        : (fromGraph.get(fact.line) ?? []),
  }));
}
