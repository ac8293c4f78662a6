/**
 * Kotlin: package, imports, declarations (classes, objects, interfaces, enums and their entries, functions,
 * properties, type aliases) with KDoc and annotations, then contracts: Spring routes, HTTP clients and
 * Kafka, Ktor routing, kafka-clients, gRPC (grpc-java and grpc-kotlin stubs and `…ImplBase` servers).
 */
import { kotlinMessaging } from './messaging.js';
import type { Node } from 'web-tree-sitter';
import { emptyFacts, type SymbolKind } from '../../facts.js';
import type { Extractor } from '../extractor.js';
import { kotlinContracts } from './contracts.js';
import { type KtorContext, type KtRoute, ktorStep } from './ktor.js';
import { ktImport, ktModifiers } from './declaration-parts.js';
import {
  addLocal,
  addParam,
  childIndex,
  childOfType,
  type DetachedAnnotations,
  detachedAnnotations,
  type KtClass,
  type KtFile,
  type KtScope,
  type KtVar,
  namedChildren,
  plainType,
  valueArguments,
} from './model.js';
import { KtResolver } from './values.js';
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
import type { AnnotationInfo } from '../shared/jvm/annotations.js';
import { FactBuilder } from '../shared/fact-builder.js';
import { constantProperties } from './cross-file-constants.js';
import { inheritedRouteMounts } from '../shared/jvm/inherited-routes.js';
import { KOTLIN_CALL_SEARCH_TYPES, kotlinCalls } from './call-sites.js';
import { TreeSearch } from '../shared/tree-search.js';

const SITE_TYPES: readonly string[] = ['property_declaration', 'assignment', 'call_expression'];

export const extractKotlin: Extractor = (input) => {
  if (input.tree === undefined) return emptyFacts('kotlin');
  const walker = new KotlinWalker(input.source);
  walker.sourceFile(input.tree.rootNode);
  // The body sites, then the declarations and calls, are found in one search of the tree.
  const search = new TreeSearch(input.tree.rootNode, new Set([...SITE_TYPES, ...KOTLIN_CALL_SEARCH_TYPES]));
  walker.collectSites(search);
  kotlinContracts(walker.file, walker.routes, walker.facts, input.path);
  kotlinMessaging(
    walker.file,
    walker.facts.imports.map((fact) => fact.source),
    walker.facts,
  );
  inheritedRouteMounts(
    walker.file,
    // Every Kotlin class extends `Any`, which declares no routes.
    walker.file.classes.filter((cls) => cls.kind === 'class' && cls.superclass !== 'Any'),
    walker.packageName,
    (cls) => new KtResolver(walker.file, cls),
    walker.facts,
  );
  const properties = constantProperties(walker.file, walker.packageName, input.path, input.source);
  const calls = kotlinCalls(search, walker.file.imports, walker.facts.symbols);
  return walker.facts.build({
    package: walker.packageName,
    ...(properties.length === 0 ? {} : { properties }),
    calls,
  });
};

class KotlinWalker {
  readonly facts = new FactBuilder('kotlin');
  readonly routes: KtRoute[] = [];
  private readonly bodies: BodyRange<{ scope: KtScope; ktor: KtorContext }>[] = [];
  packageName: string | undefined;
  readonly file: KtFile = {
    classes: [],
    sites: [],
    constants: new Map(),
    enumMembers: new Map(),
    imports: new Map(),
  };

  constructor(private readonly source: string) {}

  sourceFile(root: Node): void {
    for (const child of namedChildren(root)) {
      if (child.type === 'package_header') {
        const name = childOfType(child, 'qualified_identifier') ?? childOfType(child, 'identifier');
        if (name !== undefined) this.packageName = name.text.replace(/\s+/g, '');
      } else if (child.type === 'import') {
        ktImport(child, this.facts, this.file.imports);
      }
    }
    this.members(root, undefined);
  }

