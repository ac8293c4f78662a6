/**
 * The methods a Next.js pages-router API route serves. Its default export handles every method; a handler
 * that branches on the method (`switch (req.method) { case 'POST': … }`, `if (req.method === 'GET')`, or a
 * guard `if (method !== 'POST') return res.status(405)`) serves the methods it names, each at its branch.
 */
import type { Node } from 'web-tree-sitter';
import { stringValue, unwrap } from './values.js';

const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']);
/** `req.method`, `request.method`, or `method` destructured from the request. */
const METHOD_READ = /^(?:[\w$]+(?:\?)?\.)?method$/;
const EQUALITY = new Set(['===', '==', '!==', '!=']);

export interface BranchMethod {
  readonly method: string;
  readonly line: number;
}

function methodLiteral(node: Node | null): string | undefined {
  if (node?.type !== 'string') return undefined;
  const value = stringValue(node).toUpperCase();
  return METHODS.has(value) ? value : undefined;
}

function readsMethod(node: Node | null): boolean {
  return node !== null && METHOD_READ.test(unwrap(node).text.replace(/\s+/g, ''));
}

/** Methods named by branches on the request method anywhere in the file, first branch per method. */
export function branchMethods(root: Node): BranchMethod[] {
  const found = new Map<string, number>();
  const note = (method: string | undefined, node: Node): void => {
    if (method !== undefined && !found.has(method)) found.set(method, node.startPosition.row + 1);
  };
  for (const node of root.descendantsOfType(['switch_statement', 'binary_expression'])) {
    if (node === null) continue;
    if (node.type === 'switch_statement') {
      if (!readsMethod(node.childForFieldName('value'))) continue;
      const body = node.childForFieldName('body');
      for (const branch of body?.namedChildren ?? [])
        if (branch?.type === 'switch_case') note(methodLiteral(branch.childForFieldName('value')), branch);
      continue;
    }
    const operator = node.childForFieldName('operator')?.type ?? '';
    if (!EQUALITY.has(operator)) continue;
    const left = node.childForFieldName('left');
    const right = node.childForFieldName('right');
    if (readsMethod(left)) note(methodLiteral(right), node);
    else if (readsMethod(right)) note(methodLiteral(left), node);
  }
  return [...found].map(([method, line]) => ({ method, line }));
}
