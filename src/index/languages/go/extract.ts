/**
 * Go: declarations (package clause, functions, methods qualified by their receiver type, types, top-level
 * consts and vars, `//` doc comments), imports, and — through go-contracts.ts — gRPC registrations and
 * clients, Kafka producers/consumers and HTTP routes/calls.
 */
import type { Node } from 'web-tree-sitter';
import { emptyFacts, type FileFacts, type SymbolKind } from '../../facts.js';
import type { ExtractInput } from '../extractor.js';
import { goFileTypes } from './call-types.js';
import { collectGoCalls } from './calls.js';
import { collectGoContracts } from './contracts.js';
import { collectDaprSubscriptions } from './dapr-pubsub.js';
import { docAbove, isExported } from './doc-comments.js';
import { collectFieldValues } from './fields.js';
import { declareTypes } from './type-declarations.js';
import { readValueFunc } from './value-funcs.js';
import { urlParts } from './urls.js';
import {
  baseTypeName,
  defaultPackageName,
  goStringLiteral,
  GoScope,
  type GoFile,
  type GoMethod,
} from './scope.js';
import { packageProperties, type PackageValue } from './values.js';
import { FactBuilder } from '../shared/fact-builder.js';
import { rewriteSidecarCalls } from '../shared/dapr.js';
import { markUncalledStubs } from '../shared/grpc-stubs.js';
import { bodyLines, firstLineOf, signatureBefore } from '../shared/native-common.js';
import { endLineOf, oneLine, startLineOf } from '../shared/tree-utils.js';

const ROUTERS: readonly (readonly [string, string])[] = [
  ['github.com/gin-gonic/gin', 'gin'],
  ['github.com/labstack/echo', 'echo'],
  ['github.com/go-chi/chi', 'chi'],
  ['github.com/gorilla/mux', 'gorilla/mux'],
  ['github.com/gofiber/fiber', 'fiber'],
  ['github.com/julienschmidt/httprouter', 'httprouter'],
];

const DECLARATIONS = new Set([
  'function_declaration',
  'method_declaration',
  'type_declaration',
  'const_declaration',
  'var_declaration',
]);

interface Pending {
  /** Function and var nodes whose bodies/initialisers the contract walk visits, with their symbol. */
  readonly walks: {
    readonly node: Node;
    readonly symbol: number;
    readonly receiver?: { name: string; type: string };
  }[];
  readonly funcs: { readonly node: Node; readonly name: string }[];
  readonly methodParents: { readonly symbol: number; readonly type: string }[];
  readonly values: PackageValue[];
}

