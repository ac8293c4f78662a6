/**
 * C and C++ (one extractor, the grammars share their node types): functions and prototypes, classes and
 * structs with their methods (`Class::method`, out-of-line definitions attached to a same-file class),
 * namespaces (qualifying names), enums and enumerators, typedefs and `using` aliases, top-level `#define`
 * macros, Doxygen docs, `#include`s, and — through cpp-grpc.ts — gRPC C++ services and stubs.
 */
import type { Node } from 'web-tree-sitter';
import { emptyFacts, type FileFacts, type LanguageId, type SymbolKind } from '../../facts.js';
import { collectCppGrpc, type CppClass, type CppFile, type CppWalk } from './grpc.js';
import type { ExtractInput } from '../extractor.js';
import { FactBuilder } from '../shared/fact-builder.js';
import { bodyLines, docText, firstLineOf, signatureBefore } from '../shared/native-common.js';
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
  collectCppGrpc(context.file, context.walks, [...context.classes.values()]);
  return context.file.facts.build();
}

/** The include-guard macro (`#ifndef X_H` wrapping the file and starting with `#define X_H`), not a constant. */
function guardName(root: Node): string | undefined {
  const top = root.namedChildren.filter((n): n is Node => n !== null && n.type !== 'comment');
  const only = top.length === 1 ? top[0] : undefined;
  if (only?.type !== 'preproc_ifdef') return undefined;
  const name = only.childForFieldName('name')?.text;
  const first = only.namedChildren.find(
    (n) => n !== null && n.type !== 'comment' && n.id !== only.childForFieldName('name')?.id,
  );
  return first?.type === 'preproc_def' &&
    first.childForFieldName('name')?.text === name &&
    first.childForFieldName('value') === null
    ? name
    : undefined;
}

function declareAll(container: Node, place: Place, context: Context, guard: string | undefined): void {
  const children = container.namedChildren.filter((n): n is Node => n !== null);
  children.forEach((child, index) => {
    if (child.type === 'comment') return;
    if (TRANSPARENT.has(child.type)) {
      const body = child.type === 'linkage_specification' ? child.childForFieldName('body') : child;
      if (body !== null) declareAll(body, place, context, guard);
      return;
    }
    declare(child, child, place, doxygenAbove(children, index, startLineOf(child)), context, guard);
  });
}

/** Doxygen comments (`///`, `//!`, `/**`, `/*!` blocks) in the run ending just above the declaration. */
function doxygenAbove(siblings: readonly Node[], index: number, line: number): string | undefined {
  const comments: string[] = [];
  let expected = line - 1;
  for (let i = index - 1; i >= 0; i--) {
    const node = siblings[i];
    if (node?.type !== 'comment' || endLineOf(node) !== expected) break;
    if (!/^(\/\/[/!]|\/\*[*!])/.test(node.text) || node.text.startsWith('///<')) break;
    comments.unshift(node.text);
    expected = startLineOf(node) - 1;
  }
  return docText(comments);
}

/** The function declarator under pointer/reference/attributed wrappers, if the declarator declares a function. */
function functionDeclarator(declarator: Node | null): Node | undefined {
  let current = declarator;
  for (let i = 0; i < 8 && current !== null; i++) {
    if (current.type === 'function_declarator') return current;
    if (!/^(pointer|reference|attributed|parenthesized)_declarator$/.test(current.type)) return undefined;
    current =
      current.childForFieldName('declarator') ??
      current.namedChildren.find((c) => c?.type.endsWith('declarator')) ??
      null;
  }
  return undefined;
}

function declare(
  node: Node,
  outer: Node,
  place: Place,
  doc: string | undefined,
  context: Context,
  guard: string | undefined,
): void {
  const { file } = context;
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
    case 'preproc_function_def': {
      const name = node.childForFieldName('name')?.text;
      if (name === undefined || name === guard || place.owner !== undefined) return;
      file.facts.addSymbol({
        kind: node.type === 'preproc_def' ? 'const' : 'function',
        name,
        qualifiedName: name,
        signature: oneLine(node.text.split(/\r?\n/)[0] ?? '')
          .replace(/\\$/, '')
          .trim(),
        startLine: startLineOf(node),
        endLine: endLineOf(node),
        docstring: doc,
      });
      return;
    }
    case 'namespace_definition': {
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
      return;
    }
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
    case 'field_declaration': {
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
      return;
    }
    case 'class_specifier':
    case 'struct_specifier':
    case 'union_specifier':
      declareClass(node, outer, place, doc, context, guard);
      return;
    case 'enum_specifier':
      declareEnum(node, outer, place, doc, context);
      return;
    case 'type_definition': {
      const type = node.childForFieldName('type');
      if (type !== null && isTypeSpecifierWithBody(type) && type.childForFieldName('name') !== null) {
        declare(type, type, place, doc, context, guard);
      }
      for (const declarator of node.childrenForFieldName('declarator')) {
        const name = declarator?.type === 'type_identifier' ? declarator.text : undefined;
        if (name !== undefined) addType(name, node, outer, place, doc, context);
      }
      return;
    }
    case 'alias_declaration': {
      const name = node.childForFieldName('name')?.text;
      if (name !== undefined) addType(name, node, outer, place, doc, context);
      return;
    }
  }
}

function isTypeSpecifierWithBody(type: Node): boolean {
  return /^(class|struct|union|enum)_specifier$/.test(type.type) && type.childForFieldName('body') !== null;
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

/** `a::b<c::d>::e` → `a`, `b<c::d>`, `e` (scope separators inside template arguments do not split). */
function splitScope(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '<') depth++;
    else if (ch === '>') depth--;
    else if (ch === ':' && text[i + 1] === ':' && depth === 0) {
      out.push(text.slice(start, i));
      start = i + 2;
      i++;
    }
  }
  out.push(text.slice(start));
  return out.filter((s, i) => s !== '' || i > 0);
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
  const symbol = context.file.facts.addSymbol({
    kind: node.type === 'class_specifier' ? 'class' : 'struct',
    name,
    qualifiedName,
    signature: signatureBefore(context.file.source, outer, body),
    startLine: startLineOf(outer),
    endLine: endLineOf(outer),
    docstring: doc,
    ...(place.owner === undefined ? {} : { parent: place.owner.symbol }),
  });
  const cls: CppClass = {
    symbol,
    qualifiedName,
    nameLine: startLineOf(node.childForFieldName('name') ?? node),
    bases:
      node.namedChildren
        .find((c) => c?.type === 'base_class_clause')
        ?.namedChildren.filter((c): c is Node => c !== null) ?? [],
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
