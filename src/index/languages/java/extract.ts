/**
 * Java: package, imports, declarations (types, members, enum constants, constants) with Javadoc and
 * annotations, then contracts (gRPC, Kafka, Spring/JAX-RS routes, HTTP clients) from the same walk.
 */
import type { Node } from 'web-tree-sitter';
import { emptyFacts } from '../../facts.js';
import type { Extractor } from '../extractor.js';
import { FactBuilder } from '../shared/fact-builder.js';
import { amqpBeanProperties } from './amqp-beans.js';
import { constantProperties } from './cross-file-constants.js';
import { javaContracts } from './contracts.js';
import { inheritedRouteMounts } from '../shared/jvm/inherited-routes.js';
import { gatewayDslRoutes } from './gateway-dsl.js';
import { javaMessaging } from './messaging.js';
import { isExported, javaImport, javaModifiers, javaSignature } from './declaration-parts.js';
import {
  type JavaClass,
  type JavaClassKind,
  type JavaFile,
  type JavaScope,
  type JavaVar,
  JavaResolver,
  javaString,
  plainType,
} from './model.js';
import {
  type BodyRange,
  docBefore,
  endLineOf,
  lineOf,
  shortValue,
  sitesInBodies,
} from '../shared/jvm/common.js';
import { oneLine } from '../shared/tree-utils.js';
import { JAVA_CALL_SEARCH_TYPES, javaCalls } from './call-sites.js';
import { TreeSearch } from '../shared/tree-search.js';

const TYPE_KINDS: Readonly<Record<string, JavaClassKind>> = {
  class_declaration: 'class',
  interface_declaration: 'interface',
  enum_declaration: 'enum',
  record_declaration: 'record',
  annotation_type_declaration: 'annotation',
};

const SITE_TYPES: readonly string[] = [
  'local_variable_declaration',
  'method_invocation',
  'object_creation_expression',
  'assignment_expression',
];

export const extractJava: Extractor = (input) => {
  if (input.tree === undefined) return emptyFacts('java');
  const walker = new JavaWalker(input.source);
  walker.program(input.tree.rootNode);
  // The body sites, then the declarations and calls, are found in one search of the tree.
  const search = new TreeSearch(input.tree.rootNode, new Set([...SITE_TYPES, ...JAVA_CALL_SEARCH_TYPES]));
  walker.collectSites(search);
  javaContracts(walker.file, walker.facts, input.path);
  inheritedRouteMounts(
    walker.file,
    walker.file.classes.filter((cls) => cls.kind === 'class'),
    walker.packageName,
    (cls) => new JavaResolver(walker.file, cls),
    walker.facts,
  );
  javaMessaging(
    walker.file,
    walker.facts.imports.map((fact) => fact.source),
    walker.facts,
  );
  gatewayDslRoutes(input.source, walker.facts, walker.facts.symbols);
  const properties = [
    ...amqpBeanProperties(
      walker.file,
      walker.facts.imports.map((fact) => fact.source),
    ),
    ...constantProperties(walker.file, walker.packageName),
  ];
  const calls = javaCalls(search, walker.file, walker.facts.symbols);
  return walker.facts.build({
    package: walker.packageName,
    ...(properties.length === 0 ? {} : { properties }),
    calls,
  });
};

const childOfType = (node: Node, type: string): Node | undefined =>
  node.namedChildren.find((child): child is Node => child !== null && child.type === type);

class JavaWalker {
  readonly facts = new FactBuilder('java');
  private readonly bodies: BodyRange<JavaScope>[] = [];
  packageName: string | undefined;
  readonly file: JavaFile = {
    classes: [],
    sites: [],
    constants: new Map(),
    enumMembers: new Map(),
    imports: new Map(),
    staticImports: new Map(),
    staticWildcards: [],
  };

  constructor(private readonly source: string) {}

  program(root: Node): void {
    for (const child of root.namedChildren) {
      if (child === null) continue;
      if (child.type === 'package_declaration') {
        const name = child.namedChildren.find(
          (c) => c !== null && (c.type === 'scoped_identifier' || c.type === 'identifier'),
        );
        if (name) this.packageName = name.text.replace(/\s+/g, '');
      } else if (child.type === 'import_declaration') {
        javaImport(child, this.facts, this.file);
      } else if (TYPE_KINDS[child.type] !== undefined) {
        this.typeDecl(child, undefined);
      }
    }
  }