export function extractGo(input: ExtractInput): FileFacts {
  const tree = input.tree;
  if (tree === undefined) return emptyFacts('go');
  const root = tree.rootNode;
  const source = input.source;
  const facts = new FactBuilder('go');
  const importMap = new Map<string, string>();
  let packageName: string | undefined;

  const children = root.namedChildren.filter((n): n is Node => n !== null);
  // Imports first: everything else reads package names from them.
  for (const child of children) {
    if (child.type === 'package_clause') packageName = child.namedChild(0)?.text;
    if (child.type === 'import_declaration') readImports(child, facts, importMap);
  }

  const file = goFileOf(source, facts, importMap, packageName);
  const fileScope = new GoScope(file, undefined, undefined);
  const pending: Pending = { walks: [], funcs: [], methodParents: [], values: [] };
  const typeIds = new Map<string, number>();

  children.forEach((child, index) => {
    if (!DECLARATIONS.has(child.type)) return;
    const doc = docAbove(children, index, startLineOf(child));
    switch (child.type) {
      case 'function_declaration':
        declareFunction(child, doc, file, pending);
        break;
      case 'method_declaration':
        declareMethod(child, doc, file, pending);
        break;
      case 'type_declaration':
        declareTypes(child, doc, file, typeIds);
        break;
      case 'const_declaration':
      case 'var_declaration':
        declareValues(child, doc, file, fileScope, pending);
        break;
    }
  });

  for (const { symbol, type } of pending.methodParents) {
    const parent = typeIds.get(type);
    const method = facts.symbol(symbol);
    if (parent !== undefined && method !== undefined) method.parent = parent;
  }
  for (const { node, name } of pending.funcs) readValueFunc(node, name, file);

  if (importMap.has('os') || /https?:\/\//.test(source))
    collectFieldValues(tree.rootNode, fileScope, urlParts);
  collectGoContracts(file, fileScope, pending.walks);
  collectDaprSubscriptions(root, fileScope);
  // After the walk: it is what tells which package-level vars a function reassigns.
  const properties = packageProperties(pending.values, fileScope);
  const calls = collectGoCalls(root, file, goFileTypes(children), facts.symbols);

  return rewriteSidecarCalls(
    markUncalledStubs(
      facts.build({
        package: packageName,
        calls,
        ...(properties.length === 0 ? {} : { properties }),
      }),
    ),
  );
}

/** What the whole file's walk reads and fills: its imports, the router and Kafka libraries it uses. */
function goFileOf(
  source: string,
  facts: FactBuilder,
  importMap: Map<string, string>,
  packageName: string | undefined,
): GoFile {
  const importPaths = [...importMap.values()];
  const router =
    ROUTERS.find(([prefix]) => importPaths.some((p) => p === prefix || p.startsWith(`${prefix}/`)))?.[1] ??
    (importPaths.includes('net/http') ? 'net/http' : undefined);
  return {
    source,
    facts,
    imports: importMap,
    valueFuncs: new Map(),
    funcResults: new Map(),
    fieldClients: new Map(),
    anyFieldClient: new Map(),
    httpClientFields: new Map(),
    fieldValues: new Map(),
    anyHttpClientField: new Set(),
    methods: new Map(),
    servedTypes: [],
    mentionsClient: source.includes('Client'),
    router,
    kafka: {
      segmentio: importPaths.some((p) => p.includes('segmentio/kafka-go')),
      confluent: importPaths.some((p) => p.includes('confluent-kafka-go')),
      sarama: importPaths.some((p) => /(^|\/)sarama$/.test(p)),
    },
    packageName,
    reassigned: new Set(),
  };
}

function readImports(declaration: Node, facts: FactBuilder, map: Map<string, string>): void {
  const specs = declaration.descendantsOfType('import_spec');
  for (const spec of specs) {
    if (spec === null) continue;
    const pathNode = spec.childForFieldName('path');
    const path = pathNode === null ? undefined : goStringLiteral(pathNode);
    if (path === undefined) continue;
    const alias = spec.childForFieldName('name')?.text;
    facts.addImport({
      source: path,
      ...(alias === undefined ? {} : { names: [alias] }),
      line: startLineOf(spec),
    });
    if (alias !== '_' && alias !== '.') map.set(alias ?? defaultPackageName(path), path);
  }
}

function declareFunction(node: Node, doc: string | undefined, file: GoFile, pending: Pending): void {
  const name = node.childForFieldName('name')?.text;
  if (name === undefined) return;
  const body = node.childForFieldName('body');
  const symbol = file.facts.addSymbol({
    kind: 'function',
    name,
    qualifiedName: name,
    signature: signatureBefore(file.source, node, body),
    startLine: startLineOf(node),
    endLine: endLineOf(node),
    ...(body === null ? {} : bodyLines(body)),
    docstring: doc,
    exported: isExported(name),
  });
  const result = node.childForFieldName('result');
  if (result !== null) file.funcResults.set(name, oneLine(result.text));
  pending.funcs.push({ node, name });
  if (body !== null) pending.walks.push({ node: body, symbol });
}

function declareMethod(node: Node, doc: string | undefined, file: GoFile, pending: Pending): void {
  const nameNode = node.childForFieldName('name');
  const receiverParam = node
    .childForFieldName('receiver')
    ?.namedChildren.find((n) => n?.type === 'parameter_declaration');
  const receiverType = baseTypeName(receiverParam?.childForFieldName('type') ?? null);
  if (nameNode === null || receiverType === undefined) return;
  const name = nameNode.text;
  const body = node.childForFieldName('body');
  const symbol = file.facts.addSymbol({
    kind: 'method',
    name,
    qualifiedName: `${receiverType}.${name}`,
    signature: signatureBefore(file.source, node, body),
    startLine: startLineOf(node),
    endLine: endLineOf(node),
    ...(body === null ? {} : bodyLines(body)),
    docstring: doc,
    exported: isExported(name),
  });
  pending.methodParents.push({ symbol, type: receiverType });
  const method: GoMethod = {
    symbol,
    name,
    line: startLineOf(nameNode),
    handlerShape: () => isExported(name) && hasHandlerShape(node),
  };
  const list = file.methods.get(receiverType);
  if (list === undefined) file.methods.set(receiverType, [method]);
  else list.push(method);
  const receiverName = receiverParam?.childForFieldName('name')?.text;
  if (body !== null) {
    pending.walks.push({
      node: body,
      symbol,
      ...(receiverName === undefined ? {} : { receiver: { name: receiverName, type: receiverType } }),
    });
  }
}

/**
 * A generated gRPC handler: `M(ctx context.Context, req *X) (*Y, error)`, or a streaming one whose last
 * parameter is the stream (`S_MServer`, `grpc.ServerStreamingServer[T]`) and which returns `error`.
 */
function hasHandlerShape(node: Node): boolean {
  const params = (node.childForFieldName('parameters')?.namedChildren ?? []).filter(
    (n): n is Node => n?.type === 'parameter_declaration',
  );
  const types = params.flatMap((p) => {
    const names = p.childrenForFieldName('name').length;
    const type = oneLine(p.childForFieldName('type')?.text ?? '');
    return Array.from({ length: Math.max(names, 1) }, () => type);
  });
  const result = node.childForFieldName('result');
  const resultText = oneLine(result?.text ?? '');
  if (types.length === 2 && /(^|\.)Context$/.test(types[0] ?? '') && /,\s*(\w+\s+)?error\)$/.test(resultText))
    return true;
  return resultText === 'error' && /(_\w+Server|StreamingServer\[.*\])$/.test(types[types.length - 1] ?? '');
}

