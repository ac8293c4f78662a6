/**
 * Java: the parts of a declaration read from its text rather than its tree: modifier keywords and
 * annotations, the one-line signature, whether the declaration is visible outside its file, and imports.
 */
import type { Node } from 'web-tree-sitter';
import type { AnnotationInfo } from '../shared/jvm/annotations.js';
import { lastSegment, lineOf } from '../shared/jvm/common.js';
import type { FactBuilder } from '../shared/fact-builder.js';
import { oneLine } from '../shared/tree-utils.js';
import { javaAnnotation, type JavaClass, type JavaFile } from './model.js';

export interface JavaModifiers {
  modifiers: Node | undefined;
  annotations: AnnotationInfo[];
  keywords: string[];
  restStart: number;
}

/**
 * The `modifiers` node (always the first child when present), its keywords (`public`, `static`, …: the
 * text between the annotations) and the source offset where the rest of the declaration starts.
 */
export function javaModifiers(node: Node, source: string): JavaModifiers {
  const first = node.firstNamedChild;
  const modifiers = first !== null && first.type === 'modifiers' ? first : undefined;
  if (modifiers === undefined)
    return { modifiers, annotations: [], keywords: [], restStart: node.startIndex };
  const annotations: AnnotationInfo[] = [];
  let rest = '';
  let from = modifiers.startIndex;
  for (const child of modifiers.namedChildren) {
    if (child === null) continue;
    rest += source.slice(from, child.startIndex);
    from = child.endIndex;
    if (child.type === 'annotation' || child.type === 'marker_annotation')
      annotations.push(javaAnnotation(child));
  }
  rest += source.slice(from, modifiers.endIndex);
  const keywords = rest.split(/\s+/).filter((word) => word !== '');
  return { modifiers, annotations, keywords, restStart: modifiers.endIndex };
}

/** The keywords, then the declaration text from `from` to `to` (its body excluded), on one line. */
export function javaSignature(source: string, keywords: readonly string[], from: number, to: number): string {
  const rest = source.slice(from, to).replace(/;\s*$/, '');
  return oneLine([...keywords, rest.trim()].join(' '), 'as-written').replace(/\s+/g, ' ');
}

/** Public, or a member of an interface or annotation that is not private (implicitly public there). */
export function isExported(keywords: readonly string[], outer: JavaClass | undefined): boolean {
  if (keywords.includes('public')) return true;
  return (outer?.kind === 'interface' || outer?.kind === 'annotation') && !keywords.includes('private');
}

/**
 * Adds the import fact of `import [static] a.b.C[.*];` and records single-type imports by simple name.
 * Read from the text: cheaper than asking the tree for each part.
 */
export function javaImport(
  node: Node,
  facts: FactBuilder,
  file: Pick<JavaFile, 'imports' | 'staticImports' | 'staticWildcards'>,
): void {
  const text = node.text.replace(/\/\*[^]*?\*\/|\/\/[^\n]*/g, ' ');
  const match = /^import\s+(static\s+)?([\w$.\s]+?)(\s*\.\s*\*)?\s*;?\s*$/.exec(text);
  if (match === null) return;
  const path = (match[2] ?? '').replace(/\s+/g, '');
  const line = lineOf(node);
  if (match[3] !== undefined) {
    facts.addImport({ source: path, names: ['*'], line });
    if (match[1] !== undefined) file.staticWildcards.push(path);
  } else if (match[1] !== undefined) {
    const dot = path.lastIndexOf('.');
    facts.addImport({ source: path.slice(0, dot), names: [path.slice(dot + 1)], line });
    file.staticImports.set(path.slice(dot + 1), path.slice(0, dot));
  } else {
    facts.addImport({ source: path, names: [lastSegment(path)], line });
    file.imports.set(lastSegment(path), path);
  }
}
