/**
 * TypeScript, TSX and JavaScript extraction: declarations, imports, and gRPC/event/HTTP contracts, in one
 * walk of the tree. Contract evidence is read into plain data during the walk and resolved at the end
 * (see typescript-model.ts), because the constant, enum or field it depends on may be declared later.
 */
import type { Node } from 'web-tree-sitter';
import { emptyFacts, type FileFacts } from '../../facts.js';
import type { Extractor } from '../extractor.js';
import { typescriptCalls } from './calls.js';
import { ClassWalker } from './classes.js';
import { finishStubs } from './grpc-stubs.js';
import { importFact, reexportFact } from './imports.js';
import type { DecoratorInfo } from './model.js';
import { branchMethods, type BranchMethod } from './nextjs-methods.js';
import { nextRouteFacts, wrappedHandlers, type ExportedFunction } from './routes.js';
import {
  defaultExportOf,
  exportedFunctions,
  type DefaultExport,
  type ExportAlias,
} from './exported-functions.js';
import { stringValue, toVal, type Val } from './values.js';
import { cap, cleanDoc, named } from './declaration-text.js';
import { FUNCTION_VALUES, NO_LOCALS } from './walk.js';
import { objectFunctions } from './object-functions.js';

import type { MutableSymbol } from '../shared/fact-builder.js';

interface Doc {
  readonly text: string;
  readonly endRow: number;
}

class Walker extends ClassWalker {
  protected readonly exportAliases: ExportAlias[] = [];

  protected readonly exportedTopLevel: ExportedFunction[] = [];

  /**
   * `name` is the exported binding; `wrapped` the identifiers passed to a wrapper call
   * (`export default withAuth(handler)`), innermost first: the first one declared here is the handler.
   */
  protected defaultExport: DefaultExport | undefined;

  private root: Node | undefined;

  program(root: Node): void {
    this.root = root;
    this.statements(root, undefined, '');
  }

  /** Statements of the program or a namespace: declarations become symbols, everything is walked. */
  protected statements(container: Node, parent: number | undefined, prefix: string): void {
    let doc: Doc | undefined;
    for (const child of named(container)) {
      if (child.type === 'comment') {
        if (child.text.startsWith('/**')) doc = { text: child.text, endRow: child.endPosition.row };
        continue;
      }
      const docText =
        doc !== undefined && doc.endRow >= child.startPosition.row - 1 ? cleanDoc(doc.text) : undefined;
      doc = undefined;
      if (child.type === 'export_statement') this.exportStatement(child, parent, prefix, docText);
      else if (this.declaration(child, parent, prefix, false, docText, []) === false) this.visit(child);
    }
  }

  protected exportStatement(
    node: Node,
    parent: number | undefined,
    prefix: string,
    doc: string | undefined,
  ): void {
    const source = node.childForFieldName('source');
    const line = node.startPosition.row + 1;
    if (source !== null) {
      this.facts.addImport(reexportFact(node, source));
      return;
    }
    const isDefault = node.children.some((c) => c?.type === 'default');
    const decorators = named(node)
      .filter((c) => c.type === 'decorator')
      .map((d) => this.decorator(d));
    const declaration = node.childForFieldName('declaration');
    if (declaration !== null) {
      const id = this.declaration(declaration, parent, prefix, true, doc, decorators);
      if (isDefault && id !== false)
        this.defaultExport = { symbol: id, line: this.facts.symbol(id)?.startLine ?? line };
      return;
    }
    const value = node.childForFieldName('value');
    if (value !== null) {
      if (value.type === 'identifier') {
        this.exportedNames.add(value.text);
        this.defaultExport = { name: value.text, line };
      } else if (value.type === 'class' || FUNCTION_VALUES.has(value.type)) {
        const id =
          value.type === 'class'
            ? this.classDeclaration(value, parent, prefix, true, doc, decorators)
            : this.functionLike(value, 'default', parent, prefix, true, doc);
        this.defaultExport = { symbol: id, line: value.startPosition.row + 1 };
      } else {
        // Any other value is still the default export: Next.js serves `export default withSentry(handler)`.
        const wrapped = wrappedHandlers(value);
        this.defaultExport = { ...(wrapped.length === 0 ? {} : { wrapped }), line };
        this.visit(value);
      }
      return;
    }
    for (const child of named(node)) {
      if (child.type === 'export_clause') {
        for (const spec of named(child)) {
          const local = spec.childForFieldName('name')?.text;
          if (local === undefined) continue;
          this.exportedNames.add(local);
          const alias = spec.childForFieldName('alias')?.text;
          this.exportAliases.push({ local, exported: alias ?? local, line: spec.startPosition.row + 1 });
        }
      } else if (child.type === 'identifier') this.exportedNames.add(child.text);
    }
  }