function declareValues(
  declaration: Node,
  doc: string | undefined,
  file: GoFile,
  scope: GoScope,
  pending: Pending,
): void {
  const kind: SymbolKind = declaration.type === 'const_declaration' ? 'const' : 'variable';
  const keyword = kind === 'const' ? 'const' : 'var';
  // Grouped vars sit in a `var_spec_list`; grouped consts are direct children. Nested specs (a `var` inside
  // a func literal initialiser) are not top-level declarations.
  const list = declaration.namedChildren.find((n) => n?.type === 'var_spec_list') ?? declaration;
  const siblings = list.namedChildren.filter((n): n is Node => n !== null);
  const specs = siblings.filter((n) => n.type === 'const_spec' || n.type === 'var_spec');
  for (const spec of specs) {
    const names = spec.childrenForFieldName('name').filter((n): n is Node => n !== null && n.text !== '_');
    const values = spec.childForFieldName('value')?.namedChildren.filter((n): n is Node => n !== null) ?? [];
    const type = spec.childForFieldName('type');
    const own = docAbove(
      siblings,
      siblings.findIndex((n) => n.id === spec.id),
      startLineOf(spec),
    );
    const single = specs.length === 1;
    const text = firstLineOf(file.source, spec);
    names.forEach((nameNode, i) => {
      const name = nameNode.text;
      const symbol = file.facts.addSymbol({
        kind,
        name,
        qualifiedName: name,
        signature: `${keyword} ${text}`,
        startLine: startLineOf(single ? declaration : spec),
        endLine: endLineOf(single ? declaration : spec),
        docstring: own ?? (single ? doc : undefined),
        exported: isExported(name),
      });
      const value = values.length === names.length ? values[i] : undefined;
      scope.bind(name, { ...(value === undefined ? {} : { value }), ...(type === null ? {} : { type }) });
      if (value !== undefined) {
        pending.walks.push({ node: value, symbol });
        pending.values.push({ name, value, line: startLineOf(nameNode) });
      }
    });
  }
}
