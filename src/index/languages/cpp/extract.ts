/**
 * C and C++ (one extractor, the grammars share their node types): functions and prototypes, classes and
 * structs with their methods (`Class::method`, out-of-line definitions attached to a same-file class),
 * namespaces (qualifying names), enums and enumerators, typedefs and `using` aliases, top-level `#define`
 * macros, Doxygen docs, `#include`s, and — through cpp-grpc.ts — gRPC C++ services and stubs.
 */
import type { Node } from 'web-tree-sitter';
import { emptyFacts, type FileFacts, type LanguageId, type SymbolKind } from '../../facts.js';
import { collectCppAmqp } from './amqp.js';
import { collectCppGrpc, type CppClass, type CppFile, type CppWalk } from './grpc.js';
import { collectCppCalls } from './calls.js';
import {
  buildVariant,
  baseTypes,
  doxygenAbove,
  functionDeclarator,
  guardName,
  isTypeSpecifierWithBody,
  splitScope,
} from './syntax.js';
import type { ExtractInput } from '../extractor.js';
import { FactBuilder } from '../shared/fact-builder.js';
import { bodyLines, firstLineOf, signatureBefore } from '../shared/native-common.js';
import { endLineOf, oneLine, startLineOf } from '../shared/tree-utils.js';

interface Context {
  readonly file: CppFile;
  readonly walks: CppWalk[];
  /** Qualified class name → class, for out-of-line `Class::method` definitions. */
  readonly classes: Map<string, CppClass>;
  readonly namespaces: Set<string>;
}

/** Where declarations go: the namespace prefix and the enclosing class, if any. */
interface Place {
  readonly prefix: string;
  readonly owner?: CppClass;
  /** Inside `#if`/`#ifdef`/`#else` (not the include guard): what is declared here exists only in some builds. */
  readonly conditional?: boolean;
}

const TRANSPARENT = new Set([
  'preproc_ifdef',
  'preproc_if',
  'preproc_else',
  'preproc_elif',
  'preproc_elifdef',
  'linkage_specification',
  'declaration_list',
]);

export function extractCpp(input: ExtractInput): FileFacts {
  return extractCFamily(input, 'cpp');
}

export function extractC(input: ExtractInput): FileFacts {
  return extractCFamily(input, 'c');
}

function extractCFamily(input: ExtractInput, language: LanguageId): FileFacts {
  const tree = input.tree;
  if (tree === undefined) return emptyFacts(language);
  const context: Context = {
    file: { source: input.source, facts: new FactBuilder(language), stubFields: new Map() },
    walks: [],
    classes: new Map(),
    namespaces: new Set(),
  };
  declareAll(tree.rootNode, { prefix: '' }, context, guardName(tree.rootNode));
  const classes = [...context.classes.values()];
  collectCppGrpc(context.file, context.walks, classes);
  if (language === 'cpp') collectCppAmqp(tree.rootNode, input.source, context.file.facts);
  const { facts } = context.file;
  return facts.build({
    calls: collectCppCalls(tree.rootNode, facts, context.walks, classes, context.namespaces),
  });
}

function declareAll(container: Node, place: Place, context: Context, guard: string | undefined): void {
  const children = container.namedChildren.filter((n): n is Node => n !== null);
  children.forEach((child, index) => {
    if (child.type === 'comment') return;
    if (TRANSPARENT.has(child.type)) {
      const body = child.type === 'linkage_specification' ? child.childForFieldName('body') : child;
      const inner = buildVariant(child, guard) ? { ...place, conditional: true } : place;
      if (body !== null) declareAll(body, inner, context, guard);
      return;
    }
    declare(child, child, place, doxygenAbove(children, index, startLineOf(child)), context, guard);
  });
}

function declare(
  node: Node,
  outer: Node,
  place: Place,
  doc: string | undefined,
  context: Context,
  guard: string | undefined,
): void {
  switch (node.type) {
    case 'template_declaration': {
      const inner = node.namedChildren.find(
        (c) => c !== null && c.type !== 'template_parameter_list' && c.type !== 'comment',
      );
      if (inner !== null && inner !== undefined) declare(inner, outer, place, doc, context, guard);
      return;
    }
    case 'preproc_include': {
      const path = node.childForFieldName('path');
      if (path !== null)
        context.file.facts.addImport({
          source: path.text.replace(/^["<]|[">]$/g, ''),
          line: startLineOf(node),
        });
      return;
    }
    case 'preproc_def':
    case 'preproc_function_def':
      if (place.owner === undefined) declareMacro(node, doc, context, guard, place.conditional === true);
      return;
    case 'namespace_definition':
      declareNamespace(node, place, doc, context, guard);
      return;
    case 'function_definition':
      declareFunction(
        node,
        node.childForFieldName('declarator'),
        node.childForFieldName('body'),
        outer,
        place,
        doc,
        context,
      );
      return;
    case 'declaration':
    case 'field_declaration':
      declareDeclaration(node, outer, place, doc, context, guard);
      return;
    case 'class_specifier':
    case 'struct_specifier':
    case 'union_specifier':
      declareClass(node, outer, place, doc, context, guard);
      return;
    case 'enum_specifier':
      declareEnum(node, outer, place, doc, context);
      return;
    case 'type_definition':
      declareTypedef(node, outer, place, doc, context, guard);
      return;
    case 'alias_declaration': {
      const name = node.childForFieldName('name')?.text;
      if (name !== undefined) addType(name, node, outer, place, doc, context);
      return;
    }
  }
}