  /** Records a declaration; returns its symbol id, `-1` for a declaration without a symbol, false for a non-declaration. */
  protected declaration(
    node: Node,
    parent: number | undefined,
    prefix: string,
    exported: boolean,
    doc: string | undefined,
    decorators: readonly DecoratorInfo[],
  ): number | false {
    switch (node.type) {
      case 'class_declaration':
      case 'abstract_class_declaration':
        return this.classDeclaration(node, parent, prefix, exported, doc, decorators);
      case 'function_declaration':
      case 'generator_function_declaration':
        return this.functionLike(
          node,
          node.childForFieldName('name')?.text ?? 'default',
          parent,
          prefix,
          exported,
          doc,
        );
      case 'function_signature':
        return this.functionSignature(node, parent, prefix, exported, doc);
      case 'lexical_declaration':
      case 'variable_declaration':
        this.variables(node, parent, prefix, exported, doc);
        return -1;
      case 'enum_declaration':
        return this.enumDeclaration(node, parent, prefix, exported, doc);
      case 'interface_declaration':
        return this.interfaceDeclaration(node, parent, prefix, exported, doc);
      case 'type_alias_declaration': {
        const name = node.childForFieldName('name')?.text ?? '';
        return this.addSymbol(
          'type',
          name,
          prefix + name,
          node,
          node.startIndex,
          node.endIndex,
          this.meta(parent, exported, doc),
        );
      }
      case 'internal_module':
      case 'module':
        return this.namespaceDeclaration(node, parent, prefix, exported, doc);
      case 'ambient_declaration':
      case 'expression_statement': {
        const inner = node.firstNamedChild;
        if (inner === null || (node.type === 'expression_statement' && inner.type !== 'internal_module'))
          return false;
        return this.declaration(inner, parent, prefix, exported, doc, decorators);
      }
      case 'import_statement': {
        const fact = importFact(node, this.state.importBindings);
        if (fact !== undefined) this.facts.addImport(fact);
        return -1;
      }
      default:
        return false;
    }
  }

  /** An overload is shown once, by its implementation; a lone `declare function` signature is the symbol. */
  protected functionSignature(
    node: Node,
    parent: number | undefined,
    prefix: string,
    exported: boolean,
    doc: string | undefined,
  ): number {
    const name = node.childForFieldName('name')?.text ?? '';
    const wrapper = node.parent;
    const wrapperType = wrapper === null ? undefined : wrapper.type;
    let next = (
      wrapper !== null && (wrapperType === 'export_statement' || wrapperType === 'ambient_declaration')
        ? wrapper
        : node
    ).nextNamedSibling;
    if (next?.type === 'export_statement') next = next.childForFieldName('declaration');
    if (
      (next?.type === 'function_declaration' || next?.type === 'function_signature') &&
      next.childForFieldName('name')?.text === name
    )
      return -1;
    return this.functionLike(node, name, parent, prefix, exported, doc);
  }

  /** `namespace N { … }` and `declare module 'm' { … }`: a symbol, and the prefix of what they declare. */
  protected namespaceDeclaration(
    node: Node,
    parent: number | undefined,
    prefix: string,
    exported: boolean,
    doc: string | undefined,
  ): number {
    const nameNode = node.childForFieldName('name');
    const name = nameNode?.type === 'string' ? stringValue(nameNode) : (nameNode?.text ?? '');
    const body = node.childForFieldName('body');
    const kind = node.type === 'internal_module' ? 'namespace' : 'module';
    const id = this.addSymbol(
      kind,
      name,
      prefix + name,
      node,
      node.startIndex,
      body?.startIndex ?? node.endIndex,
      this.meta(parent, exported, doc),
    );
    if (body !== null) this.statements(body, id, `${prefix}${name}.`);
    return id;
  }

  /** Top-level (or namespace-level) functions, arrow-function constants and function expressions. */
  protected functionLike(
    node: Node,
    name: string,
    parent: number | undefined,
    prefix: string,
    exported: boolean,
    doc: string | undefined,
    fnNode = node,
    sigPrefix = '',
  ): number {
    const body = fnNode.childForFieldName('body');
    const id = this.addSymbol(
      'function',
      name,
      prefix + name,
      node,
      node.startIndex,
      body?.startIndex ?? node.endIndex,
      { ...this.meta(parent, exported, doc), ...this.bodyLines(body) },
    );
    const symbol = this.facts.symbol(id) as MutableSymbol;
    if (sigPrefix !== '') symbol.signature = cap(`${sigPrefix} ${symbol.signature ?? ''}`);
    if (parent === undefined && exported && name !== 'default') {
      this.exportedTopLevel.push({
        name,
        symbol: id,
        line: (node.childForFieldName('name') ?? node).startPosition.row + 1,
      });
    }
    const outer = this.symbol;
    this.symbol = id;
    this.fn(fnNode);
    this.symbol = outer;
    return id;
  }

