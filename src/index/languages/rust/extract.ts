/**
 * Rust: declarations (fns, structs, enums and variants, traits, impls with their methods qualified
 * `Type::method`, consts/statics, mods, type aliases; `///` docs; attributes as decorators), imports (`use`
 * trees expanded to one path each, `mod x;`, `extern crate`), the `include_proto!` package, and — through
 * rust-contracts.ts — tonic services and clients, rdkafka topics, axum/actix routes and reqwest/awc calls.
 */
import type { Node } from 'web-tree-sitter';
import { emptyFacts, type FileFacts } from '../../facts.js';
import type { ExtractInput } from '../extractor.js';
import { collectRustContracts, type RustFile, type RustImpl, type RustWalk } from './contracts.js';
import { FactBuilder } from '../shared/fact-builder.js';
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
  return file.facts.build({ package: context.packageName });
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

function declareItem(
  item: Node,
  prefix: string,
  owner: Owner | undefined,
  doc: string | undefined,
  attributes: readonly Node[],
  context: Context,
): void {
  const { file } = context;
  const name = item.childForFieldName('name')?.text;
  const decorators = attributes.map((a) => oneLine(a.text));
  const common = {
    startLine: startLineOf(item),
    endLine: endLineOf(item),
    docstring: doc,
    ...(decorators.length === 0 ? {} : { decorators }),
    exported: item.namedChildren.some((c) => c?.type === 'visibility_modifier' && c.text === 'pub'),
  };
  const qualified = (n: string): string => `${prefix}${owner === undefined ? '' : `${owner.name}::`}${n}`;
  switch (item.type) {
    case 'function_item':
    case 'function_signature_item': {
      if (name === undefined) return;
      const body = item.childForFieldName('body');
      const symbol = file.facts.addSymbol({
        kind: owner === undefined ? 'function' : 'method',
        name,
        qualifiedName: qualified(name),
        signature: signatureBefore(file.source, item, body),
        ...common,
        ...(body === null ? {} : bodyLines(body)),
        ...(owner === undefined ? {} : { parent: owner.symbol }),
      });
      if (body !== null)
        context.walks.push({
          node: body,
          symbol,
          owner: owner?.name,
          params: item.childForFieldName('parameters'),
        });
      const modifiers = item.namedChildren.find((c) => c?.type === 'function_modifiers');
      owner?.methods?.push({
        symbol,
        name,
        line: startLineOf(item.childForFieldName('name') ?? item),
        isAsync: modifiers?.children.some((c) => c?.type === 'async') ?? false,
      });
      for (const attribute of attributes) {
        for (const route of rustAttributeRoute(attribute)) {
          file.facts.addContract({
            kind: 'http_route',
            method: route.method,
            path: route.path,
            symbol,
            line: startLineOf(item.childForFieldName('name') ?? item),
            via: route.via,
          });
        }
      }
      return;
    }
    case 'struct_item':
    case 'union_item':
    case 'enum_item':
    case 'trait_item':
    case 'type_item': {
      if (name === undefined) return;
      const kind =
        item.type === 'enum_item'
          ? 'enum'
          : item.type === 'trait_item'
            ? 'trait'
            : item.type === 'type_item'
              ? 'type'
              : 'struct';
      const body = item.childForFieldName('body');
      const symbol = file.facts.addSymbol({
        kind,
        name,
        qualifiedName: qualified(name),
        signature:
          kind === 'type' ? firstLineOf(file.source, item) : signatureBefore(file.source, item, body),
        ...common,
        ...(owner === undefined ? {} : { parent: owner.symbol }),
      });
      if (body === null) return;
      if (kind === 'trait')
        declareItems(body, prefix, { name: qualified(name).slice(prefix.length), symbol }, context);
      else if (kind === 'enum') declareVariants(body, qualified(name), symbol, context);
      else if (item.type === 'struct_item') context.structs.push({ name, symbol, body });
      return;
    }
    case 'impl_item': {
      const type = item.childForFieldName('type');
      const typeName = rustTypeName(type);
      const body = item.childForFieldName('body');
      if (typeName === undefined) return;
      const symbol = file.facts.addSymbol({
        kind: 'impl',
        name: typeName,
        qualifiedName: `${prefix}${typeName}`,
        signature: signatureBefore(file.source, item, body),
        ...common,
      });
      const trait = item.childForFieldName('trait');
      const methods: RustImpl['methods'] = [];
      if (trait !== null)
        context.impls.push({ trait, type: typeName, line: startLineOf(item), symbol, methods });
      if (body !== null) declareItems(body, prefix, { name: typeName, symbol, methods }, context);
      return;
    }
    case 'mod_item': {
      if (name === undefined) return;
      const body = item.childForFieldName('body');
      file.facts.addSymbol({
        kind: 'module',
        name,
        qualifiedName: qualified(name),
        signature: signatureBefore(file.source, item, body),
        ...common,
      });
      if (body === null) file.facts.addImport({ source: name, line: startLineOf(item) });
      else declareItems(body, `${qualified(name)}::`, undefined, context);
      return;
    }
    case 'const_item':
    case 'static_item': {
      if (name === undefined) return;
      const symbol = file.facts.addSymbol({
        kind: item.type === 'const_item' ? 'const' : 'variable',
        name,
        qualifiedName: qualified(name),
        signature: firstLineOf(file.source, item).replace(/;$/, ''),
        ...common,
      });
      const value = item.childForFieldName('value');
      if (value !== null) {
        const list = file.consts.get(name);
        if (list === undefined) file.consts.set(name, [value]);
        else list.push(value);
        context.walks.push({ node: value, symbol, owner: undefined, params: null });
      }
      return;
    }
    case 'use_declaration':
      readUse(item, context);
      return;
    case 'extern_crate_declaration': {
      const crate = item.childForFieldName('name')?.text;
      const alias = item.childForFieldName('alias')?.text;
      if (crate !== undefined) {
        file.facts.addImport({
          source: crate,
          ...(alias === undefined ? {} : { names: [alias] }),
          line: startLineOf(item),
        });
        file.uses.set(alias ?? crate, crate);
      }
      return;
    }
    case 'macro_invocation':
      readIncludeProto(item, context);
      return;
  }
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