/** A top-level `#define`: a constant, or a function for a function-like macro; never the include guard. */
function declareMacro(
  node: Node,
  doc: string | undefined,
  context: Context,
  guard: string | undefined,
  conditional: boolean,
): void {
  const name = node.childForFieldName('name')?.text;
  if (name === undefined || name === guard) return;
  context.file.facts.addSymbol({
    kind: node.type === 'preproc_def' ? 'const' : 'function',
    name,
    qualifiedName: name,
    signature: oneLine(node.text.split(/\r?\n/)[0] ?? '')
      .replace(/\\$/, '')
      .trim(),
    startLine: startLineOf(node),
    endLine: endLineOf(node),
    docstring: doc,
    ...(conditional ? { conditional: true } : {}),
  });
}

/** `namespace a::b { … }`: a symbol, and the prefix of everything declared inside. */
function declareNamespace(
  node: Node,
  place: Place,
  doc: string | undefined,
  context: Context,
  guard: string | undefined,
): void {
  const { file } = context;
  const name = node.childForFieldName('name')?.text.replace(/\s+/g, '');
  const body = node.childForFieldName('body');
  const prefix = name === undefined ? place.prefix : `${place.prefix}${name}::`;
  if (name !== undefined) {
    context.namespaces.add(prefix.slice(0, -2));
    file.facts.addSymbol({
      kind: 'namespace',
      name,
      qualifiedName: prefix.slice(0, -2),
      signature: signatureBefore(file.source, node, body),
      startLine: startLineOf(node),
      endLine: endLineOf(node),
      docstring: doc,
    });
  }
  if (body !== null) declareAll(body, { prefix }, context, guard);
}

/** A declaration: a function prototype, a type defined in place, or class fields (which may hold stubs). */
function declareDeclaration(
  node: Node,
  outer: Node,
  place: Place,
  doc: string | undefined,
  context: Context,
  guard: string | undefined,
): void {
  const type = node.childForFieldName('type');
  const declarators = node.childrenForFieldName('declarator').filter((d): d is Node => d !== null);
  const fn = declarators.length === 1 ? functionDeclarator(declarators[0] ?? null) : undefined;
  if (fn !== undefined) {
    declareFunction(node, fn, null, outer, place, doc, context);
    return;
  }
  if (type !== null && isTypeSpecifierWithBody(type)) declare(type, type, place, doc, context, guard);
  if (node.type === 'field_declaration' && place.owner !== undefined && type !== null) {
    for (const declarator of declarators)
      place.owner.fields.push({ name: declarator.text.replace(/^[*&\s]+/, ''), type, node });
  }
}

/** `typedef struct X { … } Y;`: the struct, then each name the typedef declares. */
function declareTypedef(
  node: Node,
  outer: Node,
  place: Place,
  doc: string | undefined,
  context: Context,
  guard: string | undefined,
): void {
  const type = node.childForFieldName('type');
  if (type !== null && isTypeSpecifierWithBody(type) && type.childForFieldName('name') !== null) {
    declare(type, type, place, doc, context, guard);
  }
  for (const declarator of node.childrenForFieldName('declarator')) {
    const name = declarator?.type === 'type_identifier' ? declarator.text : undefined;
    if (name !== undefined) addType(name, node, outer, place, doc, context);
  }
}

function addType(
  name: string,
  node: Node,
  outer: Node,
  place: Place,
  doc: string | undefined,
  context: Context,
): void {
  context.file.facts.addSymbol({
    kind: 'type',
    name,
    qualifiedName: qualify(place, name),
    signature: firstLineOf(context.file.source, node),
    startLine: startLineOf(outer),
    endLine: endLineOf(outer),
    docstring: doc,
    ...(place.owner === undefined ? {} : { parent: place.owner.symbol }),
  });
}

function qualify(place: Place, name: string): string {
  return place.owner === undefined ? `${place.prefix}${name}` : `${place.owner.qualifiedName}::${name}`;
}