  /**
   * Declarations of a file or class body. The grammar sometimes parses `@A\n@B("x")\nclass C(…)` as an
   * expression `@A @B ("x")` followed by an unannotated class; such annotations are re-attached to the
   * declaration that starts on the next line.
   */
  private members(container: Node, cls: KtClass | undefined): void {
    let detached: DetachedAnnotations | undefined;
    for (const child of namedChildren(container)) {
      if (child.type === 'annotated_expression') {
        detached = { first: child, annotations: detachedAnnotations(child, this.source) };
        continue;
      }
      const leading =
        detached !== undefined && child.startPosition.row === detached.first.endPosition.row + 1
          ? detached
          : undefined;
      detached = undefined;
      if (child.type === 'enum_entry' && cls !== undefined) this.enumEntry(child, cls);
      else this.declaration(child, cls, leading);
    }
  }

  private declaration(node: Node, cls: KtClass | undefined, leading?: DetachedAnnotations): void {
    switch (node.type) {
      case 'class_declaration':
      case 'object_declaration':
      case 'companion_object':
        this.classDecl(node, cls, leading);
        break;
      case 'function_declaration':
        this.functionDecl(node, cls, leading);
        break;
      case 'property_declaration':
        this.propertyDecl(node, cls, leading);
        break;
      case 'secondary_constructor':
        this.functionDecl(node, cls);
        break;
      case 'anonymous_initializer':
        this.walkBody(node, { cls, symbol: cls?.id, vars: new Map() }, NO_ROUTING);
        break;
      case 'type_alias': {
        const name = node.childForFieldName('type');
        if (name !== null)
          this.declare(node, 'type', name.text, cls, this.source.slice(node.startIndex, node.endIndex));
        break;
      }
      default:
        break;
    }
  }

  /** Adds the symbol of a declaration at `node`, with its KDoc and annotations; returns its id. */
  private declare(
    node: Node,
    kind: SymbolKind,
    name: string,
    cls: KtClass | undefined,
    signature: string,
    extra: {
      keywords?: readonly string[];
      annotations?: readonly AnnotationInfo[];
      body?: Node;
      leading?: DetachedAnnotations;
    } = {},
  ): number {
    const annotations = extra.annotations ?? [];
    const keywords = extra.keywords ?? [];
    const first = extra.leading?.first ?? node;
    return this.facts.addSymbol({
      kind,
      name,
      qualifiedName: cls === undefined ? name : `${cls.qualified}.${name}`,
      signature: oneLine(signature, 'as-written').replace(/\s+/g, ' '),
      startLine: lineOf(first),
      endLine: endLineOf(node),
      bodyStartLine: extra.body === undefined ? undefined : lineOf(extra.body),
      bodyEndLine: extra.body === undefined ? undefined : endLineOf(extra.body),
      docstring: docBefore(this.source, first.startIndex),
      decorators: annotations.length === 0 ? undefined : annotations.map((a) => a.text),
      parent: cls?.id,
      exported: !keywords.some((k) => k === 'private' || k === 'internal' || k === 'protected'),
    });
  }

  private sig(keywords: readonly string[], from: number, to: number): string {
    return [...keywords, this.source.slice(from, to).trim()].join(' ');
  }

