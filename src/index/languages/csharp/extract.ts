/**
 * C#: declarations (namespaces as the package; classes, records, structs, interfaces, enums, methods,
 * constructors, properties, constants, with attributes and `///` docs), `using` imports, and contracts —
 * gRPC service bases and generated clients, Confluent.Kafka producers and consumers, other brokers'
 * topics (`messaging.ts`), ASP.NET controller and minimal-API routes, and HttpClient calls.
 */
import type { PropertyFact } from '../../facts.js';
import type { Node } from 'web-tree-sitter';
import type { SymbolKind } from '../../facts.js';
import { emptyFacts } from '../../facts.js';
import {
  actionRoutes,
  attributesOf,
  bindingOfType,
  clientService,
  controllerPrefix,
  serviceBase,
} from './contracts.js';
import { CsScope, innermostClass, newCsFrame, TYPE_DECLARATIONS, type CsFrame } from './scope.js';
import { CsCalls } from './calls.js';
import { CsMessaging } from './messaging.js';
import { constantProperties } from './constants.js';
import { DECLARATIVE_CLIENTS } from './http-clients.js';
import { declarationSymbol, innerLines, signatureStart, usingSource } from './decl.js';
import { readAssignment, readLocalDeclaration, type CsLocals } from './locals.js';
import { kids } from './values.js';
import type { Extractor } from '../extractor.js';
import { rewriteSidecarCalls } from '../shared/dapr.js';
import { FactBuilder } from '../shared/fact-builder.js';
import { markUncalledStubs } from '../shared/grpc-stubs.js';
import { walkSites } from '../shared/site-walk.js';
import { startLineOf } from '../shared/tree-utils.js';
import { csharpCalls } from './call-sites.js';
import { csSupertypes } from './declared-types.js';

const SITES: ReadonlySet<string> = new Set([
  'class_declaration',
  'record_declaration',
  'struct_declaration',
  'interface_declaration',
  'enum_declaration',
  'using_directive',
  'namespace_declaration',
  'local_declaration_statement',
  'assignment_expression',
  'object_creation_expression',
  'invocation_expression',
  'lambda_expression',
  'local_function_statement',
  'anonymous_method_expression',
]);
// Interpolated strings hold expressions, so only comments, plain literals and names are skipped.
const LEAVES: ReadonlySet<string> = new Set([
  'comment',
  'identifier',
  'predefined_type',
  'string_literal',
  'verbatim_string_literal',
  'raw_string_literal',
  'integer_literal',
  'boolean_literal',
  'null_literal',
]);

const TYPE_KINDS: Readonly<Record<string, SymbolKind>> = {
  class_declaration: 'class',
  record_declaration: 'class',
  struct_declaration: 'struct',
  interface_declaration: 'interface',
  enum_declaration: 'enum',
};

/** Where a member is declared: its class's symbol and qualified name, the route prefix, the namespace. */
interface MemberPlace {
  readonly owner: number;
  readonly outer: string;
  readonly prefix: string;
  readonly namespace: string;
}

class CsharpExtraction {
  readonly facts = new FactBuilder('csharp');
  package: string | undefined;
  private firstNamespace: string | undefined;
  private readonly scope = new CsScope();
  private readonly messaging = new CsMessaging(this.facts);
  private readonly calls = new CsCalls(this.scope, this.facts, this.messaging);
  private readonly locals: CsLocals = { scope: this.scope, messaging: this.messaging, calls: this.calls };
  /** Client bases this file registers, for the files of its service that use those clients; its constants. */
  properties: PropertyFact[] = [];
  /** String constants other files may use (`constants.ts`). */
  private readonly constants: PropertyFact[] = [];

  constructor(
    private readonly source: string,
    root: Node,
  ) {
    this.scope.collect(root);
    this.visitChildren(root, newCsFrame(), undefined, '');
    this.package ??= this.firstNamespace;
    this.properties = [...this.calls.finish(), ...this.constants];
    this.messaging.finish();
  }

  private visitChildren(node: Node, frame: CsFrame, owner: number | undefined, namespace: string): void {
    let current = namespace;
    for (const child of kids(node)) {
      if (child.type === 'file_scoped_namespace_declaration') {
        // Everything after a file-scoped namespace (its siblings) belongs to it.
        current = child.childForFieldName('name')?.text ?? current;
        this.firstNamespace ??= current;
      }
      this.visit(child, frame, owner, current);
    }
  }

  /** Reads `node` and its subtree. */
  private visit(node: Node, frame: CsFrame, owner: number | undefined, namespace: string): void {
    if (this.site(node, node.type, frame, owner, namespace)) return;
    walkSites(node, SITES, LEAVES, (site, type) => this.site(site, type, frame, owner, namespace));
  }

