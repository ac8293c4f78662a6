/** Python declaration text: signatures, docstrings, Django route paths. */
import type { Node } from 'web-tree-sitter';
import { oneLine } from '../shared/tree-utils.js';

export function normalizeDjango(route: string): string {
  return route === '' ? '/' : `/${route}`.replace(/<(?:\w+:)?(\w+)>/g, '{$1}').replace(/\/+$/, '') || '/';
}

/** The docstring's string node: the body's first statement when it is a lone string. */
export function docstringNode(body: Node): Node | undefined {
  const first = body.namedChildren.find((child) => child !== null && child.type !== 'comment');
  const string = first?.type === 'expression_statement' ? first.namedChildren[0] : undefined;
  return string?.type === 'string' && first?.namedChildren.length === 1 ? string : undefined;
}

/** `inspect.cleandoc`: first line trimmed, common indentation of the others removed, blank edges dropped. */
export function cleanDoc(text: string): string {
  const lines = text.split(/\r?\n/);
  const rest = lines.slice(1);
  const indents = rest.filter((line) => line.trim() !== '').map((line) => /^\s*/.exec(line)?.[0].length ?? 0);
  const indent = indents.length === 0 ? 0 : Math.min(...indents);
  return [lines[0]?.trim() ?? '', ...rest.map((line) => line.slice(indent).trimEnd())].join('\n').trim();
}

export function signatureOf(node: Node): string {
  const name = node.childForFieldName('name')?.text ?? '';
  const typeParameters = node.childForFieldName('type_parameters')?.text ?? '';
  if (node.type === 'class_definition') {
    return oneLine(`class ${name}${typeParameters}${node.childForFieldName('superclasses')?.text ?? ''}`);
  }
  const isAsync = node.children.some((child) => child?.type === 'async');
  const returns = node.childForFieldName('return_type');
  const parameters = node.childForFieldName('parameters')?.text ?? '()';
  return oneLine(
    `${isAsync ? 'async ' : ''}def ${name}${typeParameters}${parameters}${returns === null ? '' : ` -> ${returns.text}`}`,
  );
}
