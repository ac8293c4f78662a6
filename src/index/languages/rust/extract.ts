/**
 * Rust: declarations (fns, structs, enums and variants, traits, impls with their methods qualified
 * `Type::method`, consts/statics, mods, type aliases; `///` docs; attributes as decorators), imports (`use`
 * trees expanded to one path each, `mod x;`, `extern crate`), the `include_proto!` package, and — through
 * rust-contracts.ts — tonic services and clients, rdkafka topics, axum/actix routes and reqwest/awc calls.
 */
import type { Node } from 'web-tree-sitter';
import { emptyFacts, type FileFacts } from '../../facts.js';
import type { ExtractInput } from '../extractor.js';
import { rustFieldTypes } from './call-types.js';
import { collectRustCalls, rustCallers } from './calls.js';
import { collectRustContracts, type RustFile, type RustImpl, type RustWalk } from './contracts.js';
import { bareTypeName } from '../shared/call-sites.js';
import { FactBuilder } from '../shared/fact-builder.js';
import { rewriteSidecarCalls } from '../shared/dapr.js';
import { markUncalledStubs } from '../shared/grpc-stubs.js';
import { bodyLines, docText, firstLineOf, signatureBefore } from '../shared/native-common.js';
import { rustAttributeRoute } from './http.js';
import { rustString, rustTypeName } from './values.js';
import { endLineOf, oneLine, startLineOf } from '../shared/tree-utils.js';

interface Context {
  readonly file: RustFile;
  readonly walks: RustWalk[];
  readonly impls: RustImpl[];
  readonly structs: { readonly name: string; readonly symbol: number; readonly body: Node }[];
  packageName: string | undefined;
}

interface Owner {
  /** `Type` for impl methods, `Trait` for trait methods. */
  readonly name: string;
  readonly symbol: number;
  /** Collects the methods of a trait impl, which may be gRPC handlers. */
  readonly methods?: RustImpl['methods'];
}

export function extractRust(input: ExtractInput): FileFacts {
  const tree = input.tree;
  if (tree === undefined) return emptyFacts('rust');
  const file: RustFile = {
    source: input.source,
    facts: new FactBuilder('rust'),
    uses: new Map(),
    consts: new Map(),
    fieldClients: new Map(),
    anyFieldClient: new Map(),
    httpClientFields: new Map(),
    flags: { tonic: false, rdkafka: false, reqwest: false, awc: false },
    mentionsClient: input.source.includes('Client'),
  };
  const context: Context = { file, walks: [], impls: [], structs: [], packageName: undefined };
  declareItems(tree.rootNode, '', undefined, context);
  const paths = [...file.uses.values()];
  file.flags.tonic ||= paths.some((p) => /^tonic(::|$)/.test(p));
  file.flags.rdkafka = paths.some((p) => /^rdkafka(::|$)/.test(p));
  file.flags.reqwest = paths.some((p) => /^reqwest(::|$)/.test(p));
  file.flags.awc = paths.some((p) => /^awc(::|$)/.test(p));
  collectRustContracts(file, context.walks, context.impls, context.structs);
  const calls = collectRustCalls(
    tree.rootNode,
    rustFieldTypes(context.structs, file.uses),
    new Set(file.facts.imports.map((i) => i.source)),
    rustCallers(context.walks, file.facts),
    file.facts.symbols,
  );
  return rewriteSidecarCalls(markUncalledStubs(file.facts.build({ package: context.packageName, calls })));
}

function declareItems(container: Node, prefix: string, owner: Owner | undefined, context: Context): void {
  let docs: string[] = [];
  let attributes: Node[] = [];
  for (const item of container.namedChildren) {
    if (item === null) continue;
    if (item.type === 'line_comment' || item.type === 'block_comment') {
      // `///` and `/** */` are `#[doc]` attributes: they attach to the next item even across blank lines.
      if (item.childForFieldName('outer') !== null) docs.push(item.text);
      continue;
    }
    if (item.type === 'attribute_item') {
      attributes.push(item);
      continue;
    }
    declareItem(item, prefix, owner, docText(docs), attributes, context);
    docs = [];
    attributes = [];
  }
}

/** An item being declared: where it sits, and the fields every symbol it declares shares. */
interface Item {
  readonly node: Node;
  readonly name: string | undefined;
  readonly prefix: string;
  readonly owner: Owner | undefined;
  readonly attributes: readonly Node[];
  readonly common: {
    readonly startLine: number;
    readonly endLine: number;
    readonly docstring: string | undefined;
    readonly decorators?: string[];
    readonly exported: boolean;
  };
}

