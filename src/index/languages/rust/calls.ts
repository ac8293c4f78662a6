/**
 * Rust call sites: `f()` (a `use`d name carries its path as module, its alias undone), `module::f()` on a
 * `use`d or `mod`-declared module (module), `Type::f()` (receiverType: the type), `self.m()` and
 * `Self::f()` (self), `x.m()` on a typed parameter, local or field (receiverType), `T { … }` and tuple
 * structs `T(…)` (construct). Macros are skipped; so are enum variants and calls of local closures.
 */
import type { Node } from 'web-tree-sitter';
import type { CallFact, SymbolFact } from '../../facts.js';
import { collectCalls, type CallSite, type CallSyntax } from '../shared/call-sites.js';
import type { FactBuilder } from '../shared/fact-builder.js';
import { bindingSyntax, BoundNames, FunctionScopes } from '../shared/native-call-types.js';
import {
  bindRustNames,
  declaredName,
  lastSegment,
  RUST_BINDINGS,
  type RustFunction,
  type RustTypes,
} from './call-types.js';
import type { RustWalk } from './values.js';

/** A function to read calls in, and the type its `self` is when it belongs to an impl. */
export interface RustCaller {
  readonly node: Node;
  readonly selfType?: string;
}

/** Functions and methods (const initialisers have no parameters), with `self`'s type inside an impl. */
export function rustCallers(walks: readonly RustWalk[], facts: FactBuilder): RustCaller[] {
  return walks.flatMap((walk) => {
    const node = walk.params?.parent;
    if (node === null || node === undefined) return [];
    const parent = facts.symbol(walk.symbol)?.parent;
    const inImpl = parent !== undefined && facts.symbol(parent)?.kind === 'impl';
    return [inImpl && walk.owner !== undefined ? { node, selfType: walk.owner } : { node }];
  });
}

/** Prelude variants: `Some(x)` and `Ok(x)` build an `Option` or a `Result`, no type of the workspace. */
const PRELUDE_VARIANTS = new Set(['Some', 'Ok', 'Err']);

interface Context {
  readonly types: RustTypes;
  /** Import sources (`mod x;` is the import `x`). */
  readonly modules: ReadonlySet<string>;
  readonly scopes: FunctionScopes<RustFunction>;
}

export function collectRustCalls(
  root: Node,
  types: RustTypes,
  modules: ReadonlySet<string>,
  callers: readonly RustCaller[],
  symbols: readonly SymbolFact[],
): CallFact[] {
  const selfTypes = new Map(callers.map((c) => [c.node.startIndex, c.selfType]));
  const scopes = new FunctionScopes(
    callers.map((c) => c.node),
    (fn): RustFunction => {
      const selfType = selfTypes.get(fn.startIndex);
      return selfType === undefined ? { names: new BoundNames() } : { names: new BoundNames(), selfType };
    },
  );
  const context: Context = { types, modules, scopes };
  const syntax: CallSyntax = {
    ...bindingSyntax(RUST_BINDINGS, (node) => {
      const fn = scopes.at(node.startIndex);
      if (fn !== undefined) bindRustNames(node, fn, types);
    }),
    call_expression: (node) => readCall(node, context),
    struct_expression: (node) => readStruct(node, context),
  };
  return collectCalls(root, syntax, symbols);
}

function readCall(call: Node, context: Context): CallSite | undefined {
  let callee = call.childForFieldName('function');
  if (callee?.type === 'generic_function') callee = callee.childForFieldName('function');
  if (callee === null) return undefined;
  const fn = context.scopes.at(call.startIndex);
  switch (callee.type) {
    case 'identifier':
      return bareCall(callee.text, context, fn);
    case 'scoped_identifier':
      return pathCall(callee, context, fn);
    case 'field_expression':
      return methodCall(callee, context, fn);
    default:
      return undefined;
  }
}

