/** Go's declaration conventions: the `//` doc comment right above a declaration, and capitalised exports. */
import type { Node } from 'web-tree-sitter';
import { docText } from '../shared/native-common.js';
import { endLineOf, startLineOf } from '../shared/tree-utils.js';

/** The `//` comment block ending on the line just above `line` (Go's doc comment rule), directives excluded. */
export function docAbove(siblings: readonly Node[], index: number, line: number): string | undefined {
  const comments: string[] = [];
  let expected = line - 1;
  for (let i = index - 1; i >= 0; i--) {
    const node = siblings[i];
    if (node?.type !== 'comment' || endLineOf(node) !== expected) break;
    if (!/^\/\/(go|line|nolint|export)[: ]/.test(node.text)) comments.unshift(node.text);
    expected = startLineOf(node) - 1;
  }
  return docText(comments);
}

/** An identifier starting with an upper-case letter is visible outside its package. */
export const isExported = (name: string): boolean => /^\p{Lu}/u.test(name);
