/**
 * Java: package, imports, declarations (types, members, enum constants, constants) with Javadoc and
 * annotations, then contracts (gRPC, Kafka, Spring/JAX-RS routes, HTTP clients) from the same walk.
 */
import type { Node } from 'web-tree-sitter';
import { emptyFacts } from '../../facts.js';
import type { Extractor } from '../extractor.js';
import type { AnnotationInfo } from '../shared/jvm/annotations.js';
import { FactBuilder } from '../shared/fact-builder.js';
import { javaContracts } from './contracts.js';
import { gatewayDslRoutes } from './gateway-dsl.js';
import { javaMessaging } from './messaging.js';
import {
  javaAnnotation,
  type JavaClass,
  type JavaClassKind,
  type JavaFile,
  type JavaScope,
  type JavaVar,
  javaString,
  plainType,
} from './model.js';
import {
  type BodyRange,
  docBefore,
  endLineOf,
  lastSegment,
  lineOf,
  shortValue,
  sitesInBodies,
} from '../shared/jvm/common.js';
import { oneLine } from '../shared/tree-utils.js';

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
  walker.collectSites(input.tree.rootNode);
  javaContracts(walker.file, walker.facts, input.path);
  javaMessaging(
    walker.file,
    walker.facts.imports.map((fact) => fact.source),
    walker.facts,
  );
  gatewayDslRoutes(input.source, walker.facts, walker.facts.symbols);
  return walker.facts.build({ package: walker.packageName });
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
        this.importDecl(child);
      } else if (TYPE_KINDS[child.type] !== undefined) {
        this.typeDecl(child, undefined);
      }
    }
  }

  /** Read from the text (`import static a.b.C.*;`): cheaper than asking the tree for each part. */
  private importDecl(node: Node): void {
    const text = node.text.replace(/\/\*[^]*?\*\/|\/\/[^\n]*/g, ' ');
    const match = /^import\s+(static\s+)?([\w$.\s]+?)(\s*\.\s*\*)?\s*;?\s*$/.exec(text);
    if (match === null) return;
    const path = (match[2] ?? '').replace(/\s+/g, '');
    const line = lineOf(node);
    if (match[3] !== undefined) {
      this.facts.addImport({ source: path, names: ['*'], line });
    } else if (match[1] !== undefined) {
      const dot = path.lastIndexOf('.');
      this.facts.addImport({ source: path.slice(0, dot), names: [path.slice(dot + 1)], line });
    } else {
      this.facts.addImport({ source: path, names: [lastSegment(path)], line });
      this.file.imports.set(lastSegment(path), path);
    }
  }

  /**
   * The `modifiers` node (always the first child when present), its keywords (`public`, `static`, …: the
   * text between the annotations) and the source offset where the rest of the declaration starts.
   */
  private modifiers(node: Node): {
    modifiers: Node | undefined;
    annotations: AnnotationInfo[];
    keywords: string[];
    restStart: number;
  } {
    const first = node.firstNamedChild;
    const modifiers = first !== null && first.type === 'modifiers' ? first : undefined;
    if (modifiers === undefined)
      return { modifiers, annotations: [], keywords: [], restStart: node.startIndex };
    const annotations: AnnotationInfo[] = [];
    let rest = '';
    let from = modifiers.startIndex;
    for (const child of modifiers.namedChildren) {
      if (child === null) continue;
      rest += this.source.slice(from, child.startIndex);
      from = child.endIndex;
      if (child.type === 'annotation' || child.type === 'marker_annotation')
        annotations.push(javaAnnotation(child));
    }
    rest += this.source.slice(from, modifiers.endIndex);
    const keywords = rest.split(/\s+/).filter((word) => word !== '');
    return { modifiers, annotations, keywords, restStart: modifiers.endIndex };
  }

  private signature(keywords: readonly string[], from: number, to: number): string {
    const rest = this.source.slice(from, to).replace(/;\s*$/, '');
    return oneLine([...keywords, rest.trim()].join(' '), 'as-written').replace(/\s+/g, ' ');
  }

  private typeDecl(node: Node, outer: JavaClass | undefined): void {
    const kind = TYPE_KINDS[node.type];
    const nameNode = node.childForFieldName('name');
    if (kind === undefined || nameNode === null) return;
    const name = nameNode.text;
    const { annotations, keywords, restStart } = this.modifiers(node);
    const body = node.childForFieldName('body');
    const qualified = outer === undefined ? name : `${outer.qualified}.${name}`;
    const id = this.facts.addSymbol({
      kind: kind === 'enum' ? 'enum' : kind === 'interface' || kind === 'annotation' ? 'interface' : 'class',
      name,
      qualifiedName: qualified,
      signature: this.signature(keywords, restStart, body?.startIndex ?? node.endIndex),
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
    const { annotations, keywords } = this.modifiers(node);
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
        list.push({ node: value, cls });
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
    const { annotations, keywords, restStart } = this.modifiers(node);
    const body = node.childForFieldName('body');
    const id = this.facts.addSymbol({
      kind: 'method',
      name,
      qualifiedName: `${cls.qualified}.${name}`,
      signature: this.signature(keywords, restStart, body?.startIndex ?? node.endIndex),
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
      annotations: this.modifiers(node).annotations,
      line: lineOf(nameNode),
      assigned: [],
    };
    into.set(variable.name, variable);
    return variable;
  }

  private enumConstant(node: Node, cls: JavaClass): void {
    const nameNode = node.childForFieldName('name');
    if (nameNode === null) return;
    const { annotations } = this.modifiers(node);
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

  /**
   * One pass over a body: locals join the scope as they are declared, call and assignment sites are queued
   * for contract detection. Anonymous and local classes are walked as part of the body (their calls belong
   * to the enclosing member) but declare no symbols.
   */
  /** Registers a body; its locals and call sites are collected for the whole file at once (see `collectSites`). */
  private walkBody(root: Node, scope: JavaScope): void {
    this.bodies.push({ start: root.startIndex, end: root.endIndex, scope });
  }

  /**
   * Locals join their scope in document order, before the sites after them are examined; anonymous and
   * local classes are part of the enclosing body (their calls belong to the enclosing member).
   */
  collectSites(root: Node): void {
    sitesInBodies(root, SITE_TYPES, this.bodies, (node, scope) => {
      const type = node.type;
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

function isExported(keywords: readonly string[], outer: JavaClass | undefined): boolean {
  if (keywords.includes('public')) return true;
  return (outer?.kind === 'interface' || outer?.kind === 'annotation') && !keywords.includes('private');
}
