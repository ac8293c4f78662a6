/**
 * The declared types of a Scala file's names, for typing call receivers: class parameters, `val`/`var`
 * members and parameterless `def`s, method and lambda parameters, locals (`val r: Repo`, `val r = new Repo`, or `val r = Repo(…)` of
 * a class of this file); classes, objects and traits with the first type they extend; type parameters.
 */
import type { Node } from 'web-tree-sitter';
import type { DeclarationReader } from '../shared/jvm/declared-calls.js';
import type { TypedNames } from '../shared/jvm/typed-names.js';

const DECLARATIONS: readonly string[] = [
  'class_definition',
  'object_definition',
  'trait_definition',
  'enum_definition',
  'class_parameter',
  'parameter',
  'binding',
  'val_definition',
  'var_definition',
  'val_declaration',
  'var_declaration',
  'lambda_expression',
  'type_parameters',
  'function_declaration',
  'function_definition',
];

/** A value initialised by calling a capitalised name, typed once the file's classes are all known. */
interface Applied {
  readonly name: string;
  readonly type: string;
  readonly scope: Node;
  readonly member: boolean;
  readonly from: number;
}

/** Reads the file's declarations into `names`. */
export function scalaDeclarations(names: TypedNames): DeclarationReader {
  const applied: Applied[] = [];
  return {
    nodeTypes: DECLARATIONS,
    read: (node) => declare(node, names, applied),
    finish: () => {
      for (const value of applied) {
        const known = names.classNames.has(value.type) ? value.type : undefined;
        names.add(value.name, known, value.scope, value.member, value.from);
      }
    },
  };
}

/** A type as written without type arguments; undefined for function, tuple and other compound types. */
function typeText(node: Node | null | undefined): string | undefined {
  if (node === null || node === undefined) return undefined;
  if (node.type === 'generic_type') return typeText(node.childForFieldName('type'));
  return node.type === 'type_identifier' || node.type === 'stable_type_identifier' ? node.text : undefined;
}

function declare(node: Node, names: TypedNames, applied: Applied[]): void {
  switch (node.type) {
    case 'class_definition':
    case 'object_definition':
    case 'trait_definition':
    case 'enum_definition': {
      const name = node.childForFieldName('name')?.text;
      const extended = node.childForFieldName('extend')?.childForFieldName('type');
      if (name !== undefined) names.addClass(name, node, typeText(extended));
      return;
    }
    case 'class_parameter':
    case 'parameter':
    case 'binding': {
      // A class parameter is a member of its class; a method's or a lambda's is local to it.
      const owner = node.parent?.parent;
      const name = node.childForFieldName('name')?.text;
      if (owner !== null && owner !== undefined && name !== undefined)
        names.add(name, typeText(node.childForFieldName('type')), owner, node.type === 'class_parameter');
      return;
    }
    case 'lambda_expression': {
      const parameter = node.childForFieldName('parameters');
      if (parameter?.type === 'identifier') names.add(parameter.text, undefined, node, false);
      return;
    }
    case 'function_declaration':
    case 'function_definition':
      accessor(node, names);
      return;
    case 'type_parameters':
      for (const name of node.childrenForFieldName('name'))
        if (name !== null) names.typeParameters.add(name.text);
      return;
    default:
      value(node, names, applied);
  }
}

/** `val x: T = …`, `val x = new T(…)`, `val x = T(…)`: a member of a template, else local from here on. */
function value(node: Node, names: TypedNames, applied: Applied[]): void {
  const pattern = node.childForFieldName('pattern') ?? node.childForFieldName('name');
  const container = node.parent;
  if (pattern?.type !== 'identifier' || container === null) return;
  const member = container.type === 'template_body';
  const from = member || container.type === 'compilation_unit' ? container.startIndex : node.startIndex;
  const declared = typeText(node.childForFieldName('type'));
  const init = node.childForFieldName('value');
  if (declared === undefined && init?.type === 'call_expression') {
    const callee = init.childForFieldName('function');
    if (callee?.type === 'identifier') {
      applied.push({ name: pattern.text, type: callee.text, scope: container, member, from });
      return;
    }
  }
  const created = init?.type === 'instance_expression' ? typeText(init.namedChildren[0]) : undefined;
  names.add(pattern.text, declared ?? created, container, member, from);
}

/** `def config: Config` in a class or trait: read like a field of that type (`config.getString(…)`). */
function accessor(node: Node, names: TypedNames): void {
  const name = node.childForFieldName('name')?.text;
  const container = node.parent;
  if (
    name === undefined ||
    container?.type !== 'template_body' ||
    node.childForFieldName('parameters') !== null
  )
    return;
  names.add(name, typeText(node.childForFieldName('return_type')), container, true);
}
