/**
 * The declared types of a Kotlin file's names, for typing call receivers: primary-constructor parameters
 * and class properties (members), function and lambda parameters, locals (`val r: Repo`, or `val r = Repo()`
 * when `Repo` is a class of this file or imported), `for` variables; classes and objects with the class each
 * extends; type parameters; the lambdas of `apply`/`run`/`with`, where a bare call is made on their
 * object rather than on `this`; and annotations, whose arguments (`@Filter(Type(…))`) call nothing.
 */
import type { Node } from 'web-tree-sitter';
import type { DeclarationReader } from '../shared/jvm/declared-calls.js';
import { TypedNames } from '../shared/jvm/typed-names.js';
import { looksLikeType } from '../shared/jvm/call-receivers.js';
import { plainType } from './model.js';

export const KOTLIN_DECLARATION_TYPES: readonly string[] = [
  'class_declaration',
  'object_declaration',
  'companion_object',
  'class_parameter',
  'parameter',
  'variable_declaration',
  'type_parameter',
  'annotated_lambda',
  'annotation',
];

/** Scope functions whose lambda runs with their object as `this`. */
const THIS_SCOPE: ReadonlySet<string> = new Set(['apply', 'run', 'with']);

/** A source range. */
export interface Span {
  readonly start: number;
  readonly end: number;
}

export interface KotlinTypes {
  readonly names: TypedNames;
  /** Lambdas whose `this` is another object (`x.apply { … }`). */
  readonly otherThis: Span[];
  readonly annotations: Span[];
}

/** Whether `offset` is inside one of `spans`. */
export const within = (spans: readonly Span[], offset: number): boolean =>
  spans.some((span) => span.start <= offset && offset < span.end);

/** A local whose type is the class it is initialised with, once the file's classes are all known. */
interface Constructed {
  readonly name: string;
  readonly type: string;
  readonly scope: Node;
  readonly member: boolean;
  readonly from: number;
}

export const newKotlinTypes = (): KotlinTypes => ({
  names: new TypedNames(),
  otherThis: [],
  annotations: [],
});

/** Reads the file's declarations into `types`; `imports` maps imported names to their sources. */
export function kotlinDeclarations(
  types: KotlinTypes,
  imports: ReadonlyMap<string, string>,
): DeclarationReader {
  const constructed: Constructed[] = [];
  return {
    nodeTypes: KOTLIN_DECLARATION_TYPES,
    read: (node) => declare(node, types, constructed),
    finish: () => {
      for (const local of constructed) {
        // `Repo()` or `Outer.Inner()`: the outer name must be a class of the file or an imported type.
        const first = local.type.split('.')[0] ?? '';
        const known = types.names.classNames.has(first) || (imports.has(first) && looksLikeType(first));
        types.names.add(local.name, known ? local.type : undefined, local.scope, local.member, local.from);
      }
    },
  };
}

const typeChild = (node: Node): Node | undefined =>
  node.namedChildren.find(
    (c): c is Node => c !== null && (c.type === 'user_type' || c.type === 'nullable_type'),
  );

const typeOf = (node: Node): string | undefined => plainType(typeChild(node));

function declare(node: Node, types: KotlinTypes, constructed: Constructed[]): void {
  const { names } = types;
  switch (node.type) {
    case 'class_declaration':
    case 'object_declaration':
    case 'companion_object':
      names.addClass(node.childForFieldName('name')?.text ?? 'Companion', node, superclassOf(node));
      return;
    case 'class_parameter': {
      const owner = node.parent?.parent?.parent;
      const name = node.namedChildren.find((c) => c?.type === 'identifier')?.text;
      if (owner !== null && owner !== undefined && name !== undefined)
        names.add(name, typeOf(node), owner, true);
      return;
    }
    case 'parameter': {
      const owner = node.parent?.parent;
      const name = node.namedChildren.find((c) => c?.type === 'identifier')?.text;
      if (owner !== null && owner !== undefined && name !== undefined)
        names.add(name, typeOf(node), owner, false);
      return;
    }
    case 'variable_declaration':
      variable(node, names, constructed);
      return;
    case 'type_parameter': {
      const name = node.namedChildren.find((c) => c?.type === 'identifier')?.text;
      if (name !== undefined) names.typeParameters.add(name);
      return;
    }
    case 'annotated_lambda':
      if (hasOtherThis(node)) types.otherThis.push({ start: node.startIndex, end: node.endIndex });
      return;
    case 'annotation':
      types.annotations.push({ start: node.startIndex, end: node.endIndex });
      return;
  }
}

/** The supertype called as a constructor (`: Base(), I`): the class it extends. */
function superclassOf(node: Node): string | undefined {
  const specifiers = node.namedChildren.find((c) => c?.type === 'delegation_specifiers');
  for (const specifier of specifiers?.namedChildren ?? []) {
    const invocation = specifier?.firstNamedChild;
    if (invocation?.type === 'constructor_invocation')
      return plainType(invocation.firstNamedChild ?? undefined);
  }
  return undefined;
}

/** A property (member, top-level or local), a lambda parameter, a `for` variable or a destructured name. */
function variable(node: Node, names: TypedNames, constructed: Constructed[]): void {
  const name = node.namedChildren.find((c) => c?.type === 'identifier')?.text;
  const parent = node.parent;
  const destructured = parent?.type === 'multi_variable_declaration';
  const holder = destructured ? parent.parent : parent;
  if (name === undefined || holder === null || holder === undefined) return;
  const declared = typeOf(node);
  if (holder.type === 'property_declaration') {
    const container = holder.parent ?? holder;
    const member = container.type === 'class_body';
    const local = !member && container.type !== 'source_file';
    const from = local ? holder.startIndex : container.startIndex;
    const type = declared === undefined && !destructured ? constructedClass(holder) : undefined;
    if (type !== undefined) constructed.push({ name, type, scope: container, member, from });
    else names.add(name, declared, container, member, from);
  } else if (holder.type === 'lambda_parameters' && holder.parent !== null) {
    names.add(name, declared, holder.parent, false);
  } else if (holder.type === 'for_statement') {
    names.add(name, declared, holder, false);
  }
}

/** `val r = Repo(…)`, `Outer.Inner(…)`: the capitalised name called, checked against the classes later. */
function constructedClass(property: Node): string | undefined {
  const value = property.namedChildren.find((c) => c?.type === 'call_expression');
  const callee = value?.firstNamedChild;
  if (callee?.type !== 'identifier' && callee?.type !== 'navigation_expression') return undefined;
  const text = callee.text.replace(/\s+/g, '');
  return /^[\w.]+$/.test(text) && looksLikeType(text.slice(text.lastIndexOf('.') + 1)) ? text : undefined;
}

/** `x.apply { … }`, `x.run { … }`, `with(x) { … }`. */
function hasOtherThis(lambda: Node): boolean {
  const call = lambda.parent;
  const callee = call?.type === 'call_expression' ? call.firstNamedChild : null;
  if (callee?.type === 'navigation_expression') return THIS_SCOPE.has(callee.lastNamedChild?.text ?? '');
  return callee?.type === 'call_expression' && callee.firstNamedChild?.text === 'with';
}