  /** Reads one site; true when its subtree has been read already. */
  private site(
    node: Node,
    type: string,
    frame: CsFrame,
    owner: number | undefined,
    namespace: string,
  ): boolean {
    if (TYPE_KINDS[type] !== undefined) {
      this.typeDeclaration(node, frame, owner, namespace);
      return true;
    }
    switch (type) {
      case 'using_directive': {
        const source = usingSource(node);
        if (source !== undefined) this.facts.addImport({ source, line: startLineOf(node) });
        return true;
      }
      case 'namespace_declaration': {
        const name = node.childForFieldName('name')?.text ?? '';
        const full = namespace === '' ? name : `${namespace}.${name}`;
        this.firstNamespace ??= full;
        this.visitChildren(node.childForFieldName('body') ?? node, frame, owner, full);
        return true;
      }
      case 'local_declaration_statement':
        readLocalDeclaration(node, frame, this.locals);
        return false;
      case 'assignment_expression':
        readAssignment(node, frame, this.locals);
        return false;
      case 'object_creation_expression': {
        const service = clientService(node.childForFieldName('type'));
        if (service !== undefined)
          this.grpcClient(service, undefined, startLineOf(node), owner, 'new *Client');
        return false;
      }
      case 'invocation_expression':
        this.calls.invocation(node, frame, owner);
        return false;
      case 'lambda_expression':
      case 'local_function_statement':
      case 'anonymous_method_expression': {
        const inner = newCsFrame(frame);
        this.messaging.attributes(node, this.scope.valueScope(frame), owner);
        walkSites(node, SITES, LEAVES, (site, siteType) =>
          this.site(site, siteType, inner, owner, namespace),
        );
        return true;
      }
      default:
        return false;
    }
  }

  private grpcClient(
    service: string,
    method: string | undefined,
    line: number,
    owner: number | undefined,
    via: string,
  ): void {
    this.calls.grpcClient(service, method, line, owner, via);
  }

  private typeDeclaration(node: Node, frame: CsFrame, owner: number | undefined, namespace: string): void {
    if (this.package === undefined && namespace !== '') this.package = namespace;
    const name = node.childForFieldName('name')?.text ?? '';
    const outer = owner === undefined ? undefined : this.facts.symbol(owner);
    const qualified = outer === undefined ? name : `${outer.qualifiedName}.${name}`;
    const body = node.childForFieldName('body');
    const supertypes = csSupertypes(node);
    const id = this.facts.addSymbol({
      ...declarationSymbol(this.source, node, TYPE_KINDS[node.type] ?? 'class', name, qualified, body, owner),
      ...(supertypes.length === 0 ? {} : { supertypes }),
    });
    const info = this.scope.byNode.get(node.id);
    const classFrame = newCsFrame(frame, info);
    const nameLine = startLineOf(node.childForFieldName('name') ?? node);
    for (const base of kids(kids(node).find((child) => child.type === 'base_list'))) {
      const service = serviceBase(base);
      if (service === undefined || info === undefined) continue;
      info.service = service;
      this.facts.addContract(
        { kind: 'grpc_server', service, line: nameLine, confidence: 'exact', via: 'ServiceBase subclass' },
        { owner: id },
      );
    }
    this.messaging.classBases(node, id, nameLine);
    const prefix = controllerPrefix(attributesOf(node), name);
    for (const member of kids(body)) this.member(member, classFrame, id, qualified, prefix, namespace);
  }

  private member(
    node: Node,
    frame: CsFrame,
    owner: number,
    outer: string,
    prefix: string,
    namespace: string,
  ): void {
    const place: MemberPlace = { owner, outer, prefix, namespace };
    switch (node.type) {
      case 'method_declaration':
      case 'constructor_declaration':
        this.method(node, frame, place);
        return;
      case 'property_declaration':
        this.property(node, frame, place);
        return;
      case 'field_declaration':
        this.fields(node, frame, place);
        return;
      case 'enum_member_declaration': {
        const name = node.childForFieldName('name')?.text ?? '';
        this.facts.addSymbol({
          ...declarationSymbol(this.source, node, 'enum_member', name, `${outer}.${name}`, null, owner),
          exported: true,
        });
        return;
      }
      default:
        if (TYPE_DECLARATIONS.has(node.type)) this.typeDeclaration(node, frame, owner, namespace);
        else if (node.type !== 'comment') this.visit(node, frame, owner, namespace);
    }
  }

