import type { Node } from 'web-tree-sitter';
import { endLineOf, startLineOf } from '../shared/tree-utils.js';

/** The `/** … *\/` block right above a declaration, without its comment markers. */
export function docBlock(node: Node): string | undefined {
  const previous = node.previousSibling;
  if (
    previous?.type !== 'comment' ||
    !previous.text.startsWith('/**') ||
    endLineOf(previous) < startLineOf(node) - 1
  )
    return undefined;
  const text = previous.text
    .replace(/^\/\*\*/, '')
    .replace(/\*\/$/, '')
    .split('\n')
    .map((line) => line.replace(/^\s*\*\s?/, '').trimEnd())
    .join('\n')
    .trim();
  return text === '' ? undefined : text;
}