  private classDecl(node: Node, outer: KtClass | undefined, leading?: DetachedAnnotations): void {
    const parts = childIndex(node);
    const nameNode = parts.first.get('identifier');
    const name = nameNode?.text ?? 'Companion';
    const { annotations, keywords, restStart } = ktModifiers(this.source, node, parts, leading);
    const body = parts.first.get('class_body') ?? parts.first.get('enum_class_body');
    const kind: KtClass['kind'] =
      node.type === 'companion_object'
        ? 'companion'
        : node.type === 'object_declaration'
          ? 'object'
          : parts.first.has('interface')
            ? 'interface'
            : keywords.includes('enum')
              ? 'enum'
              : 'class';
    const symbolKind = kind === 'interface' ? 'interface' : kind === 'enum' ? 'enum' : 'class';
    const signature = this.sig(keywords, restStart, body?.startIndex ?? node.endIndex);
    const id = this.declare(node, symbolKind, name, outer, signature, {
      keywords,
      annotations,
      body,
      leading,
    });
    const specs = parts.first.get('delegation_specifiers');
    const supertypes: string[] = [];
    const supertypesWritten: string[] = [];
    let superclass: string | undefined;
    for (const spec of specs?.namedChildren ?? []) {
      if (spec === null || spec.type !== 'delegation_specifier') continue;
      const inner = spec.firstNamedChild;
      const typeNode = inner?.type === 'constructor_invocation' ? inner.firstNamedChild : inner;
      const type = typeNode?.type === 'user_type' ? plainType(typeNode) : undefined;
      if (type !== undefined) supertypes.push(type);
      if (type !== undefined && inner?.type === 'constructor_invocation') superclass ??= type;
      if (typeNode?.type === 'user_type') supertypesWritten.push(typeNode.text);
    }
    const cls: KtClass = {
      id,
      name,
      qualified: outer === undefined ? name : `${outer.qualified}.${name}`,
      kind,
      nameLine: lineOf(nameNode ?? node),
      outer,
      superclass,
      annotations,
      supertypes,
      supertypesWritten,
      fields: new Map(),
      functions: [],
    };
    this.file.classes.push(cls);
    const symbol = this.facts.symbol(id);
    if (symbol !== undefined && supertypes.length > 0) symbol.supertypes = supertypes;
    const params = parts.first.get('primary_constructor')?.lastNamedChild;
    for (const param of params?.type === 'class_parameters' ? params.namedChildren : []) {
      if (param !== null && param.type === 'class_parameter') addParam(param, cls.fields);
    }
    if (specs !== undefined) this.walkBody(specs, { cls, symbol: id, vars: new Map() }, NO_ROUTING);
    if (body !== undefined) this.members(body, cls);
  }

  private enumEntry(node: Node, cls: KtClass): void {
    const parts = childIndex(node);
    const nameNode = parts.first.get('identifier');
    if (nameNode === undefined) return;
    const body = parts.first.get('class_body');
    const signature = this.source.slice(node.startIndex, body?.startIndex ?? node.endIndex);
    const id = this.declare(node, 'enum_member', nameNode.text, cls, signature);
    const first = valueArguments(parts.first.get('value_arguments'))[0]?.value;
    const value = first === undefined ? undefined : new KtResolver(this.file, cls).string(first);
    this.file.enumMembers.set(`${cls.name}.${nameNode.text}`, value ?? nameNode.text);
    if (body !== undefined) this.walkBody(body, { cls, symbol: id, vars: new Map() }, NO_ROUTING);
  }

