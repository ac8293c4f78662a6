/**
 * The declared types of a Java file's names, for typing call receivers: fields and record components
 * (members of their class), parameters of methods, constructors and lambdas, locals (`var x = new T()`
 * takes `T`), enhanced-for, catch and try-with-resources variables, `instanceof` pattern variables; the
 * classes with the class each extends; type parameters.
 */
import type { Node } from 'web-tree-sitter';
import type { DeclarationReader } from '../shared/jvm/declared-calls.js';
import type { TypedNames } from '../shared/jvm/typed-names.js';

export const JAVA_DECLARATION_TYPES: readonly string[] = [
  'class_declaration',
  'interface_declaration',
  'enum_declaration',
  'record_declaration',
  'field_declaration',
  'constant_declaration',
  'formal_parameter',
  'spread_parameter',
  'local_variable_declaration',
  'enhanced_for_statement',
  'catch_formal_parameter',
  'resource',
  'lambda_expression',
  'instanceof_expression',
  'type_parameter',
];

/** Reference types a receiver can have; primitives and arrays have no methods of the workspace. */
const REFERENCE_TYPES: ReadonlySet<string> = new Set([
  'type_identifier',
  'scoped_type_identifier',
  'generic_type',
]);

/** A declared type as written without annotations or type arguments; undefined for `var`, primitives, arrays. */
function typeText(node: Node | null | undefined): string | undefined {
  if (node === null || node === undefined || !REFERENCE_TYPES.has(node.type) || node.text === 'var')
    return undefined;
  return node.text.replace(/@[\w.]+(?:\([^)]*\))?\s*/g, '').replace(/\s+/g, '');
}

/** Reads the file's declarations into `names`. */
export function javaDeclarations(names: TypedNames): DeclarationReader {
  return { nodeTypes: JAVA_DECLARATION_TYPES, read: (node) => declare(node, names) };
}

function declare(node: Node, names: TypedNames): void {
  switch (node.type) {
    case 'class_declaration':
    case 'interface_declaration':
    case 'enum_declaration':
    case 'record_declaration': {
      const name = node.childForFieldName('name')?.text;
      const superclass = node.childForFieldName('superclass')?.namedChildren[0];
      if (name !== undefined) names.addClass(name, node, typeText(superclass));
      return;
    }
    case 'field_declaration':
    case 'constant_declaration':
      declarators(node, names, node.parent ?? node, true, undefined);
      return;
    case 'local_variable_declaration':
      // A local is visible from its declaration to the end of its block (or of its `for`).
      declarators(node, names, node.parent ?? node, false, node.startIndex);
      return;
    case 'formal_parameter':
    case 'spread_parameter':
      parameter(node, names);
      return;
    case 'enhanced_for_statement':
    case 'resource':
      named(
        node,
        node.childForFieldName('type'),
        node.type === 'resource' ? node.parent?.parent : node,
        names,
      );
      return;
    case 'catch_formal_parameter':
      named(
        node,
        node.namedChildren.find((c) => c?.type === 'catch_type')?.namedChildren[0],
        node.parent,
        names,
      );
      return;
    case 'lambda_expression':
      lambdaParameters(node, names);
      return;
    case 'instanceof_expression':
      patternVariable(node, names);
      return;
    case 'type_parameter': {
      const name = node.namedChildren[0];
      if (name?.type === 'type_identifier') names.typeParameters.add(name.text);
      return;
    }
  }
}

/** `T a = …, b;`: each declarator's name with the declaration's type (`var`: the constructed type). */
function declarators(
  node: Node,
  names: TypedNames,
  scope: Node,
  member: boolean,
  from: number | undefined,
): void {
  const declared = typeText(node.childForFieldName('type'));
  for (const declarator of node.childrenForFieldName('declarator')) {
    const name = declarator?.childForFieldName('name')?.text;
    if (declarator === null || name === undefined) continue;
    const value = declarator.childForFieldName('value');
    const type =
      declared ??
      (value?.type === 'object_creation_expression' ? typeText(value.childForFieldName('type')) : undefined);
    names.add(name, type, scope, member, from);
  }
}

/** A parameter of a method, constructor or lambda; a record's components are members of the record. */
function parameter(node: Node, names: TypedNames): void {
  const owner = node.parent?.parent;
  if (owner === null || owner === undefined) return;
  const nameNode =
    node.childForFieldName('name') ??
    node.namedChildren.find((c) => c?.type === 'variable_declarator')?.childForFieldName('name');
  const type =
    node.childForFieldName('type') ??
    node.namedChildren.find((c) => c !== null && REFERENCE_TYPES.has(c.type));
  if (nameNode !== null && nameNode !== undefined)
    names.add(nameNode.text, typeText(type), owner, owner.type === 'record_declaration');
}

function named(
  node: Node,
  type: Node | null | undefined,
  scope: Node | null | undefined,
  names: TypedNames,
): void {
  const name = node.childForFieldName('name')?.text;
  if (name !== undefined && scope !== null && scope !== undefined)
    names.add(name, typeText(type), scope, false);
}

/** `x -> …`, `(a, b) -> …`: untyped parameters hide outer names of the same spelling. */
function lambdaParameters(node: Node, names: TypedNames): void {
  const parameters = node.childForFieldName('parameters');
  if (parameters?.type === 'identifier') names.add(parameters.text, undefined, node, false);
  else if (parameters?.type === 'inferred_parameters') {
    for (const name of parameters.namedChildren)
      if (name?.type === 'identifier') names.add(name.text, undefined, node, false);
  }
}

/** `o instanceof Foo f`: `f` is a `Foo` from there to the end of the enclosing block. */
function patternVariable(node: Node, names: TypedNames): void {
  const name = node.childForFieldName('name')?.text;
  if (name === undefined) return;
  let block = node.parent;
  while (block !== null && block.type !== 'block' && block.type !== 'constructor_body') block = block.parent;
  if (block !== null)
    names.add(name, typeText(node.childForFieldName('right')), block, false, node.startIndex);
}