function declareFunction(
  node: Node,
  declarator: Node | null,
  body: Node | null,
  outer: Node,
  place: Place,
  doc: string | undefined,
  context: Context,
): void {
  const fn = functionDeclarator(declarator);
  const nameNode = fn?.childForFieldName('declarator');
  if (fn === undefined || nameNode === null || nameNode === undefined) return;
  const written = nameNode.text.replace(/\s+/g, '');
  const segments = splitScope(written);
  const name = segments.pop() ?? written;
  let owner = place.owner;
  let qualifiedName = qualify(place, name);
  let kind: SymbolKind = owner === undefined ? 'function' : 'method';
  if (owner === undefined && segments.length > 0) {
    // An out-of-line definition `Class::method` (or `ns::function`): attach to a same-file class if any.
    const scopePath = segments.join('::');
    owner = context.classes.get(`${place.prefix}${scopePath}`) ?? context.classes.get(scopePath);
    qualifiedName = `${place.prefix}${scopePath}::${name}`;
    kind =
      owner !== undefined || !context.namespaces.has(`${place.prefix}${scopePath}`) ? 'method' : 'function';
  }
  const symbol = context.file.facts.addSymbol({
    kind,
    name,
    qualifiedName,
    // A constructor's `: member(…)` initialiser list belongs to the body, not the signature.
    signature: signatureBefore(
      context.file.source,
      outer,
      node.namedChildren.find((c) => c?.type === 'field_initializer_list') ?? body,
    ),
    startLine: startLineOf(outer),
    endLine: endLineOf(outer),
    ...(body === null ? {} : bodyLines(body)),
    docstring: doc,
    ...(owner === undefined ? {} : { parent: owner.symbol }),
    ...(place.conditional ? { conditional: true } : {}),
  });
  if (place.owner !== undefined) {
    place.owner.methods.push({
      symbol,
      name,
      line: startLineOf(nameNode),
      params: fn.childForFieldName('parameters'),
    });
  }
  if (body !== null || node.type === 'function_definition') {
    context.walks.push({ node, symbol, owner: owner?.qualifiedName });
  }
}

function declareClass(
  node: Node,
  outer: Node,
  place: Place,
  doc: string | undefined,
  context: Context,
  guard: string | undefined,
): void {
  const name = node.childForFieldName('name')?.text.replace(/\s+/g, '');
  const body = node.childForFieldName('body');
  if (name === undefined || body === null) return;
  const qualifiedName = qualify(place, name);
  const bases = node.namedChildren.find((c) => c?.type === 'base_class_clause')?.namedChildren ?? [];
  const supertypes = baseTypes(bases);
  const symbol = context.file.facts.addSymbol({
    kind: node.type === 'class_specifier' ? 'class' : 'struct',
    name,
    qualifiedName,
    signature: signatureBefore(context.file.source, outer, body),
    startLine: startLineOf(outer),
    endLine: endLineOf(outer),
    docstring: doc,
    ...(place.owner === undefined ? {} : { parent: place.owner.symbol }),
    ...(supertypes.length === 0 ? {} : { supertypes }),
  });
  const cls: CppClass = {
    symbol,
    qualifiedName,
    nameLine: startLineOf(node.childForFieldName('name') ?? node),
    bases: bases.filter((c): c is Node => c !== null && c.type !== 'access_specifier'),
    methods: [],
    fields: [],
  };
  context.classes.set(qualifiedName, cls);
  const members = body.namedChildren.filter((n): n is Node => n !== null);
  members.forEach((member, index) => {
    if (member.type === 'comment' || member.type === 'access_specifier') return;
    const memberDoc = doxygenAbove(members, index, startLineOf(member));
    if (TRANSPARENT.has(member.type))
      declareAll(member, { prefix: place.prefix, owner: cls }, context, guard);
    else declare(member, member, { prefix: place.prefix, owner: cls }, memberDoc, context, guard);
  });
}

function declareEnum(node: Node, outer: Node, place: Place, doc: string | undefined, context: Context): void {
  const name = node.childForFieldName('name')?.text;
  const body = node.childForFieldName('body');
  if (name === undefined || body === null) return;
  const qualifiedName = qualify(place, name);
  const symbol = context.file.facts.addSymbol({
    kind: 'enum',
    name,
    qualifiedName,
    signature: signatureBefore(context.file.source, outer, body),
    startLine: startLineOf(outer),
    endLine: endLineOf(outer),
    docstring: doc,
    ...(place.owner === undefined ? {} : { parent: place.owner.symbol }),
  });
  for (const enumerator of body.namedChildren) {
    const member = enumerator?.type === 'enumerator' ? enumerator.childForFieldName('name')?.text : undefined;
    if (enumerator === null || member === undefined) continue;
    context.file.facts.addSymbol({
      kind: 'enum_member',
      name: member,
      qualifiedName: `${qualifiedName}::${member}`,
      signature: oneLine(enumerator.text),
      startLine: startLineOf(enumerator),
      endLine: endLineOf(enumerator),
      parent: symbol,
    });
  }
}
