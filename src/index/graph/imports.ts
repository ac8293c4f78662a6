import type { Confidence, ImportFact } from '../facts.js';
import type { IndexedFile } from '../snapshot.js';
import type { TargetRef } from '../languages/shared/import-resolution.js';
import { ImportResolver } from './imports-resolver.js';
import type { RootImportSettings } from './imports-settings.js';
import type { GraphBuilder } from './node-table.js';

/**
 * Import resolution: each file's imports as written → the workspace files (or Go package folders) they
 * refer to, as `imports` edges between `module` nodes. Facts stay per file; everything that needs more
 * than one file (which files exist, which root publishes a package, tsconfig aliases) is joined here, at
 * reconcile time, by the resolver of each language (imports-resolver.ts).
 */

export interface ImportEdgeInput {
  readonly files: readonly IndexedFile[];
  readonly settings: readonly RootImportSettings[];
}

/**
 * Adds one `imports` edge per (importing file → imported file or Go package folder), from the importing
 * file's `module` node, with the first import statement that resolves there as evidence.
 */
export function addImportEdges(builder: GraphBuilder, input: ImportEdgeInput): void {
  const resolver = new ImportResolver(input.files, input.settings);
  const moduleNode = (file: IndexedFile) =>
    builder.node({ kind: 'module', name: file.path, root: file.root, file: file.path, line: 1 });
  const targetNode = (target: TargetRef): string => {
    switch (target.kind) {
      case 'file':
        return moduleNode(target.file);
      case 'folder':
        return builder.node({
          kind: 'module',
          name: target.dir === '' ? './' : `${target.dir}/`,
          root: target.root,
          file: undefined,
          line: undefined,
        });
      case 'package':
        return builder.node({
          kind: 'service',
          name: target.root,
          root: target.root,
          file: undefined,
          line: undefined,
        });
    }
  };
  const targetKey = (target: TargetRef): string =>
    target.kind === 'file'
      ? `f\u0000${target.file.root}\u0000${target.file.path}`
      : target.kind === 'folder'
        ? `d\u0000${target.root}\u0000${target.dir}`
        : `p\u0000${target.root}`;

  for (const file of input.files) {
    if (file.facts.imports.length === 0) continue;
    const chosen = new Map<string, { target: TargetRef; fact: ImportFact; confidence: Confidence }>();
    for (const fact of file.facts.imports) {
      const { targets, confidence: level } = resolver.resolve(file, fact);
      for (const target of targets) {
        if (target.kind === 'file' && target.file === file) continue;
        const key = targetKey(target);
        const existing = chosen.get(key);
        if (
          !existing ||
          rank(level) < rank(existing.confidence) ||
          (rank(level) === rank(existing.confidence) && fact.line < existing.fact.line)
        ) {
          chosen.set(key, { target, fact, confidence: level });
        }
      }
    }
    if (chosen.size === 0) continue;
    const from = moduleNode(file);
    for (const key of [...chosen.keys()].sort()) {
      const { target, fact, confidence } = chosen.get(key) as {
        target: TargetRef;
        fact: ImportFact;
        confidence: Confidence;
      };
      builder.edge(from, targetNode(target), 'imports', confidence, {
        root: file.root,
        file: file.path,
        line: fact.line,
        via: fact.source,
      });
    }
  }
}

const rank = (c: Confidence): number => (c === 'exact' ? 0 : c === 'heuristic' ? 1 : 2);
