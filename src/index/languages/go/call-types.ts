/**
 * What a Go file proves about the types of the names its calls are made on: each function's parameters
 * and locals (`var x T`, `x := &T{}`, `x := T{}`, `x := new(T)`, `x := newT()` of a same-file function
 * declared to return `*T`), the method's receiver, package-level vars, and the fields of same-file structs.
 */
import type { Node } from 'web-tree-sitter';
import { BoundNames } from '../shared/native-call-types.js';
import { unwrapParens } from './scope.js';

/** File-wide typing: package-level vars, the fields of the file's structs, its functions' result types. */
export interface GoTypes {
  readonly vars: BoundNames;
  /** Struct → field → type. */
  readonly fields: ReadonlyMap<string, ReadonlyMap<string, string>>;
  /** Function → the named type of its first result. */
  readonly results: ReadonlyMap<string, string>;
}

/** One function: the names bound so far and, for a method, its receiver. */
export interface GoFunction {
  readonly names: BoundNames;
  readonly receiver?: { readonly name: string; readonly type: string };
}

/** Predeclared types: no declaration of the workspace holds their methods. */
const PREDECLARED =
  /^(any|bool|byte|comparable|complex64|complex128|error|float32|float64|int|int8|int16|int32|int64|rune|string|uint|uint8|uint16|uint32|uint64|uintptr)$/;

/** A named type as written without pointer and type arguments: `*pb.Client[T]` → `pb.Client`. */
export function goTypeName(type: Node | null): string | undefined {
  let current = type;
  for (let depth = 0; current !== null && depth < 4; depth++) {
    switch (current.type) {
      case 'type_identifier':
        return PREDECLARED.test(current.text) ? undefined : current.text;
      case 'qualified_type':
        return current.text.replace(/\s+/g, '');
      case 'pointer_type':
      case 'parenthesized_type':
        current = current.namedChild(0);
        break;
      case 'generic_type':
        current = current.childForFieldName('type');
        break;
      default:
        return undefined;
    }
  }
  return undefined;
}

/** Package-level vars, struct fields and function results, from the file's top-level declarations. */
export function goFileTypes(declarations: readonly Node[]): GoTypes {
  const results = new Map<string, string>();
  for (const declaration of declarations) {
    const name = declaration.type === 'function_declaration' ? declaration.childForFieldName('name') : null;
    const type = name === null ? undefined : firstResult(declaration.childForFieldName('result'));
    if (name !== null && type !== undefined) results.set(name.text, type);
  }
  const fields = new Map<string, Map<string, string>>();
  const types: GoTypes = { vars: new BoundNames(), fields, results };
  for (const declaration of declarations) {
    if (declaration.type === 'var_declaration') {
      // Grouped vars sit in a `var_spec_list`; specs inside a func literal initialiser are no package vars.
      const list = declaration.namedChildren.find((n) => n?.type === 'var_spec_list') ?? declaration;
      for (const spec of list.namedChildren)
        if (spec?.type === 'var_spec') bindVarSpec(spec, types.vars, types);
    } else if (declaration.type === 'type_declaration') {
      for (const spec of declaration.namedChildren) {
        const struct = spec?.type === 'type_spec' ? spec.childForFieldName('type') : null;
        const name = spec?.childForFieldName('name')?.text;
        if (struct?.type === 'struct_type' && name !== undefined) fields.set(name, structFields(struct));
      }
    }
  }
  return types;
}

/** `*T`, `(T, error)`, `(t *T, err error)` → `T`. */
function firstResult(result: Node | null): string | undefined {
  if (result?.type !== 'parameter_list') return goTypeName(result);
  const first = result.namedChildren.find((n) => n?.type === 'parameter_declaration');
  return goTypeName(first?.childForFieldName('type') ?? null);
}

/** Field → type; an embedded `*Base` or `pb.Base` is the field `Base`. */
function structFields(struct: Node): Map<string, string> {
  const fields = new Map<string, string>();
  const list = struct.namedChildren.find((n) => n?.type === 'field_declaration_list');
  for (const field of list?.namedChildren ?? []) {
    if (field?.type !== 'field_declaration') continue;
    const type = goTypeName(field.childForFieldName('type'));
    if (type === undefined) continue;
    const names = field.childrenForFieldName('name').filter((n): n is Node => n !== null);
    if (names.length === 0) fields.set(type.replace(/^.*\./, ''), type);
    for (const name of names) fields.set(name.text, type);
  }
  return fields;
}

