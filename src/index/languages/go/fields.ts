/**
 * What a struct field holds, for URLs built from it (`cs.shippingSvcAddr + "/get-quote"`): the value it is
 * assigned (`s.base = os.Getenv("CART_ADDR")`, `&server{base: "http://cart:8080"}`) or the environment
 * variable a same-file helper reads into it (`mustMapEnv(&svc.shippingSvcAddr, "SHIPPING_ADDR")`). Read in
 * one pass before the contracts walk, since a method may use a field its constructor sets further down;
 * values are read at file level, so a local variable in the assignment stays unknown.
 */
import type { Node } from 'web-tree-sitter';
import { argumentsOf, unwrapParens, type GoScope } from './scope.js';
import type { UrlPart } from '../shared/native-common.js';

/** Reads a value into URL parts (http.ts's reader, passed in to keep this file free of it). */
export type PartsReader = (node: Node, scope: GoScope) => UrlPart[];

/**
 * Same-file helpers that set a `*string` from the environment: `func mustMapEnv(target *string, key string)`
 * whose body reads `os.Getenv(key)` (or `LookupEnv`) and writes `*target`. Name → argument positions.
 */
function envSetters(root: Node): Map<string, { readonly target: number; readonly key: number }> {
  const setters = new Map<string, { readonly target: number; readonly key: number }>();
  for (const func of root.descendantsOfType('function_declaration')) {
    const name = func?.childForFieldName('name')?.text;
    const body = func?.childForFieldName('body')?.text ?? '';
    if (name === undefined || func === null || !/os\.(Getenv|LookupEnv)\(/.test(body)) continue;
    const params: { readonly name: string; readonly type: string }[] = [];
    for (const param of func.childForFieldName('parameters')?.namedChildren ?? []) {
      const type = param?.childForFieldName('type')?.text ?? '';
      for (const id of param?.childrenForFieldName('name') ?? [])
        if (id !== null) params.push({ name: id.text, type });
    }
    const target = params.findIndex((p) => p.type === '*string' && body.includes(`*${p.name} =`));
    const key = params.findIndex(
      (p) => p.type === 'string' && new RegExp(`os\\.(Getenv|LookupEnv)\\(${p.name}\\)`).test(body),
    );
    if (target >= 0 && key >= 0) setters.set(name, { target, key });
  }
  return setters;
}

/** Field name → what every assignment of the file gives it (null when two disagree). */
export function collectFieldValues(root: Node, fileScope: GoScope, read: PartsReader): void {
  const { fieldValues } = fileScope.file;
  const record = (field: string, parts: UrlPart[]): void => {
    const previous = fieldValues.get(field);
    const same = previous !== undefined && JSON.stringify(previous) === JSON.stringify(parts);
    fieldValues.set(field, previous === undefined || same ? parts : null);
  };
  const setters = envSetters(root);
  for (const node of root.descendantsOfType(['assignment_statement', 'keyed_element', 'call_expression'])) {
    if (node === null) continue;
    if (node.type === 'assignment_statement') {
      const left = node.childForFieldName('left')?.namedChildren ?? [];
      const right = node.childForFieldName('right')?.namedChildren ?? [];
      left.forEach((target, i) => {
        const value = right.length === left.length ? right[i] : undefined;
        const field =
          target?.type === 'selector_expression' ? target.childForFieldName('field')?.text : undefined;
        if (field !== undefined && value !== null && value !== undefined)
          record(field, read(value, fileScope));
      });
    } else if (node.type === 'keyed_element') {
      const [key, value] = node.namedChildren;
      const field = key === null || key === undefined ? undefined : unwrapParens(key);
      if (field?.type === 'field_identifier' || field?.type === 'identifier')
        if (value !== null && value !== undefined) record(field.text, read(value, fileScope));
    } else {
      const setter = setters.get(node.childForFieldName('function')?.text ?? '');
      if (setter === undefined) continue;
      const args = argumentsOf(node);
      const target = args[setter.target];
      const key = args[setter.key];
      const field = target?.type === 'unary_expression' ? target.childForFieldName('operand') : undefined;
      const name = field?.type === 'selector_expression' ? field.childForFieldName('field')?.text : undefined;
      const env = key === undefined ? undefined : read(key, fileScope);
      const text = env?.length === 1 && env[0]?.kind === 'text' ? env[0].text : undefined;
      if (name !== undefined && text !== undefined)
        record(name, [{ kind: 'hole', name, base: `env:${text}` }]);
    }
  }
}
