/**
 * Kotlin: the parts of a declaration read from its text rather than its tree: annotations and modifier
 * keywords, and imports.
 */
import type { Node } from 'web-tree-sitter';
import type { AnnotationInfo } from '../shared/jvm/annotations.js';
import { lastSegment, lineOf } from '../shared/jvm/common.js';
import type { FactBuilder } from '../shared/fact-builder.js';
import { type ChildIndex, type DetachedAnnotations, ktAnnotation } from './model.js';

/**
 * Annotations (including those the grammar detached, see the walker's `members`), modifier keywords (the
 * text between the annotations) and the source offset where the declaration proper starts.
 */
export function ktModifiers(
  source: string,
  node: Node,
  parts: ChildIndex,
  leading: DetachedAnnotations | undefined,
): { annotations: AnnotationInfo[]; keywords: string[]; restStart: number } {
  const annotations: AnnotationInfo[] = [...(leading?.annotations ?? [])];
  const modifiers = parts.first.get('modifiers');
  if (modifiers === undefined) return { annotations, keywords: [], restStart: node.startIndex };
  let rest = '';
  let from = modifiers.startIndex;
  for (const child of modifiers.namedChildren) {
    if (child === null || child.type !== 'annotation') continue;
    rest += source.slice(from, child.startIndex);
    from = child.endIndex;
    annotations.push(ktAnnotation(child));
  }
  rest += source.slice(from, modifiers.endIndex);
  const keywords = rest.split(/\s+/).filter((word) => word !== '');
  return { annotations, keywords, restStart: modifiers.endIndex };
}

/**
 * Adds the import fact of `import a.b.C [as D]` / `import a.b.*` and records single imports by the name
 * they are used under. Read from the text: cheaper than asking the tree for each part.
 */
export function ktImport(node: Node, facts: FactBuilder, imports: Map<string, string>): void {
  const text = node.text.replace(/\/\*[^]*?\*\/|\/\/[^\n]*/g, ' ');
  const match = /^import\s+([\w.`\s]+?)(\s*\.\s*\*)?(?:\s+as\s+([\w`]+))?\s*;?\s*$/.exec(text);
  if (match === null) return;
  const path = (match[1] ?? '').replace(/[\s`]+/g, '');
  const line = lineOf(node);
  if (match[2] !== undefined) {
    facts.addImport({ source: path, names: ['*'], line });
    return;
  }
  facts.addImport({ source: path, names: [lastSegment(path)], line });
  imports.set(match[3]?.replace(/`/g, '') ?? lastSegment(path), path);
}
