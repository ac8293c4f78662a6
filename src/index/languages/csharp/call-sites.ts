/**
 * C# call sites: invocations (`F()`, `x.F()`, `x?.F()`, `F<T>()`; a bare call is a method of `this`),
 * `new T(…)` and target-typed `new(…)` (its type read from the declaration it initialises). `nameof(x)`
 * is an operator. Capitalised members look like types in C#, so `A.B.F()` is read as a qualified type only
 * when `A` is a type of this file or a `using` alias.
 */
import type { Node } from 'web-tree-sitter';
import type { CallSite, CallSyntax } from '../shared/call-sites.js';
import { callOn, type Receiver, type ReceiverContext, receiverText } from '../shared/jvm/call-receivers.js';
import type { CallFact, SymbolFact } from '../../facts.js';
import { callsAfterDeclarations } from '../shared/jvm/declared-calls.js';
import { csharpDeclarations, csTypeText, newCsharpTypes } from './declared-types.js';

/** The file's call sites, typed by its declarations and `using` aliases. */
export function csharpCalls(root: Node, symbols: readonly SymbolFact[]): CallFact[] {
  const types = newCsharpTypes();
  const context: ReceiverContext = { names: types.names, imports: types.aliases, qualifiedPaths: false };
  return callsAfterDeclarations(root, csharpDeclarations(types), csharpCallSyntax(context), symbols);
}

function csharpCallSyntax(context: ReceiverContext): CallSyntax {
  return {
    invocation_expression: (node) => invocation(node, context),
    object_creation_expression: (node) => construction(csTypeText(node.childForFieldName('type')), context),
    implicit_object_creation_expression: (node) => construction(targetType(node), context),
  };
}

/** The simple name called: `F` of `F` and of `F<T>`. */
function calledName(node: Node | null): Node | undefined {
  if (node?.type === 'identifier') return node;
  if (node?.type === 'generic_name')
    return node.namedChildren.find((c): c is Node => c?.type === 'identifier');
  return undefined;
}

function invocation(node: Node, context: ReceiverContext): CallSite | undefined {
  const callee = node.childForFieldName('function');
  if (callee === null) return undefined;
  const bare = calledName(callee);
  if (bare !== undefined) {
    if (bare.text === 'nameof') return undefined;
    return callOn(bare.text, { kind: 'none' }, undefined, bare.startIndex, context, bare);
  }
  let object: Node | null = null;
  let nameNode: Node | undefined;
  if (callee.type === 'member_access_expression') {
    object = callee.childForFieldName('expression');
    nameNode = calledName(callee.childForFieldName('name'));
  } else if (callee.type === 'conditional_access_expression') {
    // `x?.F()`: the member binding holds the name, the condition the receiver.
    object = callee.childForFieldName('condition');
    const binding = callee.namedChildren.find((c) => c?.type === 'member_binding_expression');
    nameNode = calledName(binding?.childForFieldName('name') ?? null);
  }
  if (object === null || nameNode === undefined) return undefined;
  return callOn(
    nameNode.text,
    receiverOf(object),
    receiverText(object),
    nameNode.startIndex,
    context,
    nameNode,
  );
}

/** `new T(…)`: constructs `T`, through its alias's target when `T` is a `using` alias. */
function construction(type: string | undefined, context: ReceiverContext): CallSite | undefined {
  if (type === undefined) return undefined;
  const aliased = type.includes('.') ? undefined : context.imports.get(type);
  const written = aliased ?? type;
  return {
    name: written.slice(written.lastIndexOf('.') + 1),
    construct: true,
    ...(aliased === undefined ? {} : { module: aliased }),
  };
}

/** `Repo r = new();`, `Repo R { get; } = new();`: the declared type of what the `new()` initialises. */
function targetType(node: Node): string | undefined {
  const parent = node.parent;
  const declaration = parent?.type === 'property_declaration' ? parent : parent?.parent;
  return declaration?.type === 'variable_declaration' || declaration?.type === 'property_declaration'
    ? csTypeText(declaration.childForFieldName('type'))
    : undefined;
}

const OTHER: Receiver = { kind: 'other' };

/** The shape of what a call is made on. */
function receiverOf(node: Node): Receiver {
  switch (node.type) {
    case 'this':
      return { kind: 'this' };
    case 'base':
      return { kind: 'super' };
    case 'identifier':
      return { kind: 'name', name: node.text };
    case 'object_creation_expression': {
      const type = csTypeText(node.childForFieldName('type'));
      return type === undefined ? OTHER : { kind: 'new', type };
    }
    case 'member_access_expression': {
      const object = node.childForFieldName('expression');
      const name = node.childForFieldName('name');
      if (object?.type === 'this' && name?.type === 'identifier') return { kind: 'member', name: name.text };
      const text = node.text.replace(/\s+/g, '');
      return /^[\w]+(?:\.[\w]+)+$/.test(text) ? { kind: 'path', path: text } : OTHER;
    }
    case 'qualified_name':
      return { kind: 'path', path: node.text.replace(/\s+/g, '') };
    default:
      return OTHER;
  }
}
