/**
 * How C and C++ declarations are written: the include guard, Doxygen comments above a declaration, the
 * function declarator under pointer and reference wrappers, scope-qualified names, type specifiers with a
 * body. Pure readers of the tree and its text, for the declaration walk in `extract.ts`.
 */
import type { Node } from 'web-tree-sitter';
import { bareTypeName } from '../shared/call-sites.js';
import { docText } from '../shared/native-common.js';
import { endLineOf, startLineOf } from '../shared/tree-utils.js';

/** The include-guard macro (`#ifndef X_H` wrapping the file and starting with `#define X_H`), not a constant. */
export function guardName(root: Node): string | undefined {
  const top = root.namedChildren.filter((n): n is Node => n !== null && n.type !== 'comment');
  const only = top.length === 1 ? top[0] : undefined;
  if (only?.type !== 'preproc_ifdef') return undefined;
  const name = only.childForFieldName('name')?.text;
  const first = only.namedChildren.find(
    (n) => n !== null && n.type !== 'comment' && n.id !== only.childForFieldName('name')?.id,
  );
  return first?.type === 'preproc_def' &&
    first.childForFieldName('name')?.text === name &&
    first.childForFieldName('value') === null
    ? name
    : undefined;
}

/** Doxygen comments (`///`, `//!`, `/**`, `/*!` blocks) in the run ending just above the declaration. */
export function doxygenAbove(siblings: readonly Node[], index: number, line: number): string | undefined {
  const comments: string[] = [];
  let expected = line - 1;
  for (let i = index - 1; i >= 0; i--) {
    const node = siblings[i];
    if (node?.type !== 'comment' || endLineOf(node) !== expected) break;
    if (!/^(\/\/[/!]|\/\*[*!])/.test(node.text) || node.text.startsWith('///<')) break;
    comments.unshift(node.text);
    expected = startLineOf(node) - 1;
  }
  return docText(comments);
}

/** The function declarator under pointer/reference/attributed wrappers, if the declarator declares a function. */
export function functionDeclarator(declarator: Node | null): Node | undefined {
  let current = declarator;
  for (let i = 0; i < 8 && current !== null; i++) {
    if (current.type === 'function_declarator') return current;
    if (!/^(pointer|reference|attributed|parenthesized)_declarator$/.test(current.type)) return undefined;
    current =
      current.childForFieldName('declarator') ??
      current.namedChildren.find((c) => c?.type.endsWith('declarator')) ??
      null;
  }
  return undefined;
}

/** `a::b<c::d>::e` → `a`, `b<c::d>`, `e` (scope separators inside template arguments do not split). */
export function splitScope(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '<') depth++;
    else if (ch === '>') depth--;
    else if (ch === ':' && text[i + 1] === ':' && depth === 0) {
      out.push(text.slice(start, i));
      start = i + 2;
      i++;
    }
  }
  out.push(text.slice(start));
  return out.filter((s, i) => s !== '' || i > 0);
}

/** A class, struct, union or enum specifier that defines its body (not a forward reference). */
export function isTypeSpecifierWithBody(type: Node): boolean {
  return /^(class|struct|union|enum)_specifier$/.test(type.type) && type.childForFieldName('body') !== null;
}

/** The classes a base clause names, as written without template arguments: `public ns::Base<T>` → `ns::Base`. */
export function baseTypes(bases: readonly (Node | null)[]): string[] {
  return bases.flatMap((base) =>
    base !== null && /^(type_identifier|qualified_identifier|template_type)$/.test(base.type)
      ? [bareTypeName(base.text.replace(/\s+/g, ''))]
      : [],
  );
}

/** Preprocessor blocks that compile their content in some builds only. */
const CONDITIONAL = new Set([
  'preproc_ifdef',
  'preproc_if',
  'preproc_else',
  'preproc_elif',
  'preproc_elifdef',
]);

/**
 * Whether a preprocessor conditional picks between builds. The include guard does not, nor does
 * `#ifdef __cplusplus` (the `extern "C" {` wrapper that the grammar reads as holding the whole header).
 */
export function buildVariant(node: Node, guard: string | undefined): boolean {
  if (!CONDITIONAL.has(node.type)) return false;
  const condition = (node.childForFieldName('name') ?? node.childForFieldName('condition'))?.text ?? '';
  if (node.type === 'preproc_ifdef' && condition === guard) return false;
  return !/\b__cplusplus\b/.test(condition);
}
