import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { z } from 'zod';
import { byteLength } from '../../core/budget.js';
import { ToolError } from '../../core/errors.js';
import { defineOperation, type OperationContext } from '../../core/operation.js';
import type { SnapshotReader } from '../../index/reader.js';
import { renderHtmlGraph, type PageLibraries } from '../../render/html-graph.js';
import { mermaidLabel, renderMermaid } from '../../render/mermaid.js';
import type { Topology } from '../../render/topology.js';
import type { MeshServices } from '../services.js';
import { requireSnapshot } from '../shared/snapshot.js';
import { displayPath } from '../shared/workspace-paths.js';
import { contractRootsOf } from './contract-roots.js';
import { foldTopology } from './fold.js';

/** Mermaid answers stay under this; past it the number of drawn services is halved until they fit. */
const MERMAID_BUDGET_BYTES = 44 * 1024;

let pageLibraries: PageLibraries | undefined;
/**
 * The browser builds of cytoscape (drawing) and dagre (layered layout, with graphlib inside), inlined into
 * every HTML page so it works offline. dagre's package exports only its modules, so its browser build is
 * found beside its package.json.
 */
export function loadPageLibraries(): PageLibraries {
  const require = createRequire(import.meta.url);
  pageLibraries ??= {
    cytoscape: readFileSync(require.resolve('cytoscape/dist/cytoscape.min.js'), 'utf8'),
    dagre: readFileSync(
      path.join(path.dirname(require.resolve('@dagrejs/dagre/package.json')), 'dist/dagre.min.js'),
      'utf8',
    ),
  };
  return pageLibraries;
}

export function topologyOf(
  snapshot: SnapshotReader,
  languageOf: MeshServices['languages'],
  maxServices: number,
  service?: string,
): Topology {
  let zoom: string | undefined;
  if (service !== undefined) {
    const roots = snapshot.roots.map((r) => r.name);
    zoom =
      roots.find((r) => r === service) ??
      [...snapshot.services].find(([, name]) => name === service)?.[0] ??
      roots.find(
        (r) =>
          r.toLowerCase() === service.toLowerCase() ||
          r.split('/').pop()?.toLowerCase() === service.toLowerCase(),
      );
    if (zoom === undefined) {
      throw new ToolError(
        'not_found',
        `No service named "${service.slice(0, 120)}" in the indexed roots. Services: ${roots.slice(0, 30).join(', ')}${roots.length > 30 ? ', …' : ''}. Call without \`service\` to see the whole topology.`,
      );
    }
  }
  return foldTopology(snapshot.contractGraph(), {
    workspace: snapshot.workspace,
    maxServices,
    ...(zoom !== undefined ? { zoom } : {}),
    contractRoots: contractRootsOf(snapshot, languageOf),
    displayPath: (root, file) => displayPath(snapshot.roots, root, file),
  });
}

function mermaidAnswer(
  snapshot: SnapshotReader,
  languageOf: MeshServices['languages'],
  maxServices: number,
  service: string | undefined,
): { text: string; topology: Topology } {
  let max = maxServices;
  for (;;) {
    const topology = topologyOf(snapshot, languageOf, max, service);
    const diagram = renderMermaid(topology);
    const footer: string[] = [];
    if (topology.hidden.services.length > 0) {
      const largest = topology.hidden.services
        .slice(0, 5)
        .map((s) => mermaidLabel(s))
        .join(', ');
      footer.push(
        `${topology.hidden.services.length} less-connected services are folded into "other services" (e.g. ${largest}). Zoom with \`service: "<name>"\` or raise \`max_services\`.`,
      );
    }
    if (topology.hidden.ambiguousEdges > 0)
      footer.push(
        `${topology.hidden.ambiguousEdges} ambiguous edges spanning several services are not drawn.`,
      );
    const heading = `## Service topology of \`${snapshot.workspace}\`${topology.zoom ? ` around \`${topology.zoom}\`` : ''}\n_${topology.nodes.filter((n) => n.kind === 'service').length} services, ${topology.nodes.filter((n) => n.kind === 'topic').length} topics, ${topology.links.length} links._\n\n`;
    const text = `${heading}\`\`\`mermaid\n${diagram}\n\`\`\`\n${footer.length ? `\n${footer.join('\n')}\n` : ''}`;
    if (byteLength(text) <= MERMAID_BUDGET_BYTES || max <= 1) return { text, topology };
    max = Math.max(1, Math.floor(max / 2));
  }
}

export const graphVisualize = defineOperation({
  domain: 'graph',
  mode: 'visualize',
  flatName: 'visualize_mesh',
  title: 'Service topology',
  description:
    'Draws the service topology folded from the contract graph — services, topics, and one weighted link per service pair and kind (gRPC, HTTP, produces, consumes) — as Mermaid, JSON or a self-contained HTML page, optionally zoomed on one service — e.g. format "mermaid", service "payment". DO NOT USE to list who calls one method (use contracts impact / analyze_impact).',
  args: {
    format: z
      .enum(['mermaid', 'json', 'html'])
      .default('mermaid')
      .describe('Output format, e.g. "json" for tools or "html" for a browser.'),
    service: z
      .string()
      .min(1)
      .max(256)
      .optional()
      .describe('Zoom on one service (root or manifest name), e.g. "services/payment" or "payment".'),
    max_services: z
      .number()
      .int()
      .min(1)
      .max(200)
      .default(40)
      .describe('Best-connected services drawn; the rest are folded, e.g. 20.'),
  },
  output: z.looseObject({
    format: z.string().optional(),
    workspace: z.string(),
    nodes: z.array(z.looseObject({ id: z.string(), kind: z.string(), label: z.string() })),
    links: z.array(z.looseObject({ from: z.string(), to: z.string(), kind: z.string() })),
    hidden: z.looseObject({}),
  }),
  capabilities: { requiresIndex: true, idempotent: true },
  subject: (args) => args.service,
  truncationHint: () => 'The topology is large: zoom with `service`, or lower `max_services`.',
  run(args, ctx: OperationContext<MeshServices>) {
    const snapshot = requireSnapshot(ctx.services);
    if (args.format === 'mermaid') {
      const { text, topology } = mermaidAnswer(
        snapshot,
        ctx.services.languages,
        args.max_services,
        args.service,
      );
      return { data: { format: 'mermaid', ...topology }, markdown: text };
    }
    const topology = topologyOf(snapshot, ctx.services.languages, args.max_services, args.service);
    if (args.format === 'json')
      return { data: { ...topology }, markdown: `${JSON.stringify(topology, null, 2)}\n`, document: true };
    return {
      data: { ...topology },
      markdown: renderHtmlGraph(topology, loadPageLibraries()),
      document: true,
    };
  },
});
