/**
 * What a C or C++ file proves about the types of the objects its calls are made on: typed parameters and
 * locals (`Repo repo;`, `Repo* r = …`, `auto r = new Repo(…)`, `auto r = std::make_shared<Repo>(…)`),
 * file-level variables, and the fields of same-file classes. Pointers and references are looked through;
 * so are `unique_ptr`/`shared_ptr`, but only by `->` (`.` calls the smart pointer's own `reset()`): such a
 * type is kept as `->Repo`. A type is named by its last segment without template arguments.
 */
import type { Node } from 'web-tree-sitter';
import type { BoundNames } from '../shared/native-call-types.js';

/** Smart pointers whose `->` reaches the pointee. */
const SMART_POINTERS = new Set(['unique_ptr', 'shared_ptr']);

/** Factories that build their template argument: `std::make_shared<Repo>(…)`. */
export const MAKERS = new Set(['make_shared', 'make_unique']);

/** One function: the names bound so far, and the same-file class whose method it is. */
export interface CppFunction {
  readonly names: BoundNames;
  /** Whether it is a member function: a bare call in it may be `this->f()`. */
  readonly member: boolean;
  /** Qualified name of its class when the file declares the class (its fields are known). */
  readonly owner?: string;
}

/** What `.` or `->` on a value of this type reaches: `->Repo` (a smart pointer) only through `->`. */
export function calledThrough(type: string | undefined, operator: string | undefined): string | undefined {
  if (type?.startsWith('->') !== true) return type;
  return operator === '->' ? type.slice(2) : undefined;
}

/**
 * The class a type names: `const shop::Repo&` → `Repo`, `std::unique_ptr<Repo>` → `->Repo`; primitives
 * and `auto` name none.
 */
export function cppCallType(type: Node | null): string | undefined {
  let current = type;
  let smart = false;
  for (let depth = 0; current !== null && depth < 16; depth++) {
    switch (current.type) {
      case 'type_identifier':
        return smart ? `->${current.text}` : current.text;
      case 'qualified_identifier':
        current = current.childForFieldName('name');
        break;
      case 'type_descriptor':
        current = current.childForFieldName('type');
        break;
      case 'struct_specifier':
      case 'class_specifier':
        current = current.childForFieldName('name');
        break;
      case 'template_type': {
        const name = current.childForFieldName('name');
        if (smart || !SMART_POINTERS.has(name?.text ?? '')) current = name;
        else {
          smart = true;
          current = current.childForFieldName('arguments')?.namedChild(0) ?? null;
        }
        break;
      }
      default:
        return undefined;
    }
  }
  return undefined;
}

/** The name a declarator declares and its initialiser, under pointer, reference and array wrappers. */
export function declared(declarator: Node | null): { name: string; value?: Node } | undefined {
  let current = declarator;
  let value: Node | undefined;
  for (let depth = 0; current !== null && depth < 6; depth++) {
    switch (current.type) {
      case 'identifier':
      case 'field_identifier':
        return value === undefined ? { name: current.text } : { name: current.text, value };
      case 'init_declarator':
        value = current.childForFieldName('value') ?? undefined;
        current = current.childForFieldName('declarator');
        break;
      case 'pointer_declarator':
      case 'reference_declarator':
      case 'array_declarator':
      case 'parenthesized_declarator':
        current = current.childForFieldName('declarator') ?? current.namedChild(current.namedChildCount - 1);
        break;
      default:
        return undefined;
    }
  }
  return undefined;
}

/** Nodes that bind names, met by the call pass before the uses below them. */
export const CPP_BINDINGS: readonly string[] = [
  'parameter_declaration',
  'optional_parameter_declaration',
  'declaration',
  'for_range_loop',
  'structured_binding_declarator',
];

/** Records the names one of the `CPP_BINDINGS` nodes declares. */
export function bindCppNames(node: Node, names: BoundNames): void {
  const kind = node.type;
  if (kind === 'structured_binding_declarator') {
    for (const id of node.namedChildren) if (id?.type === 'identifier') names.bind(id.text, undefined);
    return;
  }
  // Only a declaration lists several declarators; a parameter or a range loop has one.
  const declarators =
    kind === 'declaration' ? node.childrenForFieldName('declarator') : [node.childForFieldName('declarator')];
  for (const declarator of declarators) {
    const target = declared(declarator);
    if (target === undefined) continue;
    const { value } = target;
    names.bind(
      target.name,
      () =>
        cppCallType(node.childForFieldName('type')) ?? (value === undefined ? undefined : typeOfValue(value)),
    );
  }
}

/** `new Repo(…)`, `std::make_unique<Repo>(…)` (a smart pointer: `->Repo`). */
function typeOfValue(value: Node): string | undefined {
  if (value.type === 'new_expression') return cppCallType(value.childForFieldName('type'));
  const maker = value.type === 'call_expression' ? makerType(value) : undefined;
  const made = maker === undefined ? undefined : cppCallType(maker);
  // What a maker returns is a smart pointer to the type.
  return made === undefined || made.startsWith('->') ? undefined : `->${made}`;
}

/** The type argument of a `make_shared<T>(…)`/`make_unique<T>(…)` call, if it is one. */
export function makerType(call: Node): Node | undefined {
  let callee = call.childForFieldName('function');
  if (callee?.type === 'qualified_identifier') callee = callee.childForFieldName('name');
  if (callee?.type !== 'template_function' || !MAKERS.has(callee.childForFieldName('name')?.text ?? ''))
    return undefined;
  return callee.childForFieldName('arguments')?.namedChild(0) ?? undefined;
}

/** Class → field → type, from the file's classes, keyed by qualified name and by simple name. */
export function cppFieldTypes(
  classes: readonly {
    readonly qualifiedName: string;
    readonly fields: readonly { readonly name: string; readonly type: Node }[];
  }[],
): Map<string, Map<string, string>> {
  const out = new Map<string, Map<string, string>>();
  for (const cls of classes) {
    const fields = new Map<string, string>();
    for (const field of cls.fields) {
      const type = cppCallType(field.type);
      if (type !== undefined) fields.set(field.name, type);
    }
    out.set(cls.qualifiedName, fields);
    out.set(cls.qualifiedName.slice(cls.qualifiedName.lastIndexOf(':') + 1), fields);
  }
  return out;
}