  protected variables(
    node: Node,
    parent: number | undefined,
    prefix: string,
    exported: boolean,
    doc: string | undefined,
  ): void {
    const keyword = node.firstChild?.text ?? 'const';
    for (const declarator of named(node)) {
      if (declarator.type !== 'variable_declarator') continue;
      const nameNode = declarator.childForFieldName('name');
      const value = declarator.childForFieldName('value');
      if (nameNode?.type !== 'identifier') {
        this.declarator(declarator, keyword === 'const' ? prefix : undefined);
        continue;
      }
      const name = nameNode.text;
      const meta = this.meta(parent, exported, doc);
      if (value !== null && FUNCTION_VALUES.has(value.type)) {
        this.bind(name, {});
        this.functionLike(declarator, name, parent, prefix, exported, doc, value, keyword);
        continue;
      }
      const kind = keyword === 'const' ? 'const' : 'variable';
      const id = this.addSymbol(
        kind,
        name,
        prefix + name,
        declarator,
        declarator.startIndex,
        declarator.endIndex,
        meta,
      );
      const symbol = this.facts.symbol(id) as MutableSymbol;
      symbol.signature = cap(`${keyword} ${symbol.signature ?? ''}`);
      if (parent === undefined && exported)
        this.exportedTopLevel.push({ name, symbol: id, line: nameNode.startPosition.row + 1 });
      if (value !== null) this.objectMethods(value, id, `${prefix}${name}.`);
      const outer = this.symbol;
      this.symbol = id;
      this.declarator(declarator, keyword === 'const' ? prefix : undefined);
      this.symbol = outer;
    }
  }

  /**
   * The functions of an object literal bound to a name (`const Money: MessageFns<Money> = { encode() {…} }`)
   * are methods of that name, so that `Money.encode()` binds to the body that runs rather than to the
   * interface the object is typed with. Only their symbols are added: the declarator walk reads their bodies.
   */
  private objectMethods(value: Node, owner: number, prefix: string): void {
    for (const { name, member, body } of objectFunctions(value)) {
      const meta = this.meta(owner, false, undefined);
      delete meta.exported;
      this.addSymbol(
        'method',
        name,
        prefix + name,
        member,
        member.startIndex,
        body?.startIndex ?? member.endIndex,
        {
          ...meta,
          ...this.bodyLines(body),
        },
      );
    }
  }

  protected enumDeclaration(
    node: Node,
    parent: number | undefined,
    prefix: string,
    exported: boolean,
    doc: string | undefined,
  ): number {
    const name = node.childForFieldName('name')?.text ?? '';
    const body = node.childForFieldName('body');
    const id = this.addSymbol(
      'enum',
      name,
      prefix + name,
      node,
      node.startIndex,
      body?.startIndex ?? node.endIndex,
      this.meta(parent, exported, doc),
    );
    const members = new Map<string, Val | undefined>();
    for (const member of body === null ? [] : named(body)) {
      const nameNode = member.type === 'enum_assignment' ? member.childForFieldName('name') : member;
      if (nameNode === null || (nameNode.type !== 'property_identifier' && nameNode.type !== 'string'))
        continue;
      const memberName = nameNode.type === 'string' ? stringValue(nameNode) : nameNode.text;
      const value = member.type === 'enum_assignment' ? member.childForFieldName('value') : null;
      const val = value === null || value.type === 'number' ? undefined : toVal(value, NO_LOCALS, undefined);
      members.set(memberName, val?.k === 'opaque' ? undefined : val);
      this.addSymbol(
        'enum_member',
        memberName,
        `${prefix}${name}.${memberName}`,
        member,
        member.startIndex,
        member.endIndex,
        { parent: id },
      );
    }
    this.state.enums.set(prefix + name, members);
    if (prefix !== '' && !this.state.enums.has(name)) this.state.enums.set(name, members);
    return id;
  }

  finish(): FileFacts {
    for (const run of this.state.pending) run(this.facts);
    finishStubs(this.state, this.facts, this.exportedNames);
    const topLevel = new Map<string, MutableSymbol>();
    for (const s of this.facts.symbols)
      if (s.parent === undefined && !topLevel.has(s.name)) topLevel.set(s.name, s);
    for (const name of this.exportedNames) {
      const s = topLevel.get(name);
      if (s !== undefined) s.exported = true;
    }
    const exported = exportedFunctions(this.exportedTopLevel, this.exportAliases, topLevel);
    const defaultExport = defaultExportOf(this.defaultExport, topLevel);
    const root = this.root;
    const branches = (): BranchMethod[] => (root === undefined ? [] : branchMethods(root));
    for (const fact of nextRouteFacts(this.state.path, defaultExport, exported, branches))
      this.facts.addContract(fact);
    const calls =
      root === undefined ? [] : typescriptCalls(root, this.source, this.state, this.facts.symbols);
    return this.facts.build({ calls });
  }
}

/** The extractor registered for `typescript`, `tsx` and `javascript`. */
export const extractTypeScript: Extractor = (input) => {
  if (input.tree === undefined) return emptyFacts(input.language);
  const walker = new Walker(input.path, input.source, input.language);
  walker.program(input.tree.rootNode);
  return walker.finish();
};