  private typeDecl(node: Node, outer: JavaClass | undefined): void {
    const kind = TYPE_KINDS[node.type];
    const nameNode = node.childForFieldName('name');
    if (kind === undefined || nameNode === null) return;
    const name = nameNode.text;
    const { annotations, keywords, restStart } = javaModifiers(node, this.source);
    const body = node.childForFieldName('body');
    const qualified = outer === undefined ? name : `${outer.qualified}.${name}`;
    const id = this.facts.addSymbol({
      kind: kind === 'enum' ? 'enum' : kind === 'interface' || kind === 'annotation' ? 'interface' : 'class',
      name,
      qualifiedName: qualified,
      signature: javaSignature(this.source, keywords, restStart, body?.startIndex ?? node.endIndex),
      startLine: lineOf(node),
      endLine: endLineOf(node),
      bodyStartLine: body === null ? undefined : lineOf(body),
      bodyEndLine: body === null ? undefined : endLineOf(body),
      docstring: docBefore(this.source, node.startIndex),
      decorators: annotations.length === 0 ? undefined : annotations.map((a) => a.text),
      parent: outer?.id,
      exported: isExported(keywords, outer),
    });
    const superclass = node.childForFieldName('superclass')?.namedChildren[0] ?? null;
    const interfaces = (childOfType(node, 'super_interfaces') ?? childOfType(node, 'extends_interfaces'))
      ?.namedChildren[0];
    const cls: JavaClass = {
      id,
      name,
      qualified,
      kind,
      nameLine: lineOf(nameNode),
      outer,
      annotations,
      superclass: plainType(superclass),
      interfaces: (interfaces?.namedChildren ?? []).flatMap((t) => {
        const type = plainType(t);
        return type === undefined ? [] : [type];
      }),
      interfacesWritten: (interfaces?.namedChildren ?? []).flatMap((t) => (t === null ? [] : [t.text])),
      fields: new Map(),
      methods: [],
    };
    this.file.classes.push(cls);
    const supertypes = [...(cls.superclass === undefined ? [] : [cls.superclass]), ...cls.interfaces];
    const symbol = this.facts.symbol(id);
    if (symbol !== undefined && supertypes.length > 0) symbol.supertypes = supertypes;
    if (kind === 'record') {
      for (const param of node.childForFieldName('parameters')?.namedChildren ?? []) {
        if (param !== null && param.type === 'formal_parameter') this.param(param, cls.fields);
      }
    }
    if (body !== null) this.members(body, cls);
  }

  private members(body: Node, cls: JavaClass): void {
    for (const member of body.namedChildren) {
      if (member === null) continue;
      switch (member.type) {
        case 'field_declaration':
        case 'constant_declaration':
          this.field(member, cls);
          break;
        case 'method_declaration':
        case 'constructor_declaration':
        case 'compact_constructor_declaration':
        case 'annotation_type_element_declaration':
          this.method(member, cls);
          break;
        case 'enum_constant':
          this.enumConstant(member, cls);
          break;
        case 'enum_body_declarations':
          this.members(member, cls);
          break;
        case 'static_initializer':
        case 'block':
          this.walkBody(member, { cls, symbol: cls.id, vars: new Map() });
          break;
        default:
          if (TYPE_KINDS[member.type] !== undefined) this.typeDecl(member, cls);
      }
    }
  }

  private field(node: Node, cls: JavaClass): void {
    const { annotations, keywords } = javaModifiers(node, this.source);
    const typeNode = node.childForFieldName('type');
    const typeText = typeNode === null ? '' : oneLine(typeNode.text, 'as-written');
    const isConst =
      (keywords.includes('static') && keywords.includes('final')) ||
      cls.kind === 'interface' ||
      cls.kind === 'annotation';
    for (const declarator of node.childrenForFieldName('declarator')) {
      const nameNode = declarator?.childForFieldName('name');
      if (!declarator || !nameNode) continue;
      const value = declarator.childForFieldName('value');
      const shown = value === null ? undefined : shortValue(value.text);
      const id = this.facts.addSymbol({
        kind: isConst ? 'const' : 'field',
        name: nameNode.text,
        qualifiedName: `${cls.qualified}.${nameNode.text}`,
        signature: [
          ...keywords,
          typeText,
          shown === undefined ? nameNode.text : `${nameNode.text} = ${shown}`,
        ].join(' '),
        startLine: lineOf(node),
        endLine: endLineOf(node),
        docstring: docBefore(this.source, node.startIndex),
        decorators: annotations.length === 0 ? undefined : annotations.map((a) => a.text),
        parent: cls.id,
        exported: isExported(keywords, cls),
      });
      const variable: JavaVar = {
        name: nameNode.text,
        type: plainType(typeNode),
        init: value ?? undefined,
        isParam: false,
        annotations,
        symbol: id,
        line: lineOf(nameNode),
        assigned: [],
      };
      cls.fields.set(variable.name, variable);
      if (isConst && value !== null) {
        const list = this.file.constants.get(variable.name) ?? [];
        list.push({ node: value, cls, field: variable, reachable: !keywords.includes('private') });
        this.file.constants.set(variable.name, list);
      }
      if (value !== null) this.walkBody(value, { cls, symbol: id, vars: new Map() });
    }
  }

