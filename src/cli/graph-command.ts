import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { LoadedConfig } from '../core/config.js';
import type { Logger } from '../core/logger.js';
import { loadPageLibraries, topologyOf } from '../ops/graph/visualize.js';
import type { ServiceView } from '../index/reader.js';
import { renderCallSitesJson } from './call-sites-json.js';
import { renderGraphJson, type GraphJsonInput } from '../render/graph-json.js';
import { renderHtmlGraph } from '../render/html-graph.js';
import { renderMermaid } from '../render/mermaid.js';
import { languageSpec } from '../index/languages/registry.js';
import { LazyIndex } from './lazy-index.js';

/** The service model in the graph JSON's shape: names with `file:line` (a folder name: the folder). */
function servicesOfModel(view: ServiceView): Pick<GraphJsonInput, 'services' | 'uncovered'> {
  return {
    services: view.entries.map((entry) => ({
      name: entry.names[0]?.name ?? entry.folder,
      kind: entry.kind,
      folder: entry.folder,
      root: entry.root,
      names: entry.names.map((n) => ({
        name: n.name,
        from: n.from.line > 0 ? `${n.from.file}:${n.from.line}` : n.from.file,
        how: n.from.how,
      })),
    })),
    uncovered: view.uncovered,
  };
}

/** The roots with their folders relative to the workspace (`.` for the workspace itself). */
function rootsOf(loaded: LoadedConfig): { name: string; relativePath: string }[] {
  return loaded.roots.map((r) => ({
    name: r.name,
    relativePath: path.relative(loaded.baseDir, r.path).split(path.sep).join('/') || '.',
  }));
}

export const GRAPH_FORMATS = ['html', 'mermaid', 'json', 'calls', 'fingerprint'] as const;
export type GraphFormat = (typeof GRAPH_FORMATS)[number];

export interface GraphCommandOptions {
  readonly loaded: LoadedConfig;
  readonly logger: Logger;
  readonly format: GraphFormat;
  readonly output?: string;
  readonly write: (text: string) => void;
}

/** `meshlens graph`: the full graph of the workspace, for files and scripts rather than agents. */
export async function graphCommand(options: GraphCommandOptions): Promise<void> {
  const index = new LazyIndex(options.loaded, options.logger);
  try {
    const engine = await index.start({ watch: false });
    const snapshot = engine.snapshot();
    const fingerprint = engine.fingerprintOf();
    if (!snapshot || !fingerprint) throw new Error('indexing produced no snapshot');
    let text: string;
    if (options.format === 'fingerprint') {
      const graph = snapshot.contractGraph();
      text = [
        `fingerprint: ${fingerprint}`,
        `files: ${snapshot.files.length}`,
        `rejected: ${snapshot.rejected.length}`,
        `graph: ${graph.nodes.length} nodes, ${graph.edges.length} edges`,
      ].join('\n');
    } else if (options.format === 'html' || options.format === 'mermaid') {
      // The full topology: every service drawn, nothing folded.
      const topology = topologyOf(snapshot, languageSpec, Number.MAX_SAFE_INTEGER);
      text =
        options.format === 'html' ? renderHtmlGraph(topology, loadPageLibraries()) : renderMermaid(topology);
    } else if (options.format === 'calls') {
      text = renderCallSitesJson({
        snapshot,
        rootPaths: new Map(rootsOf(options.loaded).map((r) => [r.name, r.relativePath])),
      });
    } else {
      text = renderGraphJson({
        fingerprint,
        roots: rootsOf(options.loaded),
        nodes: snapshot.contractGraph().nodes,
        edges: snapshot.contractGraph().edges,
        unresolved: snapshot.contractGraph().unresolved,
        unresolvedTopics: snapshot.contractGraph().unresolvedTopics,
        ...servicesOfModel(snapshot.serviceModel()),
      });
    }
    if (options.output) writeFileSync(options.output, text.endsWith('\n') ? text : `${text}\n`);
    else options.write(text);
  } finally {
    await index.close();
  }
}
