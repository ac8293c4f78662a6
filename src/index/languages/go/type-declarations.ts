/**
 * Go type declarations: one symbol per type spec (struct, interface, other), and what a struct's fields tell
 * the contract walk: gRPC stubs and HTTP clients held in fields, and embedded `Unimplemented<S>Server`
 * (the struct serves S).
 */
import type { Node } from 'web-tree-sitter';
import type { SymbolKind } from '../../facts.js';
import { docAbove, isExported } from './doc-comments.js';
import { baseTypeName, clientType, isHttpClientType, setFieldClient, type GoFile } from './scope.js';
import { isHealthService } from '../shared/grpc-health.js';
import { bareTypeName } from '../shared/call-sites.js';
import { firstLineOf } from '../shared/native-common.js';
import { endLineOf, oneLine, startLineOf } from '../shared/tree-utils.js';

/** One symbol per spec of a `type` declaration (grouped specs get their own docs); struct fields are read too. */
export function declareTypes(
  declaration: Node,
  doc: string | undefined,
  file: GoFile,
  typeIds: Map<string, number>,
): void {
  const specs = declaration.namedChildren.filter(
    (n): n is Node => n?.type === 'type_spec' || n?.type === 'type_alias',
  );
  specs.forEach((spec) => {
    const name = spec.childForFieldName('name')?.text;
    const type = spec.childForFieldName('type');
    if (name === undefined || type === null) return;
    const kind: SymbolKind =
      spec.type === 'type_spec' && type.type === 'struct_type'
        ? 'struct'
        : spec.type === 'type_spec' && type.type === 'interface_type'
          ? 'interface'
          : 'type';
    // A grouped spec has its own doc; a single one shares the declaration's.
    const own =
      specs.length === 1
        ? undefined
        : docAbove(
            declaration.namedChildren.filter((n): n is Node => n !== null),
            indexIn(declaration, spec),
            startLineOf(spec),
          );
    const keyword = kind === 'struct' ? 'struct' : kind === 'interface' ? 'interface' : undefined;
    const signature =
      keyword === undefined
        ? `type ${firstLineOf(file.source, spec)}`
        : `type ${oneLine(file.source.slice(spec.startIndex, type.startIndex))} ${keyword}`;
    const single = specs.length === 1;
    const supertypes = embeddedTypes(type);
    const symbol = file.facts.addSymbol({
      kind,
      name,
      qualifiedName: name,
      signature,
      startLine: startLineOf(single ? declaration : spec),
      endLine: endLineOf(single ? declaration : spec),
      docstring: own ?? (single ? doc : undefined),
      exported: isExported(name),
      ...(supertypes.length === 0 ? {} : { supertypes }),
    });
    typeIds.set(name, symbol);
    if (kind === 'struct') readStructFields(name, symbol, type, file);
    if (kind === 'interface') declareInterfaceMethods(name, symbol, type, file);
  });
}

/**
 * The types a struct or interface embeds (`*Base`, `io.Reader`), as written without pointer or type
 * arguments: what its method set inherits. A constraint union (`~int | string`) embeds nothing.
 */
function embeddedTypes(type: Node): string[] {
  if (type.type === 'interface_type') {
    return type.namedChildren.flatMap((element) => {
      const only =
        element?.type === 'type_elem' && element.namedChildCount === 1 ? element.namedChild(0) : null;
      return only !== null && /^(type_identifier|qualified_type|generic_type)$/.test(only.type)
        ? [bareTypeName(oneLine(only.text))]
        : [];
    });
  }
  if (type.type !== 'struct_type') return [];
  const list = type.namedChildren.find((n) => n?.type === 'field_declaration_list');
  return (list?.namedChildren ?? []).flatMap((field) => {
    const embedded = field?.type === 'field_declaration' && field.childForFieldName('name') === null;
    const fieldType = embedded ? field.childForFieldName('type') : null;
    return fieldType === null ? [] : [bareTypeName(oneLine(fieldType.text))];
  });
}

/** An interface's methods are symbols of their own, so that calls through it and its implementations meet. */
function declareInterfaceMethods(iface: string, parent: number, type: Node, file: GoFile): void {
  const elements = type.namedChildren.filter((n): n is Node => n !== null);
  elements.forEach((element, index) => {
    const name = element.type === 'method_elem' ? element.childForFieldName('name')?.text : undefined;
    if (name === undefined) return;
    file.facts.addSymbol({
      kind: 'method',
      name,
      qualifiedName: `${iface}.${name}`,
      signature: oneLine(element.text),
      startLine: startLineOf(element),
      endLine: endLineOf(element),
      docstring: docAbove(elements, index, startLineOf(element)),
      exported: isExported(name),
      parent,
    });
  });
}

function indexIn(parent: Node, child: Node): number {
  return parent.namedChildren.findIndex((n) => n?.id === child.id);
}

/** Fields holding gRPC stubs or HTTP clients, and embedded `Unimplemented<S>Server` (the type serves S). */
function readStructFields(struct: string, symbol: number, type: Node, file: GoFile): void {
  const list = type.namedChildren.find((n) => n?.type === 'field_declaration_list');
  for (const field of list?.namedChildren ?? []) {
    if (field?.type !== 'field_declaration') continue;
    const fieldType = field.childForFieldName('type');
    if (fieldType === null) continue;
    const names = field.childrenForFieldName('name').flatMap((n) => (n === null ? [] : [n.text]));
    if (names.length === 0) {
      const embedded = /^(?:Unimplemented|Unsafe)(\w+)Server$/.exec(baseTypeName(fieldType) ?? '');
      const service = embedded?.[1];
      if (service !== undefined && !isHealthService(service)) {
        file.servedTypes.push({ type: struct, service, via: 'Unimplemented*Server' });
        file.facts.addContract({
          kind: 'grpc_server',
          service,
          symbol,
          line: startLineOf(field),
          confidence: 'exact',
          via: 'Unimplemented*Server',
        });
      }
      continue;
    }
    const client = clientType(fieldType, file);
    for (const name of names) {
      if (client !== undefined) {
        setFieldClient(file, struct, name, client);
        file.facts.addContract({
          kind: 'grpc_client',
          service: client.service,
          symbol,
          line: startLineOf(field),
          confidence: client.confidence,
          via: 'field *Client',
        });
      }
      if (isHttpClientType(fieldType, file)) {
        let set = file.httpClientFields.get(struct);
        if (set === undefined) file.httpClientFields.set(struct, (set = new Set()));
        set.add(name);
        file.anyHttpClientField.add(name);
      }
    }
  }
}
