/**
 * What a Rust file proves about the types of the values its methods are called on: typed parameters
 * (closures' included), `let x: T`, `let x = T { … }`, `let x = T::new(…)` (and `default`), the fields of
 * same-file structs, with `&`, `Box`, `Rc` and `Arc` looked through (method calls dereference them) and
 * `dyn Trait`/`impl Trait` read as the trait. `use` aliases are undone: the type is named as declared.
 */
import type { Node } from 'web-tree-sitter';
import type { BoundNames } from '../shared/native-call-types.js';

/** File-wide typing: `use`d names and the fields of the file's structs (struct → field → type). */
export interface RustTypes {
  /** Name bound by a `use` → its full path (`Store` → `crate::db::Repo`). */
  readonly uses: ReadonlyMap<string, string>;
  readonly fields: ReadonlyMap<string, ReadonlyMap<string, string>>;
}

/** One function: the names bound so far, the type `self` and `Self` are (an impl's, not a trait's). */
export interface RustFunction {
  readonly names: BoundNames;
  readonly selfType?: string;
}

/** Wrappers a method call sees through (auto-deref), so `Arc<Repo>` is called as a `Repo`. */
const DEREF_WRAPPERS = new Set(['Box', 'Rc', 'Arc']);

/** Constructors by convention: `T::new(…)` and `T::default()` give a `T`. */
const CONSTRUCTORS = new Set(['new', 'default']);

/** A type name as declared: the last segment of a path, a `use` alias undone. */
export function declaredName(written: string, types: RustTypes): string {
  const simple = written.split('::').pop() ?? written;
  return types.uses.get(simple)?.split('::').pop() ?? simple;
}

/** The type a value of this written type is called as: `&mut Arc<db::Repo>` → `Repo`; `dyn Store` → `Store`. */
export function rustCallType(type: Node | null, types: RustTypes, selfType?: string): string | undefined {
  let current = type;
  for (let depth = 0; current !== null && depth < 6; depth++) {
    switch (current.type) {
      case 'type_identifier':
        return current.text === 'Self' ? selfType : declaredName(current.text, types);
      case 'scoped_type_identifier':
        return declaredName(current.childForFieldName('name')?.text ?? '', types) || undefined;
      case 'reference_type':
        current = current.childForFieldName('type');
        break;
      case 'dynamic_type':
      case 'abstract_type':
        current = current.childForFieldName('trait');
        break;
      case 'generic_type': {
        const base = current.childForFieldName('type');
        const wrapper = base?.type === 'type_identifier' && DEREF_WRAPPERS.has(base.text);
        current = wrapper ? (current.childForFieldName('type_arguments')?.namedChild(0) ?? null) : base;
        break;
      }
      default:
        return undefined;
    }
  }
  return undefined;
}

/** Struct → field → type, from the bodies of the file's structs. */
export function rustFieldTypes(
  structs: readonly { readonly name: string; readonly body: Node }[],
  uses: ReadonlyMap<string, string>,
): RustTypes {
  const fields = new Map<string, Map<string, string>>();
  const types: RustTypes = { uses, fields };
  for (const struct of structs) {
    const own = new Map<string, string>();
    for (const field of struct.body.namedChildren) {
      if (field?.type !== 'field_declaration') continue;
      const name = field.childForFieldName('name')?.text;
      const type = rustCallType(field.childForFieldName('type'), types, struct.name);
      if (name !== undefined && type !== undefined) own.set(name, type);
    }
    fields.set(struct.name, own);
  }
  return types;
}

/** Nodes that bind names in a function, met by the call pass before the uses below them. */
export const RUST_BINDINGS: readonly string[] = [
  'parameter',
  'closure_parameters',
  'let_declaration',
  'for_expression',
  'let_condition',
  'match_pattern',
];

/** Records the names one of the `RUST_BINDINGS` nodes declares. */
export function bindRustNames(node: Node, fn: RustFunction, types: RustTypes): void {
  switch (node.type) {
    case 'parameter':
      return bindPattern(node.childForFieldName('pattern'), fn.names, () =>
        rustCallType(node.childForFieldName('type'), types, fn.selfType),
      );
    case 'closure_parameters':
      // Typed closure parameters are `parameter` nodes of their own; bare ones are identifiers here.
      for (const param of node.namedChildren)
        if (param?.type === 'identifier') fn.names.bind(param.text, undefined);
      return;
    case 'let_declaration': {
      const type = node.childForFieldName('type');
      const value = node.childForFieldName('value');
      return bindPattern(node.childForFieldName('pattern'), fn.names, () =>
        type !== null
          ? rustCallType(type, types, fn.selfType)
          : value === null
            ? undefined
            : typeOfValue(value, fn, types),
      );
    }
    case 'match_pattern':
      return bindPattern(node.namedChild(0), fn.names, () => undefined);
    default:
      return bindPattern(node.childForFieldName('pattern'), fn.names, () => undefined);
  }
}

/** A plain identifier pattern gets the type; every name a destructuring pattern binds gets none. */
function bindPattern(pattern: Node | null, names: BoundNames, typeOf: () => string | undefined): void {
  if (pattern === null) return;
  if (pattern.type === 'identifier') {
    names.bind(pattern.text, typeOf);
    return;
  }
  for (const id of pattern.descendantsOfType(['identifier', 'shorthand_field_identifier'])) {
    // Capitalised identifiers in patterns are variants and constants (`None`, `MAX`), not bindings.
    if (id !== null && /^[a-z_]/.test(id.text)) names.bind(id.text, undefined);
  }
}

/** `T { … }`, `T::new(…)`, `T::default()`, `Arc::new(T::new(…))`. */
function typeOfValue(value: Node, fn: RustFunction, types: RustTypes): string | undefined {
  if (value.type === 'struct_expression') {
    const name = value.childForFieldName('name');
    return name === null ? undefined : rustCallType(name, types, fn.selfType);
  }
  if (value.type !== 'call_expression') return undefined;
  const callee = value.childForFieldName('function');
  if (callee?.type !== 'scoped_identifier') return undefined;
  const path = callee.childForFieldName('path');
  const method = callee.childForFieldName('name')?.text ?? '';
  if (path === null || !CONSTRUCTORS.has(method) || !/^[A-Z]/.test(lastSegment(path.text))) return undefined;
  const type = lastSegment(path.text.replace(/\s+/g, '').replace(/<.*$/, ''));
  if (DEREF_WRAPPERS.has(type)) {
    const inner = value.childForFieldName('arguments')?.namedChild(0);
    return inner === null || inner === undefined ? undefined : typeOfValue(inner, fn, types);
  }
  return type === 'Self' ? fn.selfType : declaredName(type, types);
}

export function lastSegment(path: string): string {
  return path.slice(path.lastIndexOf(':') + 1);
}
