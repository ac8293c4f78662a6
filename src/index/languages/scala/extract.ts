/**
 * Scala (2 and 3): package, imports and declarations — classes and case classes, objects, traits, enums
 * and their cases, defs, vals/vars, type aliases — with Scaladoc and annotations — and the topics its
 * messaging client calls publish and consume (`messaging.ts`).
 */
import type { Node } from 'web-tree-sitter';
import { emptyFacts, type SymbolKind } from '../../facts.js';
import type { Extractor } from '../extractor.js';
import { FactBuilder } from '../shared/fact-builder.js';
import { docBefore, lineOf, shortValue } from '../shared/jvm/common.js';
import { oneLine } from '../shared/tree-utils.js';
import { type ScalaBody, scalaMessaging } from './messaging.js';
import { bareTypeName } from '../shared/call-sites.js';
import { scalaCalls } from './call-sites.js';

const TEMPLATE_KINDS: Readonly<Record<string, SymbolKind>> = {
  class_definition: 'class',
  object_definition: 'class',
  trait_definition: 'trait',
  enum_definition: 'enum',
};

const present = (nodes: readonly (Node | null)[]): Node[] =>
  nodes.filter((node): node is Node => node !== null);

export const extractScala: Extractor = (input) => {
  if (input.tree === undefined) return emptyFacts('scala');
  const walker = new ScalaWalker(input.source);
  walker.statements(input.tree.rootNode, undefined);
  const imports = walker.facts.imports.map((fact) => fact.source);
  scalaMessaging(input.tree.rootNode, walker.bodies, imports, walker.facts);
  const calls = scalaCalls(input.tree.rootNode, walker.importedNames, walker.facts.symbols);
  return walker.facts.build({
    package: walker.packages.length === 0 ? undefined : walker.packages.join('.'),
    calls,
  });
};

interface Owner {
  readonly id: number;
  readonly qualified: string;
}

class ScalaWalker {
  readonly facts = new FactBuilder('scala');
  /** `package a.b` followed by `package c` (chained clauses) declares `a.b.c`. */
  readonly packages: string[] = [];
  /** Definitions with a body, for attributing the calls inside them. */
  readonly bodies: ScalaBody[] = [];
  /** Name (or the alias it is renamed to) → the import source that brings it in. */
  readonly importedNames = new Map<string, string>();

  constructor(private readonly source: string) {}

  statements(container: Node, owner: Owner | undefined): void {
    for (const node of present(container.namedChildren)) {
      if (node.type === 'package_clause') {
        const name = node.childForFieldName('name');
        if (name !== null && owner === undefined) this.packages.push(name.text.replace(/\s+/g, ''));
        const body = node.childForFieldName('body');
        if (body !== null) this.statements(body, owner);
      } else if (node.type === 'import_declaration') {
        if (owner === undefined) this.importDecl(node);
      } else {
        this.definition(node, owner);
      }
    }
  }

  private importDecl(node: Node): void {
    const line = lineOf(node);
    // `import a.b.C, d.e.F` is one node whose path identifiers run on; commas separate the clauses.
    let path: string[] = [];
    const flush = (): void => {
      if (path.length > 0) this.addImport(path.join('.'), path[path.length - 1] ?? '', undefined, line);
      path = [];
    };
    for (const child of present(node.children)) {
      if (child.type === ',') flush();
      else if (child.type === 'identifier' || child.type === 'operator_identifier') path.push(child.text);
      else if (child.type === 'namespace_wildcard') {
        this.facts.addImport({ source: path.join('.'), names: ['*'], line });
        path = [];
      } else if (child.type === 'namespace_selectors') {
        const base = path.join('.');
        for (const selector of present(child.namedChildren)) {
          if (selector.type === 'namespace_wildcard') {
            this.facts.addImport({ source: base, names: ['*'], line });
            continue;
          }
          const name =
            selector.type === 'identifier' ? selector.text : selector.childForFieldName('name')?.text;
          // `{X => _}` hides X: it imports nothing.
          const alias = selector.childForFieldName('alias');
          if (name === undefined || alias?.type === 'wildcard') continue;
          this.addImport(`${base}.${name}`, name, alias?.text, line);
        }
        path = [];
      } else if (child.type === 'as_renamed_identifier') {
        // `import a.b.C as D` (Scala 3).
        const name = child.childForFieldName('name')?.text;
        if (name !== undefined) path.push(name);
        const source = path.join('.');
        if (name !== undefined) this.addImport(source, name, child.childForFieldName('alias')?.text, line);
        path = [];
      }
    }
    flush();
  }

  private addImport(source: string, name: string, alias: string | undefined, line: number): void {
    this.facts.addImport({ source, names: [name], line });
    this.importedNames.set(alias ?? name, source);
  }