/** Nodes that bind names in a function: the one pass over calls meets them before the uses below them. */
export const GO_BINDINGS: readonly string[] = [
  'parameter_declaration',
  'variadic_parameter_declaration',
  'short_var_declaration',
  'var_spec',
  'const_spec',
  'range_clause',
  'receive_statement',
  'type_switch_statement',
];

/** A function or method as its body starts: nothing bound yet, and the method's receiver. */
export function goFunction(fn: Node): GoFunction {
  const receiver = fn.type === 'method_declaration' ? receiverOf(fn) : undefined;
  return receiver === undefined ? { names: new BoundNames() } : { names: new BoundNames(), receiver };
}

/** Records the names one of the `GO_BINDINGS` nodes declares (parameters and results included). */
export function bindGoNames(node: Node, names: BoundNames, types: GoTypes): void {
  switch (node.type) {
    case 'parameter_declaration':
    case 'variadic_parameter_declaration': {
      const type = node.childForFieldName('type');
      for (const name of node.childrenForFieldName('name'))
        if (name !== null) names.bind(name.text, () => goTypeName(type));
      return;
    }
    case 'short_var_declaration':
      return bindShortVar(node, names, types);
    case 'var_spec':
      return bindVarSpec(node, names, types);
    default:
      for (const name of bindingTargets(node)) names.bind(name.text, undefined);
  }
}

function receiverOf(method: Node): GoFunction['receiver'] {
  const param = method
    .childForFieldName('receiver')
    ?.namedChildren.find((n) => n?.type === 'parameter_declaration');
  const name = param?.childForFieldName('name')?.text;
  const type = goTypeName(param?.childForFieldName('type') ?? null);
  return name === undefined || type === undefined ? undefined : { name, type };
}

function bindingTargets(node: Node): Node[] {
  if (node.type === 'const_spec')
    return node.childrenForFieldName('name').filter((n): n is Node => n !== null);
  const list = node.childForFieldName(node.type === 'type_switch_statement' ? 'alias' : 'left');
  return (list?.namedChildren ?? []).filter((n): n is Node => n?.type === 'identifier');
}

function bindShortVar(node: Node, names: BoundNames, types: GoTypes): void {
  const left = node.childForFieldName('left')?.namedChildren ?? [];
  const right = node.childForFieldName('right')?.namedChildren ?? [];
  left.forEach((target, i) => {
    if (target?.type !== 'identifier') return;
    const value = right.length === left.length ? right[i] : undefined;
    names.bind(
      target.text,
      value === undefined || value === null ? undefined : () => typeOfValue(value, types),
    );
  });
}

function bindVarSpec(spec: Node, names: BoundNames, types: GoTypes): void {
  const declared = spec.childForFieldName('type');
  const values = spec.childForFieldName('value')?.namedChildren ?? [];
  const targets = spec.childrenForFieldName('name').filter((n): n is Node => n !== null);
  targets.forEach((target, i) => {
    const value = values.length === targets.length ? values[i] : undefined;
    names.bind(target.text, () =>
      declared !== null
        ? goTypeName(declared)
        : value === undefined || value === null
          ? undefined
          : typeOfValue(value, types),
    );
  });
}

/** `&T{}`, `T{}`, `new(T)`, or a call of a same-file function declared to return `T`/`*T` (first result). */
function typeOfValue(node: Node, types: GoTypes): string | undefined {
  const expr = unwrapParens(node);
  switch (expr.type) {
    case 'unary_expression': {
      const operand = expr.childForFieldName('operand');
      return expr.child(0)?.type === '&' && operand?.type === 'composite_literal'
        ? goTypeName(operand.childForFieldName('type'))
        : undefined;
    }
    case 'composite_literal':
      return goTypeName(expr.childForFieldName('type'));
    case 'call_expression': {
      const fn = expr.childForFieldName('function');
      if (fn?.type !== 'identifier') return undefined;
      if (fn.text === 'new') return goTypeName(expr.childForFieldName('arguments')?.namedChild(0) ?? null);
      return types.results.get(fn.text);
    }
    default:
      return undefined;
  }
}