  private method(node: Node, cls: JavaClass): void {
    const nameNode = node.childForFieldName('name');
    const isConstructor =
      node.type !== 'method_declaration' && node.type !== 'annotation_type_element_declaration';
    const name = nameNode?.text ?? cls.name;
    const { annotations, keywords, restStart } = javaModifiers(node, this.source);
    const body = node.childForFieldName('body');
    const id = this.facts.addSymbol({
      kind: 'method',
      name,
      qualifiedName: `${cls.qualified}.${name}`,
      signature: javaSignature(this.source, keywords, restStart, body?.startIndex ?? node.endIndex),
      startLine: lineOf(node),
      endLine: endLineOf(node),
      bodyStartLine: body === null ? undefined : lineOf(body),
      bodyEndLine: body === null ? undefined : endLineOf(body),
      docstring: docBefore(this.source, node.startIndex),
      decorators: annotations.length === 0 ? undefined : annotations.map((a) => a.text),
      parent: cls.id,
      exported: isExported(keywords, cls),
    });
    const vars = new Map<string, JavaVar>();
    let lastParamType: string | undefined;
    const params: string[] = [];
    for (const param of node.childForFieldName('parameters')?.namedChildren ?? []) {
      if (param !== null && (param.type === 'formal_parameter' || param.type === 'spread_parameter')) {
        const variable = this.param(param, vars);
        lastParamType = variable?.type;
        params.push(variable?.name ?? '');
      }
    }
    cls.methods.push({
      id,
      name,
      line: lineOf(nameNode ?? node),
      annotations,
      keywords: new Set(keywords),
      isConstructor,
      returnType: plainType(node.childForFieldName('type')),
      lastParamType,
      params,
      body: body ?? undefined,
      scope: { cls, symbol: id, vars },
    });
    if (body !== null) this.walkBody(body, { cls, symbol: id, vars });
  }

  private param(node: Node, into: Map<string, JavaVar>): JavaVar | undefined {
    const nameNode =
      node.childForFieldName('name') ?? childOfType(node, 'variable_declarator')?.childForFieldName('name');
    if (!nameNode) return undefined;
    const variable: JavaVar = {
      name: nameNode.text,
      type: plainType(
        node.childForFieldName('type') ??
          node.namedChildren.find((c) => c !== null && c.type.endsWith('type')) ??
          null,
      ),
      init: undefined,
      isParam: true,
      annotations: javaModifiers(node, this.source).annotations,
      line: lineOf(nameNode),
      assigned: [],
    };
    into.set(variable.name, variable);
    return variable;
  }

  private enumConstant(node: Node, cls: JavaClass): void {
    const nameNode = node.childForFieldName('name');
    if (nameNode === null) return;
    const { annotations } = javaModifiers(node, this.source);
    const body = node.childForFieldName('body');
    const id = this.facts.addSymbol({
      kind: 'enum_member',
      name: nameNode.text,
      qualifiedName: `${cls.qualified}.${nameNode.text}`,
      signature: oneLine(
        this.source.slice(nameNode.startIndex, body?.startIndex ?? node.endIndex),
        'as-written',
      ),
      startLine: lineOf(node),
      endLine: endLineOf(node),
      docstring: docBefore(this.source, node.startIndex),
      decorators: annotations.length === 0 ? undefined : annotations.map((a) => a.text),
      parent: cls.id,
      exported: true,
    });
    // `RED("r")` stands for "r" when used as a topic; a constant without a string argument for its name.
    const first = node.childForFieldName('arguments')?.namedChildren[0];
    const value = first?.type === 'string_literal' ? javaString(first) : nameNode.text;
    this.file.enumMembers.set(`${cls.name}.${nameNode.text}`, value);
    this.file.enumMembers.set(`${cls.qualified}.${nameNode.text}`, value);
    if (body !== null) this.walkBody(body, { cls, symbol: id, vars: new Map() });
  }

  /** Registers a body; its locals and call sites are collected for the whole file at once (see `collectSites`). */
  private walkBody(root: Node, scope: JavaScope): void {
    this.bodies.push({ start: root.startIndex, end: root.endIndex, scope });
  }

  /**
   * Locals join their scope in document order, before the sites after them are examined; anonymous and
   * local classes are part of the enclosing body (their calls belong to the enclosing member).
   */
  collectSites(root: Node | TreeSearch): void {
    sitesInBodies(root, SITE_TYPES, this.bodies, (node, scope, type) => {
      if (type === 'local_variable_declaration') this.local(node, scope);
      else if (type === 'method_invocation') {
        const nameNode = node.childForFieldName('name');
        if (nameNode !== null) {
          this.file.sites.push({
            node,
            scope,
            nameNode,
            name: nameNode.text,
            object: node.childForFieldName('object'),
          });
        }
      } else this.file.sites.push({ node, scope, nameNode: null, name: '', object: null });
    });
  }

  private local(node: Node, scope: JavaScope): void {
    const type = plainType(node.childForFieldName('type'));
    for (const declarator of node.childrenForFieldName('declarator')) {
      const nameNode = declarator?.childForFieldName('name');
      if (!declarator || !nameNode) continue;
      scope.vars.set(nameNode.text, {
        name: nameNode.text,
        type,
        init: declarator.childForFieldName('value') ?? undefined,
        isParam: false,
        annotations: [],
        line: lineOf(nameNode),
        assigned: [],
      });
    }
  }
}