/** `f(…)`, or a tuple struct `T(…)`; a local closure is no declaration. */
function bareCall(name: string, context: Context, fn: RustFunction | undefined): CallSite | undefined {
  if (fn?.names.has(name) === true || PRELUDE_VARIANTS.has(name)) return undefined;
  const path = context.types.uses.get(name);
  const declared = path === undefined ? name : lastSegment(path);
  const construct = /^[A-Z]/.test(name);
  return {
    name: declared,
    ...(path === undefined ? {} : { module: path }),
    ...(construct ? { construct } : {}),
  };
}

/** `Self::f()`, `Type::f()`, `module::f()`, `a::b::f()`; `Enum::Variant(…)` builds a value, no call. */
function pathCall(callee: Node, context: Context, fn: RustFunction | undefined): CallSite | undefined {
  const name = callee.childForFieldName('name');
  const path = callee.childForFieldName('path');
  if (name === null || path === null || /^[A-Z]/.test(name.text)) return undefined;
  const written = path.text.replace(/\s+/g, '').replace(/::<.*$|<.*$/, '');
  const site = { name: name.text, receiver: written, at: name };
  if (written === 'Self') return { ...site, self: true };
  const last = lastSegment(written);
  if (/^[A-Z]/.test(last)) return { ...site, receiverType: declaredName(last, context.types) };
  if (path.type !== 'identifier' || fn?.names.has(written) === true) return site;
  const module = context.types.uses.get(written) ?? (context.modules.has(written) ? written : undefined);
  return module === undefined ? site : { ...site, module };
}

/** `self.m()`, `x.m()`, `self.repo.m()`, `a().m()`. */
function methodCall(callee: Node, context: Context, fn: RustFunction | undefined): CallSite | undefined {
  const field = callee.childForFieldName('field');
  const value = callee.childForFieldName('value');
  if (field === null || value === null) return undefined;
  const site = { name: field.text, receiver: value.text, at: field };
  if (value.type === 'self') return { ...site, self: true };
  const receiverType = typeOfValue(value, context, fn);
  return receiverType === undefined ? site : { ...site, receiverType };
}

/** The type of `x`, `self.f`, `x.f.g` when each step is proven (same-file struct fields). */
function typeOfValue(node: Node, context: Context, fn: RustFunction | undefined): string | undefined {
  if (node.type === 'self') return fn?.selfType;
  if (node.type === 'identifier') return fn?.names.typeOf(node.text);
  if (node.type !== 'field_expression') return undefined;
  const value = node.childForFieldName('value');
  const field = node.childForFieldName('field')?.text;
  const owner = value === null ? undefined : typeOfValue(value, context, fn);
  return owner === undefined || field === undefined ? undefined : context.types.fields.get(owner)?.get(field);
}

/** `T { … }`, `Self { … }`, `module::T { … }`; `Enum::Variant { … }` is skipped like its call form. */
function readStruct(literal: Node, context: Context): CallSite | undefined {
  const type = literal.childForFieldName('name');
  if (type?.type === 'type_identifier') {
    if (type.text === 'Self') {
      const selfType = context.scopes.at(literal.startIndex)?.selfType;
      return selfType === undefined ? undefined : { name: selfType, construct: true };
    }
    const path = context.types.uses.get(type.text);
    return {
      name: declaredName(type.text, context.types),
      construct: true,
      ...(path === undefined ? {} : { module: path }),
    };
  }
  if (type?.type !== 'scoped_type_identifier') return undefined;
  const path = type.childForFieldName('path');
  const name = type.childForFieldName('name')?.text;
  if (path === null || name === undefined || /^[A-Z]/.test(lastSegment(path.text))) return undefined;
  const module =
    path.type === 'identifier'
      ? (context.types.uses.get(path.text) ?? (context.modules.has(path.text) ? path.text : undefined))
      : undefined;
  return { name, construct: true, ...(module === undefined ? {} : { module }) };
}
