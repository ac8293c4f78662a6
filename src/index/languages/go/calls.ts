/**
 * Go call sites: `f()`, `pkg.F()` (module: the import path), `s.m()` on the method's receiver (self),
 * `x.m()` on a parameter, local, package-level var or same-file struct field whose type the file proves
 * (receiverType), `T{…}`/`&T{…}`/`new(T)` (construct). Builtins and calls of local function values are no
 * calls of declarations and are left out.
 */
import type { Node } from 'web-tree-sitter';
import type { CallFact, SymbolFact } from '../../facts.js';
import { collectCalls, type CallSite, type CallSyntax } from '../shared/call-sites.js';
import { bindingSyntax, FunctionScopes } from '../shared/native-call-types.js';
import { bindGoNames, GO_BINDINGS, goFunction, type GoFunction, type GoTypes } from './call-types.js';
import { unwrapParens, type GoFile } from './scope.js';

/** Predeclared functions and types: calling them (or converting to them) calls nothing declared. */
const BUILTINS = new Set(
  (
    'append cap clear close complex copy delete imag len make max min new panic print println real recover ' +
    'any bool byte comparable complex64 complex128 error float32 float64 int int8 int16 int32 int64 rune ' +
    'string uint uint8 uint16 uint32 uint64 uintptr'
  ).split(' '),
);

export function collectGoCalls(
  root: Node,
  file: GoFile,
  types: GoTypes,
  symbols: readonly SymbolFact[],
): CallFact[] {
  const functions = root.namedChildren.filter(
    (n): n is Node => n?.type === 'function_declaration' || n?.type === 'method_declaration',
  );
  const scopes = new FunctionScopes(functions, goFunction);
  const context: Context = { file, types, scopes };
  const syntax: CallSyntax = {
    ...bindingSyntax(GO_BINDINGS, (node) => {
      const names = scopes.at(node.startIndex)?.names;
      if (names !== undefined) bindGoNames(node, names, types);
    }),
    call_expression: (node) => readCall(node, context),
    composite_literal: (node) => readComposite(node, context),
  };
  return collectCalls(root, syntax, symbols);
}

interface Context {
  readonly file: GoFile;
  readonly types: GoTypes;
  readonly scopes: FunctionScopes<GoFunction>;
}

function readCall(call: Node, context: Context): CallSite | undefined {
  const fn = call.childForFieldName('function');
  if (fn === null) return undefined;
  const scope = context.scopes.at(call.startIndex);
  if (fn.type === 'identifier') {
    if (fn.text === 'new') return newCall(call, context, scope);
    if (scope?.names.has(fn.text) === true) return undefined;
    return BUILTINS.has(fn.text) ? undefined : { name: fn.text };
  }
  if (fn.type !== 'selector_expression') return undefined;
  const field = fn.childForFieldName('field');
  const operand = fn.childForFieldName('operand');
  if (field === null || operand === null) return undefined;
  const site = { name: field.text, receiver: operand.text, at: field };
  const bare = unwrapParens(operand);
  if (bare.type === 'identifier') {
    if (isReceiver(bare.text, scope)) return { ...site, self: true };
    const module = packagePath(bare.text, context, scope);
    if (module !== undefined) return { ...site, module };
  }
  const receiverType = typeOfOperand(bare, context, scope);
  return receiverType === undefined ? site : { ...site, receiverType };
}

/** The method's receiver, unless a local of the same name (a loop variable) hides it somewhere. */
function isReceiver(name: string, scope: GoFunction | undefined): boolean {
  return scope?.receiver?.name === name && scope.names.typeOf(name) === scope.receiver.type;
}

/** `new(T)` builds a T. */
function newCall(call: Node, context: Context, scope: GoFunction | undefined): CallSite | undefined {
  const type = call.childForFieldName('arguments')?.namedChild(0) ?? null;
  return type === null ? undefined : constructed(type, context, scope);
}

/** `T{…}` and `pkg.T{…}`; slice, map and anonymous struct literals build no declared type. */
function readComposite(literal: Node, context: Context): CallSite | undefined {
  const type = literal.childForFieldName('type');
  return type === null ? undefined : constructed(type, context, context.scopes.at(literal.startIndex));
}

function constructed(type: Node, context: Context, scope: GoFunction | undefined): CallSite | undefined {
  const named = type.type === 'generic_type' ? type.childForFieldName('type') : type;
  if (named?.type === 'type_identifier')
    return BUILTINS.has(named.text) ? undefined : { name: named.text, construct: true };
  if (named?.type !== 'qualified_type') return undefined;
  const name = named.childForFieldName('name')?.text;
  const module = packagePath(named.childForFieldName('package')?.text ?? '', context, scope);
  return name === undefined
    ? undefined
    : { name, construct: true, ...(module === undefined ? {} : { module }) };
}

/** The import path of a package name no local or package-level declaration of this file hides. */
function packagePath(name: string, context: Context, scope: GoFunction | undefined): string | undefined {
  if (scope?.names.has(name) === true || context.types.vars.has(name)) return undefined;
  return context.file.imports.get(name);
}

/** The type of `x`, `x.f` or `x.f.g` when the file proves each step (a struct field of a same-file struct). */
function typeOfOperand(node: Node, context: Context, scope: GoFunction | undefined): string | undefined {
  const expr = unwrapParens(node);
  if (expr.type === 'identifier') {
    const name = expr.text;
    if (isReceiver(name, scope)) return scope?.receiver?.type;
    if (scope?.names.has(name) === true) return scope.names.typeOf(name);
    return context.types.vars.typeOf(name);
  }
  if (expr.type !== 'selector_expression') return undefined;
  const operand = expr.childForFieldName('operand');
  const field = expr.childForFieldName('field')?.text;
  const owner = operand === null ? undefined : typeOfOperand(operand, context, scope);
  return owner === undefined || field === undefined ? undefined : context.types.fields.get(owner)?.get(field);
}
