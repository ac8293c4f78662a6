/**
 * The workspace files one import statement of a file reaches, as the contract graph resolved them (each
 * language's import resolver: relative paths, tsconfig aliases, workspace packages, Go module folders). A
 * folder target (a Go package) stands for its files of the importing file's language family.
 */
import type { GraphEdge, IndexedFile, SnapshotReader } from '../../index/reader.js';
import type { MeshServices } from '../services.js';
import { filesInFolder } from './folder-files.js';
import { familyOf } from './language-family.js';

/** An import the file writes, with where it leads; `files` is empty for a library or standard import. */
export interface ImportReach {
  readonly source: string;
  readonly names: readonly string[];
  readonly line: number;
  readonly files: readonly IndexedFile[];
}

function targetFiles(
  snapshot: SnapshotReader,
  languages: MeshServices['languages'],
  from: IndexedFile,
  edge: GraphEdge,
): IndexedFile[] {
  const node = snapshot.contractGraph().node(edge.to);
  if (node.kind !== 'module' || node.root === undefined) return [];
  if (node.file !== undefined) {
    const file = snapshot.file(node.root, node.file);
    return file ? [file] : [];
  }
  const dir = node.name === './' ? '' : node.name.replace(/\/$/, '');
  const family = familyOf(languages, from);
  return filesInFolder(snapshot, node.root, dir).filter((f) => familyOf(languages, f) === family);
}

/** Each import of the file with the files it reaches, in the file's order. */
export function importsOf(
  snapshot: SnapshotReader,
  languages: MeshServices['languages'],
  file: IndexedFile,
): ImportReach[] {
  const imports = file.facts.imports;
  if (imports.length === 0) return [];
  const graph = snapshot.contractGraph();
  const module = graph.nodeInRoot('module', file.root, file.path);
  const edges = module ? graph.outgoing(module.id, 'imports') : [];
  return imports.map((fact) => ({
    source: fact.source,
    names: fact.names ?? [],
    line: fact.line,
    // The graph keeps one edge per target, evidenced by the first statement reaching it: match by
    // statement line, or by the specifier for a later statement reaching the same target.
    files: edges
      .filter((edge) => edge.line === fact.line || edge.via === fact.source)
      .flatMap((edge) => targetFiles(snapshot, languages, file, edge)),
  }));
}