function declareItem(
  node: Node,
  prefix: string,
  owner: Owner | undefined,
  doc: string | undefined,
  attributes: readonly Node[],
  context: Context,
): void {
  const decorators = attributes.map((a) => oneLine(a.text));
  const item: Item = {
    node,
    name: node.childForFieldName('name')?.text,
    prefix,
    owner,
    attributes,
    common: {
      startLine: startLineOf(node),
      endLine: endLineOf(node),
      docstring: doc,
      ...(decorators.length === 0 ? {} : { decorators }),
      exported: node.namedChildren.some((c) => c?.type === 'visibility_modifier' && c.text === 'pub'),
    },
  };
  switch (node.type) {
    case 'function_item':
    case 'function_signature_item':
      return declareFunction(item, context);
    case 'struct_item':
    case 'union_item':
    case 'enum_item':
    case 'trait_item':
    case 'type_item':
      return declareType(item, context);
    case 'impl_item':
      return declareImpl(item, context);
    case 'mod_item':
      return declareModule(item, context);
    case 'const_item':
    case 'static_item':
      return declareValue(item, context);
    case 'use_declaration':
      return readUse(node, context);
    case 'extern_crate_declaration':
      return readExternCrate(node, context);
    case 'macro_invocation':
      return readIncludeProto(node, context);
  }
}

/** `prefix` + the owner's name + `name`: `shop::Cart::add`. */
function qualifiedIn(item: Item, name: string): string {
  return `${item.prefix}${item.owner === undefined ? '' : `${item.owner.name}::`}${name}`;
}

/** A function or method; its body is walked for contracts, its route attributes are routes. */
function declareFunction(item: Item, context: Context): void {
  const { node, name, owner } = item;
  const { file } = context;
  if (name === undefined) return;
  const body = node.childForFieldName('body');
  const symbol = file.facts.addSymbol({
    kind: owner === undefined ? 'function' : 'method',
    name,
    qualifiedName: qualifiedIn(item, name),
    signature: signatureBefore(file.source, node, body),
    ...item.common,
    ...(body === null ? {} : bodyLines(body)),
    ...(owner === undefined ? {} : { parent: owner.symbol }),
  });
  if (body !== null)
    context.walks.push({
      node: body,
      symbol,
      owner: owner?.name,
      params: node.childForFieldName('parameters'),
    });
  const modifiers = node.namedChildren.find((c) => c?.type === 'function_modifiers');
  const line = startLineOf(node.childForFieldName('name') ?? node);
  owner?.methods?.push({
    symbol,
    name,
    line,
    isAsync: modifiers?.children.some((c) => c?.type === 'async') ?? false,
  });
  for (const attribute of item.attributes) {
    for (const route of rustAttributeRoute(attribute)) {
      file.facts.addContract({
        kind: 'http_route',
        method: route.method,
        path: route.path,
        symbol,
        line,
        via: route.via,
      });
    }
  }
}

const TYPE_KINDS: Readonly<Record<string, 'enum' | 'trait' | 'type' | 'struct'>> = {
  enum_item: 'enum',
  trait_item: 'trait',
  type_item: 'type',
};

/** A struct, union, enum (with its variants), trait (with its methods) or type alias. */
function declareType(item: Item, context: Context): void {
  const { node, name, prefix, owner } = item;
  const { file } = context;
  if (name === undefined) return;
  const kind = TYPE_KINDS[node.type] ?? 'struct';
  const body = node.childForFieldName('body');
  const supertypes = traitPaths(node.childForFieldName('bounds')?.namedChildren ?? []);
  const symbol = file.facts.addSymbol({
    kind,
    name,
    qualifiedName: qualifiedIn(item, name),
    signature: kind === 'type' ? firstLineOf(file.source, node) : signatureBefore(file.source, node, body),
    ...item.common,
    ...(owner === undefined ? {} : { parent: owner.symbol }),
    ...(supertypes.length === 0 ? {} : { supertypes }),
  });
  if (body === null) return;
  if (kind === 'trait')
    declareItems(body, prefix, { name: qualifiedIn(item, name).slice(prefix.length), symbol }, context);
  else if (kind === 'enum') declareVariants(body, qualifiedIn(item, name), symbol, context);
  else if (node.type === 'struct_item') context.structs.push({ name, symbol, body });
}

/** `impl T` / `impl Trait for T`: its methods are `T::method`; a trait impl may be a gRPC server. */
function declareImpl(item: Item, context: Context): void {
  const { node, prefix } = item;
  const { file } = context;
  const typeName = rustTypeName(node.childForFieldName('type'));
  const body = node.childForFieldName('body');
  if (typeName === undefined) return;
  const trait = node.childForFieldName('trait');
  const supertypes = traitPaths(trait === null ? [] : [trait]);
  const symbol = file.facts.addSymbol({
    kind: 'impl',
    name: typeName,
    qualifiedName: `${prefix}${typeName}`,
    signature: signatureBefore(file.source, node, body),
    ...item.common,
    ...(supertypes.length === 0 ? {} : { supertypes }),
  });
  const methods: RustImpl['methods'] = [];
  if (trait !== null) context.impls.push({ trait, type: typeName, line: startLineOf(node), symbol, methods });
  if (body !== null) declareItems(body, prefix, { name: typeName, symbol, methods }, context);
}

/** Traits named by a trait's bounds or an impl, without type arguments; lifetimes and `?Sized` are none. */
function traitPaths(nodes: readonly (Node | null)[]): string[] {
  return nodes.flatMap((n) =>
    n !== null && /^(type_identifier|scoped_type_identifier|generic_type)$/.test(n.type)
      ? [bareTypeName(oneLine(n.text))]
      : [],
  );
}

