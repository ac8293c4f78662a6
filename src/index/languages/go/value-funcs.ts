import type { Node } from 'web-tree-sitter';
import { goStringLiteral, type GoFile } from './scope.js';

/** Records a same-file function as a value helper when it returns one literal or its env-default parameter. */
export function readValueFunc(node: Node, name: string, file: GoFile): void {
  if (!/^\(?string\)?$/.test(file.funcResults.get(name) ?? '')) return;
  const body = node.childForFieldName('body');
  if (body === null) return;
  const statements = body.namedChildren.find((n) => n?.type === 'statement_list')?.namedChildren ?? [];
  const last = statements[statements.length - 1];
  if (last?.type !== 'return_statement') return;
  const returned = last.namedChild(0)?.namedChild(0);
  if (returned === null || returned === undefined) return;
  const params = (node.childForFieldName('parameters')?.namedChildren ?? []).flatMap((p) =>
    p?.type === 'parameter_declaration' ? p.childrenForFieldName('name').map((n) => n?.text ?? '') : [],
  );
  if (params.length === 0) {
    // Every literal the function can return must be this one; a switch over several literals is not a default.
    const literal = goStringLiteral(returned) ?? (returned.type === 'identifier' ? returned.text : undefined);
    if (literal === undefined) return;
    for (const ret of body.descendantsOfType('return_statement')) {
      const value = ret?.namedChild(0)?.namedChild(0);
      const text = value === null || value === undefined ? undefined : (goStringLiteral(value) ?? undefined);
      if (text !== undefined && value?.text !== returned.text) return;
    }
    file.valueFuncs.set(name, { kind: 'literal', node: returned });
    return;
  }
  const index = returned.type === 'identifier' ? params.indexOf(returned.text) : -1;
  const readsEnv = body
    .descendantsOfType('selector_expression')
    .some((n) => n?.text === 'os.Getenv' || n?.text === 'os.LookupEnv');
  if (index >= 0 && readsEnv) file.valueFuncs.set(name, { kind: 'param', index });
}
