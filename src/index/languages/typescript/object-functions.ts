/**
 * The functions an object literal holds (`{ encode() {…}, get: async () => … }`), seen through the wrappers
 * that leave it the same object: `{…} as const`, `{…} satisfies T`, `({…})`.
 */
import type { Node } from 'web-tree-sitter';
import { stringValue } from './values.js';
import { named } from './declaration-text.js';
import { FUNCTION_VALUES } from './walk.js';

const WRAPPED_OBJECT = new Set(['as_expression', 'satisfies_expression', 'parenthesized_expression']);

export interface ObjectFunction {
  readonly name: string;
  /** The method or `key: value` pair: the declaration's span. */
  readonly member: Node;
  readonly body: Node | null;
}

export function objectFunctions(value: Node): ObjectFunction[] {
  let object: Node | null = value;
  while (object !== null && WRAPPED_OBJECT.has(object.type)) object = object.firstNamedChild;
  if (object?.type !== 'object') return [];
  const out: ObjectFunction[] = [];
  for (const member of named(object)) {
    const fn = member.type === 'pair' ? member.childForFieldName('value') : member;
    if (fn === null || (member.type !== 'method_definition' && !FUNCTION_VALUES.has(fn.type))) continue;
    const key = member.childForFieldName(member.type === 'pair' ? 'key' : 'name');
    if (key === null || key.type === 'computed_property_name') continue;
    const name = key.type === 'string' ? stringValue(key) : key.text;
    if (name === undefined || name === '') continue;
    out.push({ name, member, body: fn.childForFieldName('body') });
  }
  return out;
}
