/** Text helpers the TypeScript declaration walkers share: doc comments, signatures, named children. */
import type { Node } from 'web-tree-sitter';
import { oneLine } from '../shared/tree-utils.js';

const MAX_SIGNATURE = 300;

export function cleanDoc(text: string): string {
  return text
    .replace(/^\/\*\*\s?/, '')
    .replace(/\s*\*\/$/, '')
    .split('\n')
    .map((line) => line.replace(/^\s*\* ?/, '').trimEnd())
    .join('\n')
    .trim();
}

export function cap(text: string): string {
  // A wrapped parameter list keeps its trailing comma (`b: B,)`), a type alias its `;`: both read badly.
  const flat = oneLine(text)
    .replace(/,([)\]}>])/g, '$1')
    .replace(/;$/, '');
  return flat.length <= MAX_SIGNATURE ? flat : `${flat.slice(0, MAX_SIGNATURE - 1)}…`;
}

export function named(node: Node): Node[] {
  return node.namedChildren.filter((n): n is Node => n !== null);
}
