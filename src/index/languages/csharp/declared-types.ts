/**
 * The declared types of a C# file's names, for typing call receivers: fields, properties and primary
 * constructor parameters (members of their type), method, constructor, local function and lambda
 * parameters, locals (`var x = new T()` takes `T`), `using`, `for`, `foreach` and `catch` variables,
 * pattern variables (`o is Foo f`); the file's types with the class each extends; type parameters; and
 * `using R = A.B.C;` aliases.
 */
import type { Node } from 'web-tree-sitter';
import { bareTypeName } from '../shared/call-sites.js';
import type { DeclarationReader } from '../shared/jvm/declared-calls.js';
import { TypedNames } from '../shared/jvm/typed-names.js';
import { usingSource } from './decl.js';
import { TYPE_DECLARATIONS } from './scope.js';
import { kids } from './values.js';

const DECLARATIONS: readonly string[] = [
  ...TYPE_DECLARATIONS,
  'variable_declaration',
  'property_declaration',
  'parameter',
  'implicit_parameter',
  'foreach_statement',
  'catch_declaration',
  'declaration_pattern',
  'recursive_pattern',
  'type_parameter',
  'using_directive',
];

export interface CsharpTypes {
  readonly names: TypedNames;
  /** `using R = A.B.C;`: `R` → `A.B.C`. */
  readonly aliases: Map<string, string>;
}

export const newCsharpTypes = (): CsharpTypes => ({ names: new TypedNames(), aliases: new Map() });

/** Reads the file's declarations into `types`. */
export function csharpDeclarations(types: CsharpTypes): DeclarationReader {
  return { nodeTypes: DECLARATIONS, read: (node) => declare(node, types) };
}

/** A declared type as written without type arguments or `?`; undefined for `var`, built-in, array and tuple types. */
export function csTypeText(node: Node | null | undefined): string | undefined {
  if (node === null || node === undefined) return undefined;
  switch (node.type) {
    case 'identifier':
    case 'qualified_name':
    case 'generic_name':
      return bareTypeName(node.text).replace(/\s+/g, '');
    case 'nullable_type':
      return csTypeText(node.childForFieldName('type') ?? kids(node)[0]);
    default:
      return undefined;
  }
}

function declare(node: Node, { names, aliases }: CsharpTypes): void {
  if (TYPE_DECLARATIONS.has(node.type)) {
    const name = node.childForFieldName('name')?.text;
    if (name !== undefined)
      names.addClass(name, node, node.type === 'interface_declaration' ? undefined : baseClass(node));
    return;
  }
  switch (node.type) {
    case 'variable_declaration':
      variables(node, names);
      return;
    case 'property_declaration':
      named(node, node.parent, names, true);
      return;
    case 'parameter': {
      const owner = node.parent?.parent;
      if (owner !== null && owner !== undefined) named(node, owner, names, TYPE_DECLARATIONS.has(owner.type));
      return;
    }
    case 'implicit_parameter':
      if (node.parent !== null) names.add(node.text, undefined, node.parent, false);
      return;
    case 'foreach_statement': {
      const left = node.childForFieldName('left');
      if (left?.type === 'identifier')
        names.add(left.text, csTypeText(node.childForFieldName('type')), node, false);
      return;
    }
    case 'catch_declaration':
      named(node, node.parent, names, false);
      return;
    case 'declaration_pattern':
    case 'recursive_pattern':
      patternVariable(node, names);
      return;
    case 'type_parameter': {
      const name = node.childForFieldName('name') ?? kids(node).find((child) => child.type === 'identifier');
      if (name !== undefined && name !== null) names.typeParameters.add(name.text);
      return;
    }
    case 'using_directive': {
      const alias = node.childForFieldName('name')?.text;
      const source = usingSource(node);
      if (alias !== undefined && source !== undefined) aliases.set(alias, source);
      return;
    }
  }
}

/** The types a class, struct, record or interface lists after `:`, as written without type arguments. */
export function csSupertypes(node: Node): string[] {
  if (node.type === 'enum_declaration') return [];
  return kids(kids(node).find((child) => child.type === 'base_list')).flatMap((base) => {
    const name = csTypeText(base.type === 'primary_constructor_base_type' ? kids(base)[0] : base);
    return name === undefined ? [] : [name];
  });
}

/** The first base that is no interface by the `IName` convention: what `base.F()` calls. */
function baseClass(node: Node): string | undefined {
  const name = csSupertypes(node)[0];
  return name === undefined || /^I[A-Z]/.test(name.slice(name.lastIndexOf('.') + 1)) ? undefined : name;
}

/** A declaration with `type` and `name` fields. */
function named(node: Node, scope: Node | null, names: TypedNames, member: boolean): void {
  const name = node.childForFieldName('name')?.text;
  if (name !== undefined && scope !== null)
    names.add(name, csTypeText(node.childForFieldName('type')), scope, member);
}

/** Fields (members of their type), locals (from their statement on) and `using`/`for`/`fixed` variables. */
function variables(node: Node, names: TypedNames): void {
  const holder = node.parent;
  if (holder === null) return;
  const member = holder.type === 'field_declaration' || holder.type === 'event_field_declaration';
  const local = holder.type === 'local_declaration_statement';
  const scope = member || local ? holder.parent : holder;
  if (scope === null) return;
  const declared = csTypeText(node.childForFieldName('type'));
  for (const declarator of kids(node)) {
    if (declarator.type !== 'variable_declarator') continue;
    const name = declarator.childForFieldName('name')?.text;
    if (name === undefined) continue;
    const value = kids(declarator).at(-1);
    const created =
      value?.type === 'object_creation_expression' ? csTypeText(value.childForFieldName('type')) : undefined;
    names.add(name, declared ?? created, scope, member, local ? holder.startIndex : scope.startIndex);
  }
}

/** `o is Foo f`: `f` is a `Foo` from there to the end of the enclosing block. */
function patternVariable(node: Node, names: TypedNames): void {
  const name = node.childForFieldName('name');
  if (name === null || name.type !== 'identifier') return;
  let block = node.parent;
  while (block !== null && block.type !== 'block') block = block.parent;
  if (block !== null)
    names.add(name.text, csTypeText(node.childForFieldName('type')), block, false, node.startIndex);
}