  private definition(node: Node, owner: Owner | undefined): void {
    const templateKind = TEMPLATE_KINDS[node.type];
    if (templateKind !== undefined) {
      this.template(node, templateKind, owner);
      return;
    }
    switch (node.type) {
      case 'function_definition':
      case 'function_declaration':
        this.declare(
          node,
          owner === undefined ? 'function' : 'method',
          node.childForFieldName('name')?.text,
          owner,
          node.childForFieldName('body'),
        );
        break;
      case 'val_definition':
      case 'val_declaration':
      case 'var_definition':
      case 'var_declaration':
        this.value(node, owner);
        break;
      case 'type_definition':
        this.declare(node, 'type', node.childForFieldName('name')?.text, owner, undefined);
        break;
      case 'enum_case_definitions':
        for (const entry of present(node.namedChildren)) {
          if (entry.type === 'simple_enum_case' || entry.type === 'full_enum_case') {
            this.declare(entry, 'enum_member', entry.childForFieldName('name')?.text, owner, undefined);
          }
        }
        break;
      default:
        break;
    }
  }

  private template(node: Node, kind: SymbolKind, owner: Owner | undefined): void {
    const name = node.childForFieldName('name')?.text;
    const body = node.childForFieldName('body');
    const id = this.declare(node, kind, name, owner, body);
    const supertypes = (node.childForFieldName('extend')?.childrenForFieldName('type') ?? []).flatMap(
      (type) => (type === null || !type.isNamed ? [] : [bareTypeName(type.text)]),
    );
    const symbol = id === undefined ? undefined : this.facts.symbol(id);
    if (symbol !== undefined && supertypes.length > 0) symbol.supertypes = supertypes;
    if (id === undefined || name === undefined || body === null) return;
    this.statements(body, { id, qualified: owner === undefined ? name : `${owner.qualified}.${name}` });
  }

  private value(node: Node, owner: Owner | undefined): void {
    const pattern = node.childForFieldName('pattern');
    // Destructuring (`val (a, b) = …`) declares several names from one expression: each gets a symbol.
    const names =
      pattern === null
        ? []
        : pattern.type === 'identifier'
          ? [pattern]
          : present(pattern.namedChildren).filter((n) => n.type === 'identifier');
    const kind: SymbolKind = owner === undefined ? 'variable' : 'property';
    for (const name of names) this.declare(node, kind, name.text, owner, undefined);
  }

  /** Adds a symbol; its signature is the declaration without annotations and without the body. */
  private declare(
    node: Node,
    kind: SymbolKind,
    name: string | undefined,
    owner: Owner | undefined,
    body: Node | null | undefined,
  ): number | undefined {
    if (name === undefined) return undefined;
    const children = present(node.children);
    const annotations = children.filter((child) => child.type === 'annotation');
    const start =
      children.find((child) => child.type !== 'annotation' && !child.type.endsWith('comment'))?.startIndex ??
      node.startIndex;
    const value =
      node.type.startsWith('val_') || node.type.startsWith('var_') ? node.childForFieldName('value') : null;
    let signature: string;
    if (value !== null) {
      const shown = shortValue(value.text);
      signature = this.source.slice(start, shown === undefined ? value.startIndex : value.endIndex);
    } else {
      signature = this.source.slice(start, body?.startIndex ?? node.endIndex);
    }
    signature = oneLine(signature, 'as-written')
      .replace(/\s+/g, ' ')
      .replace(/\s*[=:{]\s*$/, '')
      .trim();
    const modifiers = children.find((child) => child.type === 'modifiers');
    const hidden = modifiers !== undefined && /\b(?:private|protected)\b/.test(modifiers.text);
    const block = body !== null && body !== undefined;
    const id = this.facts.addSymbol({
      kind,
      name,
      qualifiedName: owner === undefined ? name : `${owner.qualified}.${name}`,
      signature,
      startLine: lineOf(node),
      endLine: endLineOf(node),
      bodyStartLine: block ? lineOf(body) : undefined,
      bodyEndLine: block ? endLineOf(body) : undefined,
      docstring: docBefore(this.source, node.startIndex),
      decorators:
        annotations.length === 0 ? undefined : annotations.map((a) => oneLine(a.text, 'as-written')),
      parent: owner?.id,
      exported: !hidden,
    });
    if (block) this.bodies.push({ start: node.startIndex, end: node.endIndex, symbol: id });
    return id;
  }
}

/**
 * Last line of a node. An indentation-based body (`enum X:` + indented cases) ends where the dedent is
 * seen, at the start of the next non-blank line; the blank lines and that line break are not part of it.
 */
function endLineOf(node: Node): number {
  const end = node.endPosition;
  if (end.column !== 0 || end.row === node.startPosition.row) return end.row + 1;
  const trailing = /\s*$/.exec(node.text)?.[0] ?? '';
  return end.row + 1 - (trailing.match(/\n/g)?.length ?? 0);
}