/** `mod x { … }` qualifies what it declares; `mod x;` imports the file of that name. */
function declareModule(item: Item, context: Context): void {
  const { node, name } = item;
  const { file } = context;
  if (name === undefined) return;
  const body = node.childForFieldName('body');
  file.facts.addSymbol({
    kind: 'module',
    name,
    qualifiedName: qualifiedIn(item, name),
    signature: signatureBefore(file.source, node, body),
    ...item.common,
  });
  if (body === null) file.facts.addImport({ source: name, line: startLineOf(node) });
  else declareItems(body, `${qualifiedIn(item, name)}::`, undefined, context);
}

/** A `const` or `static`: a symbol, and a value that topic and URL resolution can read. */
function declareValue(item: Item, context: Context): void {
  const { node, name } = item;
  const { file } = context;
  if (name === undefined) return;
  const symbol = file.facts.addSymbol({
    kind: node.type === 'const_item' ? 'const' : 'variable',
    name,
    qualifiedName: qualifiedIn(item, name),
    signature: firstLineOf(file.source, node).replace(/;$/, ''),
    ...item.common,
  });
  const value = node.childForFieldName('value');
  if (value !== null) {
    const list = file.consts.get(name);
    if (list === undefined) file.consts.set(name, [value]);
    else list.push(value);
    context.walks.push({ node: value, symbol, owner: undefined, params: null });
  }
}

/** `extern crate x as y;` imports `x`, bound as `y`. */
function readExternCrate(node: Node, context: Context): void {
  const crate = node.childForFieldName('name')?.text;
  const alias = node.childForFieldName('alias')?.text;
  if (crate === undefined) return;
  context.file.facts.addImport({
    source: crate,
    ...(alias === undefined ? {} : { names: [alias] }),
    line: startLineOf(node),
  });
  context.file.uses.set(alias ?? crate, crate);
}

function declareVariants(body: Node, enumName: string, parent: number, context: Context): void {
  for (const variant of body.namedChildren) {
    const name = variant?.type === 'enum_variant' ? variant.childForFieldName('name')?.text : undefined;
    if (variant === null || name === undefined) continue;
    context.file.facts.addSymbol({
      kind: 'enum_member',
      name,
      qualifiedName: `${enumName}::${name}`,
      signature: oneLine(variant.text),
      startLine: startLineOf(variant),
      endLine: endLineOf(variant),
      parent,
    });
  }
}

/** `tonic::include_proto!("shop.inventory.v1")` names the protobuf package the file's module holds. */
function readIncludeProto(item: Node, context: Context): void {
  const macro = item.childForFieldName('macro');
  const name = macro?.type === 'scoped_identifier' ? macro.childForFieldName('name')?.text : macro?.text;
  if (name !== 'include_proto') return;
  context.file.flags.tonic = true;
  const literal = item.namedChildren
    .find((c) => c?.type === 'token_tree')
    ?.namedChildren.find((c) => c !== null);
  const value = literal === null || literal === undefined ? undefined : rustString(literal);
  if (value !== undefined) context.packageName ??= value;
}

/** One import per leaf of the use tree: `use a::{b::C as D, e::*}` → `a::b::C` (names `D`) and `a::e::*`. */
function readUse(item: Node, context: Context): void {
  const line = startLineOf(item);
  const leaves: { path: string; name?: string }[] = [];
  const walk = (node: Node, prefix: string): void => {
    const join = (tail: string): string => (prefix === '' ? tail : `${prefix}::${tail}`);
    switch (node.type) {
      case 'scoped_use_list': {
        const path = node.childForFieldName('path');
        const list = node.childForFieldName('list');
        const next = path === null ? prefix : join(oneLine(path.text));
        for (const child of list?.namedChildren ?? []) if (child !== null) walk(child, next);
        return;
      }
      case 'use_list':
        for (const child of node.namedChildren) if (child !== null) walk(child, prefix);
        return;
      case 'use_as_clause': {
        const path = node.childForFieldName('path');
        const alias = node.childForFieldName('alias')?.text;
        if (path !== null)
          leaves.push({ path: join(oneLine(path.text)), ...(alias === undefined ? {} : { name: alias }) });
        return;
      }
      case 'use_wildcard': {
        const inner = node.namedChild(0);
        leaves.push({ path: `${inner === null ? prefix : join(oneLine(inner.text))}::*` });
        return;
      }
      case 'self':
        leaves.push({ path: prefix, name: prefix.split('::').pop() ?? prefix });
        return;
      default: {
        const path = join(oneLine(node.text));
        leaves.push({ path, name: path.split('::').pop() ?? path });
      }
    }
  };
  const argument = item.childForFieldName('argument');
  if (argument !== null) walk(argument, '');
  for (const leaf of leaves) {
    context.file.facts.addImport({
      source: leaf.path,
      ...(leaf.name === undefined ? {} : { names: [leaf.name] }),
      line,
    });
    if (leaf.name !== undefined) context.file.uses.set(leaf.name, leaf.path);
  }
}
