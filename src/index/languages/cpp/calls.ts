/**
 * C and C++ call sites: `f()` (in a member function also `this->f()`: self), `this->f()`, `Base::f()` on
 * the class or a base of the method's class (self), `Type::f()` (receiverType), `ns::f()` (receiver only:
 * namespaces are no imports), `obj.f()`/`ptr->f()` on a typed parameter, local, file-level variable or
 * field of a same-file class (receiverType), `new T(…)` and `std::make_shared<T>(…)` (construct).
 * Macros (same-file `#define`s and ALL_CAPS names), casts and calls of local callables are left out.
 */
import type { Node } from 'web-tree-sitter';
import type { CallFact } from '../../facts.js';
import { bareTypeName, collectCalls, type CallSite, type CallSyntax } from '../shared/call-sites.js';
import type { FactBuilder } from '../shared/fact-builder.js';
import { bindingSyntax, BoundNames, FunctionScopes } from '../shared/native-call-types.js';
import {
  bindCppNames,
  calledThrough,
  CPP_BINDINGS,
  cppCallType,
  cppFieldTypes,
  makerType,
  type CppFunction,
} from './call-types.js';
import type { CppClass, CppWalk } from './grpc.js';
import { splitScope } from './syntax.js';

const CASTS = new Set(['static_cast', 'dynamic_cast', 'reinterpret_cast', 'const_cast']);

/** Macros by convention: `CHECK(x)`, `LOG(INFO)`, `EXPECT_EQ(a, b)`. */
const MACRO_NAME = /^[A-Z][A-Z0-9_]+$/;

interface Context {
  readonly scopes: FunctionScopes<CppFunction>;
  /** Variables declared outside every function. */
  readonly globals: BoundNames;
  readonly fields: ReadonlyMap<string, ReadonlyMap<string, string>>;
  /** Class (qualified) → its own simple name and its bases' simple names. */
  readonly lineage: ReadonlyMap<string, ReadonlySet<string>>;
  readonly namespaces: ReadonlySet<string>;
  readonly macros: ReadonlySet<string>;
}

export function collectCppCalls(
  root: Node,
  facts: FactBuilder,
  walks: readonly CppWalk[],
  classes: readonly CppClass[],
  namespaces: ReadonlySet<string>,
): CallFact[] {
  const byStart = new Map(walks.map((w) => [w.node.startIndex, w]));
  const fields = cppFieldTypes(classes);
  const scopes = new FunctionScopes(
    walks.map((w) => w.node),
    (fn): CppFunction => {
      const walk = byStart.get(fn.startIndex);
      const member = walk !== undefined && facts.symbol(walk.symbol)?.kind === 'method';
      const owner = walk?.owner !== undefined && fields.has(walk.owner) ? walk.owner : undefined;
      return { names: new BoundNames(), member, ...(owner === undefined ? {} : { owner }) };
    },
  );
  const context: Context = {
    scopes,
    globals: new BoundNames(),
    fields,
    lineage: lineageOf(classes),
    namespaces: new Set([...namespaces].flatMap((ns) => [ns, ...splitScope(ns)])),
    macros: new Set(facts.symbols.filter((s) => s.signature?.startsWith('#define')).map((s) => s.name)),
  };
  const syntax: CallSyntax = {
    ...bindingSyntax(CPP_BINDINGS, (node) => {
      const fn = scopes.at(node.startIndex);
      if (fn !== undefined) bindCppNames(node, fn.names);
      else if (node.type === 'declaration') bindCppNames(node, context.globals);
    }),
    call_expression: (node) => readCall(node, context),
    new_expression: (node) => {
      const name = cppCallType(node.childForFieldName('type'));
      return name === undefined ? undefined : { name, construct: true };
    },
  };
  return collectCalls(root, syntax, facts.symbols);
}

function lineageOf(classes: readonly CppClass[]): Map<string, Set<string>> {
  return new Map(
    classes.map((cls) => [
      cls.qualifiedName,
      new Set([
        cls.qualifiedName.slice(cls.qualifiedName.lastIndexOf(':') + 1),
        ...cls.bases.flatMap((b) => simpleName(b.text) ?? []),
      ]),
    ]),
  );
}

function simpleName(text: string): string | undefined {
  const bare = bareTypeName(text.replace(/\s+/g, ''));
  return splitScope(bare).pop() || undefined;
}

function readCall(call: Node, context: Context): CallSite | undefined {
  const callee = call.childForFieldName('function');
  if (callee === null) return undefined;
  const fn = context.scopes.at(call.startIndex);
  switch (callee.type) {
    case 'identifier':
      return bareCall(callee.text, context, fn);
    case 'template_function':
      return templateCall(call, callee, context, fn);
    case 'qualified_identifier':
      return scopedCall(call, callee, context, fn);
    case 'field_expression':
      return memberCall(callee, context, fn);
    default:
      return undefined;
  }
}

