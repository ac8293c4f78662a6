import type { ContractGraph } from './model.js';

/** Graph lines for the fingerprint: edges by node names, never by ids. */
export function graphLines(graph: ContractGraph): string[] {
  return graph.edges.map((edge) => {
    const from = graph.nodes[edge.from];
    const to = graph.nodes[edge.to];
    return `edge ${edge.kind} ${from?.kind}:${from?.root ?? '-'}:${from?.name} -> ${to?.kind}:${to?.root ?? '-'}:${to?.name} ${edge.confidence} ${edge.root}:${edge.file}:${edge.line} ${edge.via}`;
  });
}