  private functionDecl(node: Node, cls: KtClass | undefined, leading?: DetachedAnnotations): void {
    const parts = childIndex(node);
    const nameNode = node.type === 'secondary_constructor' ? undefined : parts.first.get('identifier');
    const name = nameNode?.text ?? 'constructor';
    const { annotations, keywords, restStart } = ktModifiers(this.source, node, parts, leading);
    const body = parts.first.get('function_body') ?? parts.first.get('block');
    const kind = cls === undefined ? 'function' : 'method';
    const signature = this.sig(keywords, restStart, body?.startIndex ?? node.endIndex);
    const id = this.declare(node, kind, name, cls, signature, { keywords, annotations, body, leading });
    cls?.functions.push({
      id,
      name,
      line: lineOf(nameNode ?? node),
      annotations,
      keywords: new Set(keywords),
      // `fun name(…): Consumer<Order>`: the declared return type, read after the last parameter list.
      returnType: /\)\s*:\s*([\w.]+)[^)]*$/.exec(signature)?.[1],
    });
    const vars = new Map<string, KtVar>();
    for (const param of parts.first.get('function_value_parameters')?.namedChildren ?? []) {
      if (param !== null && param.type === 'parameter') addParam(param, vars);
    }
    // `fun Route.orders() { get("/x") { … } }`: the receiver type before the name makes the body a routing block.
    const receiver = parts.first.get('user_type');
    const routing =
      receiver !== undefined &&
      nameNode !== undefined &&
      receiver.endIndex <= nameNode.startIndex &&
      /^(?:Route|Routing)$/.test(lastSegment(plainType(receiver) ?? ''));
    const delegation = parts.first.get('constructor_delegation_call');
    if (delegation !== undefined) this.walkBody(delegation, { cls, symbol: id, vars }, NO_ROUTING);
    if (body !== undefined) this.walkBody(body, { cls, symbol: id, vars }, { routing, prefix: '' });
  }

  private propertyDecl(node: Node, cls: KtClass | undefined, leading?: DetachedAnnotations): void {
    const parts = childIndex(node);
    const declaration = parts.first.get('variable_declaration');
    const declParts = declaration === undefined ? undefined : childIndex(declaration);
    const nameNode = declParts?.first.get('identifier');
    if (declaration === undefined || declParts === undefined || nameNode === undefined) return;
    const { annotations, keywords, restStart } = ktModifiers(this.source, node, parts, leading);
    const isConst = keywords.includes('const');
    const equals = parts.first.get('=');
    const init =
      equals === undefined
        ? undefined
        : parts.all.find((part) => part.node.startIndex > equals.startIndex && !part.type.endsWith('comment'))
            ?.node;
    const shown = init === undefined ? undefined : shortValue(init.text);
    let signature = this.sig(keywords, restStart, declaration.endIndex);
    if (shown !== undefined) signature += ` = ${shown}`;
    const kind: SymbolKind = isConst ? 'const' : cls === undefined ? 'variable' : 'property';
    const id = this.declare(node, kind, nameNode.text, cls, signature, { keywords, annotations, leading });
    const variable: KtVar = {
      name: nameNode.text,
      type: plainType(declParts.first.get('user_type') ?? declParts.first.get('nullable_type')),
      init,
      isParam: false,
      annotations,
      symbol: id,
      line: lineOf(nameNode),
      assigned: [],
    };
    cls?.fields.set(variable.name, variable);
    // Constants: `const val`, and `val`s of files, objects and companions initialised once.
    const isVal = parts.first.has('val');
    if (
      init !== undefined &&
      isVal &&
      (isConst || cls === undefined || cls.kind === 'object' || cls.kind === 'companion')
    ) {
      const list = this.file.constants.get(variable.name) ?? [];
      list.push({ node: init, cls, variable, reachable: !keywords.includes('private') });
      this.file.constants.set(variable.name, list);
    }
    const scope: KtScope = { cls, symbol: id, vars: new Map() };
    for (const part of [
      init,
      parts.first.get('property_delegate'),
      parts.first.get('getter'),
      parts.first.get('setter'),
    ]) {
      if (part !== undefined) this.walkBody(part, scope, NO_ROUTING);
    }
  }

  /** Registers a body; its locals and call sites are collected for the whole file at once (see `collectSites`). */
  private walkBody(root: Node, scope: KtScope, ktor: KtorContext): void {
    this.bodies.push({ start: root.startIndex, end: root.endIndex, scope: { scope, ktor } });
  }

  /**
   * Locals join their scope in document order; calls and assignments are queued for contract detection;
   * Ktor routing blocks open a context over the source range of their call.
   */
  collectSites(root: Node | TreeSearch): void {
    const opened: { end: number; context: KtorContext }[] = [];
    sitesInBodies(root, SITE_TYPES, this.bodies, (node, { scope, ktor }, type) => {
      if (type === 'property_declaration') {
        addLocal(node, scope.vars);
        return;
      }
      if (type === 'assignment') {
        this.file.sites.push({ node, scope });
        return;
      }
      const start = node.startIndex;
      while (opened.length > 0 && (opened[opened.length - 1]?.end ?? 0) <= start) opened.pop();
      // `f(x) { … }` nests `f(x)` inside the lambda call: the inner call is the site, the outer gives the lambda.
      const first = node.firstNamedChild;
      const lambda = node.lastNamedChild;
      const wrapper = first?.type === 'call_expression' && lambda?.type === 'annotated_lambda';
      if (!wrapper) this.file.sites.push({ node, scope });
      if (lambda?.type !== 'annotated_lambda') return;
      const current = opened[opened.length - 1]?.context ?? ktor;
      const next = ktorStep(node, this.file, scope, current, this.routes);
      if (next !== current) opened.push({ end: node.endIndex, context: next });
    });
  }
}

const NO_ROUTING: KtorContext = { routing: false, prefix: '' };