  /** A method or constructor: a gRPC handler when it overrides a service base, routes by its attributes. */
  private method(node: Node, frame: CsFrame, { owner, outer, prefix, namespace }: MemberPlace): void {
    const name = node.childForFieldName('name')?.text ?? '';
    const line = startLineOf(node.childForFieldName('name') ?? node);
    const body = node.childForFieldName('body');
    const symbol = declarationSymbol(this.source, node, 'method', name, `${outer}.${name}`, body, owner);
    if (body?.type === 'block') Object.assign(symbol, innerLines(body));
    const id = this.facts.addSymbol(symbol);
    const methodFrame = this.parameters(node, frame, id, node.type === 'constructor_declaration');
    const cls = innermostClass(frame);
    const isOverride = kids(node).some((child) => child.type === 'modifier' && child.text === 'override');
    if (cls?.service !== undefined && isOverride) {
      this.facts.addContract(
        {
          kind: 'grpc_server',
          service: cls.service,
          method: name,
          line,
          confidence: 'exact',
          via: 'ServiceBase override',
        },
        { owner: id },
      );
    }
    const attributes = attributesOf(node);
    this.messaging.attributes(node, this.scope.valueScope(methodFrame), id);
    const library = this.declarativeLibrary();
    if (library !== undefined && cls !== undefined && node.parent?.parent?.type === 'interface_declaration') {
      for (const attribute of attributes)
        this.calls.declarativeMethod(attribute, library, cls.name, line, id);
    }
    for (const route of actionRoutes(attributes, prefix, name)) {
      this.facts.addContract(
        { kind: 'http_route', method: route.method, path: route.path, line, via: route.via },
        { owner: id },
      );
      this.messaging.route(
        route.method,
        route.path,
        body ?? undefined,
        this.scope.valueScope(methodFrame),
        id,
      );
    }
    if (body !== null) this.visit(body, methodFrame, id, namespace);
  }

  /** A property: a gRPC client when typed as one; its accessors and initialiser are walked. */
  private property(node: Node, frame: CsFrame, { owner, outer, namespace }: MemberPlace): void {
    const name = node.childForFieldName('name')?.text ?? '';
    const line = startLineOf(node.childForFieldName('name') ?? node);
    const accessors = node.childForFieldName('accessors');
    const value = node.childForFieldName('value');
    const autoProperty =
      accessors !== null && kids(accessors).every((accessor) => accessor.childForFieldName('body') === null);
    const symbol = declarationSymbol(
      this.source,
      node,
      'property',
      name,
      `${outer}.${name}`,
      autoProperty ? null : (accessors ?? value),
      owner,
    );
    if (autoProperty && accessors !== null) {
      symbol.signature = this.source.slice(signatureStart(node), accessors.endIndex).replace(/\s+/g, ' ');
    }
    const id = this.facts.addSymbol(symbol);
    const service = clientService(node.childForFieldName('type'));
    if (service !== undefined) this.grpcClient(service, undefined, line, id, 'typed client field');
    for (const child of [accessors, value])
      if (child !== null) this.visit(child, newCsFrame(frame), id, namespace);
  }

  /** Fields: a symbol for each constant; a gRPC client when typed as one; initialisers are walked. */
  private fields(node: Node, frame: CsFrame, { owner, outer, namespace }: MemberPlace): void {
    const declaration = kids(node).find((child) => child.type === 'variable_declaration');
    const isConst = kids(node).some((child) => child.type === 'modifier' && child.text === 'const');
    this.constants.push(...constantProperties(node, outer, namespace, this.scope.valueScope(frame)));
    for (const variable of kids(declaration).filter((child) => child.type === 'variable_declarator')) {
      const name = variable.childForFieldName('name')?.text ?? '';
      const symbolId = isConst
        ? this.facts.addSymbol(
            declarationSymbol(this.source, node, 'const', name, `${outer}.${name}`, null, owner),
          )
        : undefined;
      const service = clientService(declaration?.childForFieldName('type'));
      if (service !== undefined)
        this.grpcClient(service, undefined, startLineOf(variable), owner, 'typed client field');
      this.visit(variable, frame, symbolId ?? owner, namespace);
    }
  }

  /** A method frame with its typed parameters bound; constructor parameters typed as a client are injections. */
  private parameters(node: Node, frame: CsFrame, id: number, constructor: boolean): CsFrame {
    const methodFrame = newCsFrame(frame);
    for (const parameter of kids(node.childForFieldName('parameters'))) {
      const parameterName = parameter.childForFieldName('name')?.text;
      if (parameterName === undefined) continue;
      const type = parameter.childForFieldName('type');
      this.scope.bindLocal(methodFrame, parameterName, bindingOfType(type), undefined);
      this.messaging.declared(methodFrame, parameterName, type, undefined);
      const service = clientService(type);
      if (service !== undefined && constructor)
        this.grpcClient(service, undefined, startLineOf(parameter), id, 'typed client parameter');
    }
    return methodFrame;
  }

  /** The declarative HTTP client library (Refit, RestEase) this file imports, if any. */
  private declarativeLibrary(): string | undefined {
    const imported = new Set(this.facts.imports.map((fact) => fact.source));
    return DECLARATIVE_CLIENTS.find((client) => imported.has(client.library))?.library;
  }
}

export const extractCsharp: Extractor = (input) => {
  if (input.tree === undefined) return emptyFacts('csharp');
  const extraction = new CsharpExtraction(input.source, input.tree.rootNode);
  // A stub whose service has no method called in the file is only constructed: never a `calls_rpc` edge.
  const { properties } = extraction;
  const calls = csharpCalls(input.tree.rootNode, extraction.facts.symbols);

  return rewriteSidecarCalls(
    markUncalledStubs(
      extraction.facts.build({
        package: extraction.package,
        ...(properties.length > 0 ? { properties } : {}),
        calls,
      }),
    ),
  );
};