/** `f(…)`: in a member function it may be `this->f(…)` (the resolver falls back to free functions). */
function bareCall(name: string, context: Context, fn: CppFunction | undefined): CallSite | undefined {
  if (MACRO_NAME.test(name) || context.macros.has(name)) return undefined;
  if (fn?.names.has(name) === true || context.globals.has(name)) return undefined;
  return fn?.member === true ? { name, self: true } : { name };
}

/** `f<T>(…)`; `make_shared<T>(…)` builds a T; casts call nothing. */
function templateCall(
  call: Node,
  callee: Node,
  context: Context,
  fn: CppFunction | undefined,
): CallSite | undefined {
  const name = callee.childForFieldName('name')?.text;
  if (name === undefined || CASTS.has(name)) return undefined;
  const made = makerType(call);
  if (made !== undefined) {
    const type = cppCallType(made);
    return type === undefined ? undefined : { name: type, construct: true };
  }
  return bareCall(name, context, fn);
}

/** `ns::f()`, `Type::f()`, `Base::f()` from a method of a class deriving from Base, `::f()`. */
function scopedCall(
  call: Node,
  callee: Node,
  context: Context,
  fn: CppFunction | undefined,
): CallSite | undefined {
  const made = makerType(call);
  if (made !== undefined) {
    const type = cppCallType(made);
    return type === undefined ? undefined : { name: type, construct: true };
  }
  let nameNode = callee.childForFieldName('name');
  if (nameNode?.type === 'template_function') nameNode = nameNode.childForFieldName('name');
  const name = nameNode?.text;
  const scope = callee.childForFieldName('scope');
  if (nameNode === null || nameNode === undefined || name === undefined || MACRO_NAME.test(name))
    return undefined;
  if (scope === null) return { name, at: nameNode };
  const receiver = bareTypeName(scope.text.replace(/\s+/g, ''));
  const site = { name, receiver, at: nameNode };
  const last = splitScope(receiver).pop() ?? receiver;
  if (receiver === 'std' || receiver.startsWith('std::') || context.namespaces.has(receiver)) return site;
  const own = fn?.owner === undefined ? undefined : context.lineage.get(fn.owner);
  if (fn?.member === true && own?.has(last) === true) return { ...site, self: true };
  const isType = context.lineage.has(receiver) || /^[A-Z]/.test(last) || scope.type === 'template_type';
  return isType ? { ...site, receiverType: last } : site;
}

/** `this->f()`, `obj.f()`, `ptr->f()`, `this->repo_->f()`, `a().f()`. */
function memberCall(callee: Node, context: Context, fn: CppFunction | undefined): CallSite | undefined {
  const object = callee.childForFieldName('argument');
  const field = memberName(callee.childForFieldName('field'));
  if (object === null || field === undefined) return undefined;
  const site = { name: field.text, receiver: object.text, at: field };
  const objectType = object.type;
  if (objectType === 'this') return { ...site, self: true };
  const receiverType = reached(callee, typeOfObject(object, objectType, context, fn));
  return receiverType === undefined ? site : { ...site, receiverType };
}

/** The member named by `f`, `template f<T>`, `Base::f`. */
function memberName(field: Node | null): Node | undefined {
  let current = field;
  for (let depth = 0; current !== null && depth < 3; depth++) {
    switch (current.type) {
      case 'field_identifier':
      case 'identifier':
        return current;
      case 'dependent_name':
        current = current.namedChild(0);
        break;
      case 'template_method':
      case 'qualified_identifier':
        current = current.childForFieldName('name');
        break;
      default:
        return undefined;
    }
  }
  return undefined;
}

/** What the member access reaches from a value of `type` (the operator is read only for a smart pointer). */
function reached(access: Node, type: string | undefined): string | undefined {
  return type?.startsWith('->') === true
    ? calledThrough(type, access.childForFieldName('operator')?.type)
    : type;
}

/** A parameter or local, else a field of the method's class (implicit `this`), else a file-level variable. */
function typeOfObject(
  node: Node,
  nodeType: string,
  context: Context,
  fn: CppFunction | undefined,
): string | undefined {
  if (nodeType === 'identifier') {
    const name = node.text;
    if (fn?.names.has(name) === true) return fn.names.typeOf(name);
    const field = fn?.owner === undefined ? undefined : context.fields.get(fn.owner)?.get(name);
    return field ?? context.globals.typeOf(name);
  }
  if (nodeType !== 'field_expression') return undefined;
  const object = node.childForFieldName('argument');
  const field = node.childForFieldName('field')?.text;
  if (object === null || field === undefined) return undefined;
  const objectType = object.type;
  const owner =
    objectType === 'this' ? fn?.owner : reached(node, typeOfObject(object, objectType, context, fn));
  return owner === undefined ? undefined : context.fields.get(owner)?.get(field);
}
