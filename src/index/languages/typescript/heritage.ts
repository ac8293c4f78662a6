/**
 * What a TypeScript/JavaScript class or interface extends and implements, as written without type
 * arguments (`Base`, `pkg.Repo`): the supertypes that dispatch through an interface and
 * `code implementations` follow. A mixin call (`extends Mixin(Base)`) names no type and is left out.
 */
import type { Node } from 'web-tree-sitter';
import { named } from './declaration-text.js';

/** `class A extends B implements C, pkg.D<T>` → `B`, `C`, `pkg.D`. */
export function classSupertypes(node: Node): string[] {
  const heritage = named(node).find((c) => c.type === 'class_heritage');
  if (heritage === undefined) return [];
  const out: string[] = [];
  for (const clause of named(heritage)) {
    const types =
      clause.type === 'extends_clause'
        ? clause.childrenForFieldName('value')
        : clause.type === 'implements_clause'
          ? named(clause)
          : [];
    for (const type of types) {
      const name = typeText(type);
      if (name !== undefined) out.push(name);
    }
  }
  return out;
}

/** `interface A extends B, pkg.C<T>` → `B`, `pkg.C`. */
export function interfaceSupertypes(node: Node): string[] {
  const clause = named(node).find((c) => c.type === 'extends_type_clause');
  if (clause === undefined) return [];
  return clause
    .childrenForFieldName('type')
    .map((type) => typeText(type))
    .filter((name): name is string => name !== undefined);
}

function typeText(node: Node | null): string | undefined {
  switch (node?.type) {
    case 'identifier':
    case 'type_identifier':
    case 'nested_type_identifier':
    case 'member_expression':
      return node.text.replace(/\s+/g, '');
    case 'generic_type':
      return typeText(node.childForFieldName('name'));
    default:
      return undefined;
  }
}
