/**
 * Lua declarations: functions (`function f()`, `local function f()`, `local f = function() end`), functions
 * of a table (`function M.f()`, `M.f = function() end`) and its methods (`function Account:deposit(v)`,
 * `M.f = function(self) end`), and the tables of the file's top level that hold them (a table with methods
 * is a class, else a module). One native query finds the functions; only the chunk's own statements are
 * read for tables.
 */
import type { Node } from 'web-tree-sitter';
import type { SymbolKind } from '../../facts.js';
import type { FactBuilder } from '../shared/fact-builder.js';
import { declarationAt, endLineOf, oneLine, startLineOf } from '../shared/tree-utils.js';

/** How deep a `--` comment block above a declaration is read as its doc. */
const MAX_DOC_LINES = 40;
/** How much of a table's constructor its signature shows. */
const MAX_SIGNATURE = 120;

/**
 * Declares the functions and function-holding tables of a chunk in `facts`; returns the names of those
 * tables.
 */
export function readLuaDeclarations(root: Node, source: string, facts: FactBuilder): ReadonlySet<string> {
  return new LuaDeclarationReader(root, source, facts).tables;
}

class LuaDeclarationReader {
  /** Top-level tables that hold functions, by name. */
  readonly tables = new Set<string>();
  /** Top-level table assignments, by table name. */
  private readonly tableNodes = new Map<string, Node>();
  private readonly tableIds = new Map<string, number>();
  /** Tables given a `:` method somewhere in the file: classes. */
  private readonly classes = new Set<string>();

  constructor(
    root: Node,
    private readonly source: string,
    private readonly facts: FactBuilder,
  ) {
    for (const statement of named(root)) this.topLevelTables(statement);
    const functions = root
      .descendantsOfType(['function_declaration', 'function_definition'])
      .flatMap((node) => (node === null ? [] : [declaredFunction(node)]))
      .filter((found): found is DeclaredFunction => found !== undefined);
    for (const { name } of functions)
      if (name.type === 'method_index_expression')
        this.classes.add(name.childForFieldName('table')?.text ?? '');
    for (const found of functions) this.declareFunction(found);
  }

  /** `local M = {}`, `M = M or {}`: a table the file's functions may be declared on. */
  private topLevelTables(statement: Node): void {
    const assignment = statement.type === 'variable_declaration' ? statement.firstNamedChild : statement;
    if (assignment?.type !== 'assignment_statement') return;
    const target = assignment.firstNamedChild?.firstNamedChild;
    const value = assignment.lastNamedChild?.firstNamedChild;
    if (target?.type === 'identifier' && value !== null && value !== undefined && isTable(value))
      if (!this.tableNodes.has(target.text)) this.tableNodes.set(target.text, assignment);
  }

  /** A function named `f`, `M.f`, `a.b.f` or `M:f`, declared at `node` with its body. */
  private declareFunction({ node, name, body, takesSelf }: DeclaredFunction): void {
    const method = name.type === 'method_index_expression';
    const field = name.childForFieldName(method ? 'method' : 'field');
    const table = name.childForFieldName('table');
    if (name.type !== 'identifier' && (field === null || table === null)) return;
    const simple = field?.text ?? name.text;
    const scope = table === null ? undefined : oneLine(table.text);
    const statement = withLocal(node);
    const signature = oneLine(this.source.slice(statement.startIndex, body?.startIndex ?? node.endIndex));
    const kind = method || (takesSelf && scope !== undefined) ? 'method' : 'function';
    const parent = scope === undefined ? undefined : this.tableSymbol(scope);
    const doc = commentDoc(node);
    this.facts.addSymbol({
      ...declarationAt(statement, kind, simple, scope, signature),
      ...bodyLines(node),
      ...(doc === undefined ? {} : { docstring: doc }),
      ...(parent === undefined ? {} : { parent }),
    });
  }

  /** The symbol of a top-level table holding functions, declared on first use. */
  private tableSymbol(name: string): number | undefined {
    const known = this.tableIds.get(name);
    if (known !== undefined) return known;
    const node = this.tableNodes.get(name);
    if (node === undefined) return undefined;
    const kind: SymbolKind = this.classes.has(name) ? 'class' : 'module';
    const statement = withLocal(node);
    const text = this.source.slice(statement.startIndex, Math.min(node.endIndex, statement.startIndex + 240));
    const doc = commentDoc(node);
    const id = this.facts.addSymbol({
      ...declarationAt(statement, kind, name, undefined, oneLine(text).slice(0, MAX_SIGNATURE)),
      ...(doc === undefined ? {} : { docstring: doc }),
    });
    this.tableIds.set(name, id);
    this.tables.add(name);
    return id;
  }
}

/** A function declaration: the statement holding it, the name it is given, its body. */
interface DeclaredFunction {
  readonly node: Node;
  readonly name: Node;
  readonly body: Node | null;
  /** `M.f = function(self, …)`: a method written out, `self` its receiver. */
  readonly takesSelf: boolean;
}

/** `function M.f() … end`, or a function value assigned to a name (`M.f = function() … end`). */
function declaredFunction(node: Node): DeclaredFunction | undefined {
  const body = node.childForFieldName('body');
  if (node.type === 'function_declaration') {
    const name = node.childForFieldName('name');
    return name === null ? undefined : { node, name, body, takesSelf: false };
  }
  const values = node.parent;
  const assignment = values?.parent;
  if (values?.type !== 'expression_list' || assignment?.type !== 'assignment_statement') return undefined;
  const index = named(values).findIndex((value) => value.id === node.id);
  const name = named(assignment.firstNamedChild)[index];
  const first = node.childForFieldName('parameters')?.firstNamedChild?.text;
  return name === undefined ? undefined : { node: assignment, name, body, takesSelf: first === 'self' };
}

function named(node: Node | null | undefined): Node[] {
  return (node?.namedChildren ?? []).filter(
    (child): child is Node => child !== null && child.type !== 'comment',
  );
}

/** `{}` or `M or {}`. */
function isTable(value: Node): boolean {
  if (value.type === 'table_constructor') return true;
  return value.type === 'binary_expression' && value.childForFieldName('right')?.type === 'table_constructor';
}

/** An assignment with the `local` keyword in front of it, if written so. */
function withLocal(node: Node): Node {
  return node.parent?.type === 'variable_declaration' ? node.parent : node;
}

/** Body lines between the signature line and `end`. */
function bodyLines(node: Node): { bodyStartLine?: number; bodyEndLine?: number } {
  const first = startLineOf(node) + 1;
  const last = endLineOf(node) - 1;
  return last >= first ? { bodyStartLine: first, bodyEndLine: last } : {};
}

/** The `--` line comments right above a declaration (a `local` one's comments stand above `local`). */
function commentDoc(node: Node): string | undefined {
  const anchor = withLocal(node);
  const lines: string[] = [];
  let expected = startLineOf(anchor) - 1;
  for (let comment = anchor.previousNamedSibling; comment?.type === 'comment';) {
    if (endLineOf(comment) !== expected || !comment.text.startsWith('--') || comment.text.startsWith('--['))
      break;
    lines.unshift(comment.text.replace(/^-+\s?/, '').trimEnd());
    if (lines.length >= MAX_DOC_LINES) break;
    expected = startLineOf(comment) - 1;
    comment = comment.previousNamedSibling;
  }
  const doc = lines.join('\n').trim();
  return doc === '' ? undefined : doc;
}
