/**
 * The types a TypeScript/JavaScript file proves for the receivers of its calls: a declared type
 * (`repo: Repo`, `private readonly repo: Repo` in a constructor), a constructed value (`= new Repo()`), or
 * a class field of either kind. The walk records them on its bindings and notes, at each member call, what
 * the receiver was bound to there, so that the call facts read after the walk see the scope of the call.
 */
import type { Node } from 'web-tree-sitter';
import { bareTypeName } from '../shared/call-sites.js';
import type { CallNote, ClassState, Entry, FileState } from './model.js';

/** Type words that name no declaration a call could bind to. */
const OPAQUE_TYPES = new Set(['any', 'unknown', 'never', 'void', 'object', 'null', 'undefined']);

/** The type a `: T` annotation names: `Repo`, `db.Store`, `Repo<T>` → `Repo`, `Repo | undefined` → `Repo`. */
export function declaredType(annotation: Node | null | undefined): string | undefined {
  const type = annotation?.type === 'type_annotation' ? annotation.firstNamedChild : annotation;
  if (type === null || type === undefined) return undefined;
  switch (type.type) {
    case 'type_identifier':
    case 'nested_type_identifier':
    case 'predefined_type':
      return OPAQUE_TYPES.has(type.text) ? undefined : type.text;
    case 'generic_type':
      return declaredType(type.childForFieldName('name'));
    case 'parenthesized_type':
      return declaredType(type.firstNamedChild);
    case 'union_type': {
      // `Repo | null`: the one member that names a type; none when several do.
      const members = type.namedChildren
        .filter((m): m is Node => m !== null)
        .map((m) => declaredType(m))
        .filter((m): m is string => m !== undefined);
      return members.length === 1 ? members[0] : undefined;
    }
    default:
      return undefined;
  }
}

/** The class a value is an instance of when the expression says so: `new Repo()`, `x as Repo`, `await new …`. */
export function constructedType(value: Node | null | undefined): string | undefined {
  if (value === null || value === undefined) return undefined;
  switch (value.type) {
    case 'new_expression': {
      const ctor = value.childForFieldName('constructor');
      return ctor?.type === 'identifier' || ctor?.type === 'member_expression'
        ? bareTypeName(ctor.text)
        : undefined;
    }
    case 'as_expression':
    case 'satisfies_expression':
      return declaredType(value.namedChildren[1]);
    case 'parenthesized_expression':
    case 'await_expression':
    case 'non_null_expression':
      return constructedType(value.firstNamedChild);
    default:
      return undefined;
  }
}

/** A binding's type: its annotation, else the class its initialiser constructs. */
export function bindingType(annotation: Node | null, value: Node | null): string | undefined {
  return declaredType(annotation) ?? constructedType(value);
}

/**
 * The type of a value as the walk sees it where it is read: a constructed instance, or a copy of a typed
 * local, module variable or field (`const client = this.client`).
 */
export function valueType(
  value: Node | null,
  state: FileState,
  cls: number | undefined,
  locals: (name: string) => Entry | undefined,
): string | undefined {
  if (value?.type === 'identifier') return (locals(value.text) ?? state.moduleVars.get(value.text))?.type;
  if (isThisMember(value)) return fieldType(state, cls, value?.childForFieldName('property')?.text ?? '');
  return constructedType(value);
}

/** The type of `this.<field>` in class `cls`, looked up through its same-file base classes. */
export function fieldType(state: FileState, cls: number | undefined, field: string): string | undefined {
  const seen = new Set<number>();
  let current: ClassState | undefined = cls === undefined ? undefined : state.classes[cls];
  while (current !== undefined && !seen.has(current.symbol)) {
    seen.add(current.symbol);
    const type = current.fields.get(field)?.type;
    if (type !== undefined) return type;
    const base = current.extendsName === undefined ? undefined : state.classByName.get(current.extendsName);
    current = base === undefined ? undefined : state.classes[base];
  }
  return undefined;
}

/**
 * Notes, at a call, what the walk knows there and will have forgotten by the end: that the callee or the
 * receiver is a local (with its type), or the class of a `this.`/`super.` receiver. Other calls need no note.
 */
export function noteCall(
  state: FileState,
  node: Node,
  cls: number | undefined,
  locals: (name: string) => Entry | undefined,
): void {
  const callee = node.childForFieldName('function');
  if (callee?.type === 'identifier') {
    // A parameter or local called (`callback()`, `next()`) is no declaration of the file.
    if (locals(callee.text) !== undefined) state.callNotes.set(node.id, { local: null });
    return;
  }
  if (callee?.type !== 'member_expression') return;
  const object = callee.childForFieldName('object');
  let note: CallNote | undefined;
  if (object?.type === 'identifier') {
    const entry = locals(object.text);
    if (entry !== undefined) note = { local: entry.type ?? null };
  } else if (
    cls !== undefined &&
    (object?.type === 'this' || object?.type === 'super' || isThisMember(object))
  )
    note = { cls };
  if (note !== undefined) state.callNotes.set(node.id, note);
}

/** `this.repo`: a field of the enclosing class. */
export function isThisMember(node: Node | null | undefined): boolean {
  return node?.type === 'member_expression' && node.childForFieldName('object')?.type === 'this';
}

/** The names a destructuring pattern binds: `{ a, b: c, d = 1, ...e }` → `a`, `c`, `d`, `e`; `[x, [y]]` → `x`, `y`. */
export function boundNames(pattern: Node | null | undefined): string[] {
  switch (pattern?.type) {
    case undefined:
      return [];
    case 'identifier':
    case 'shorthand_property_identifier_pattern':
      return [pattern.text];
    case 'pair_pattern':
      return boundNames(pattern.childForFieldName('value'));
    case 'object_assignment_pattern':
    case 'assignment_pattern':
      return boundNames(pattern.childForFieldName('left'));
    case 'object_pattern':
    case 'array_pattern':
    case 'rest_pattern':
      return pattern.namedChildren.flatMap((child) => boundNames(child));
    default:
      return [];
  }
}
