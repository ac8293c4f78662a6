import { byteLength, cutToBytes } from '../core/budget.js';
import type { Topology } from './topology.js';

const MAX_LABEL_BYTES = 120;

/**
 * A label as Mermaid reads it: entity codes for every character that could end the label or start markup
 * (quotes, angle brackets, `#`, backticks), newlines flattened, long names shortened. Scanned names are
 * untrusted input, and an unescaped `"]` would let a name inject its own nodes and links.
 */
export function mermaidLabel(text: string): string {
  const flat = text.replace(/[\r\n\t]+/g, ' ');
  const short = byteLength(flat) > MAX_LABEL_BYTES ? `${cutToBytes(flat, MAX_LABEL_BYTES - 3)}...` : flat;
  return short.replace(/[#"<>`&|{}[\]()]/g, (c) => `#${c.charCodeAt(0)};`);
}

const ARROW: Record<string, string> = {
  calls_rpc: '-->',
  calls_http: '-.->',
  produces: '==>',
  consumes: '==>',
};
const KIND_LABEL: Record<string, string> = {
  calls_rpc: 'gRPC',
  calls_http: 'HTTP',
  produces: 'produces',
  consumes: 'consumes',
};

export function renderMermaid(topology: Topology): string {
  const lines = ['flowchart LR'];
  for (const node of topology.nodes) {
    const label = mermaidLabel(node.label);
    if (node.kind === 'topic')
      lines.push(
        `  ${node.id}[("${node.broker === undefined ? label : mermaidLabel(`${node.label} · ${node.broker}`)}")]`,
      );
    else if (node.kind === 'folded') lines.push(`  ${node.id}{{"${label}"}}`);
    // A subroutine box: a folder of contract declarations, not a running service.
    else if (node.kind === 'contracts') lines.push(`  ${node.id}[["${label}"]]`);
    else lines.push(`  ${node.id}["${label}"]`);
  }
  for (const link of topology.links) {
    const weight = link.weight > 1 ? ` ×${link.weight}` : '';
    const doubt = link.confidence === 'exact' ? '' : ` (${link.confidence})`;
    lines.push(
      `  ${link.from} ${ARROW[link.kind] ?? '-->'}|"${mermaidLabel(`${KIND_LABEL[link.kind] ?? link.kind}${weight}${doubt}`)}"| ${link.to}`,
    );
  }
  return lines.join('\n');
}
