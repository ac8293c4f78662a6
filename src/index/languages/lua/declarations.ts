/**
 * Lua declarations: functions (`function f()`, `local function f()`, `local f = function() end`), functions
 * of a table (`function M.f()`, `M.f = function() end`) and its methods (`function Account:deposit(v)`),
 * the tables of the file's top level that hold them (a table with methods is a class, else a module), and
 * `require "x"` imports. What a call needs besides is kept too: the name a `require` result is assigned to
 * (`local json = require "cjson"`) and what each local was last assigned, per function.
 */
import type { Node } from 'web-tree-sitter';
import type { SymbolKind } from '../../facts.js';
import type { FactBuilder } from '../shared/fact-builder.js';
import { declarationAt, endLineOf, oneLine, startLineOf } from '../shared/tree-utils.js';

const FUNCTIONS = new Set(['function_declaration', 'function_definition']);
/** How deep a `--` comment block above a declaration is read as its doc. */
const MAX_DOC_LINES = 40;

/** What the call reader learns from the declarations. */
export interface LuaDeclarations {
  /** Local name → the module `require`d into it: `json` → `cjson`. */
  readonly modules: ReadonlyMap<string, string>;
  /** Top-level tables that hold functions, by name. */
  readonly tables: ReadonlySet<string>;
  /** The value a variable holds where `at` reads it: its last assignment above, in the same function. */
  valueOf(name: string, at: Node): Node | undefined;
}

/** Reads the declarations and imports of a chunk into `facts`. */
export function readLuaDeclarations(root: Node, source: string, facts: FactBuilder): LuaDeclarations {
  return new LuaDeclarationReader(root, source, facts);
}

class LuaDeclarationReader implements LuaDeclarations {
  readonly modules = new Map<string, string>();
  readonly tables = new Set<string>();
  /** Top-level table assignments, by table name. */
  private readonly tableNodes = new Map<string, Node>();
  private readonly tableIds = new Map<string, number>();
  /** Tables given a `:` method somewhere in the file: classes. */
  private readonly classes = new Set<string>();
  /** Enclosing function node id (0: the chunk) → variable → assignments (end offset, value) in order. */
  private readonly locals = new Map<number, Map<string, { end: number; value: Node }[]>>();

  constructor(
    root: Node,
    private readonly source: string,
    private readonly facts: FactBuilder,
  ) {
    const nodes = root
      .descendantsOfType(['function_declaration', 'assignment_statement', 'function_call'])
      .filter((node): node is Node => node !== null);
    for (const node of nodes) {
      const name = node.childForFieldName('name');
      if (node.type === 'function_declaration' && name?.type === 'method_index_expression')
        this.classes.add(name.childForFieldName('table')?.text ?? '');
    }
    for (const node of nodes) {
      if (node.type === 'function_declaration') this.functionDeclaration(node);
      else if (node.type === 'assignment_statement') this.assignment(node);
      else this.require(node);
    }
  }

  valueOf(name: string, at: Node): Node | undefined {
    const list = this.locals.get(enclosingFunction(at)?.id ?? 0)?.get(name) ?? [];
    let found: Node | undefined;
    for (const entry of list) if (entry.end < at.startIndex) found = entry.value;
    return found;
  }

  private functionDeclaration(node: Node): void {
    const name = node.childForFieldName('name');
    if (name !== null) this.declareFunction(node, name, node.childForFieldName('body'));
  }

  /** `a, b = x, y`: each target with its value. */
  private assignment(node: Node): void {
    const targets = named(named(node).find((child) => child.type === 'variable_list'));
    const values = named(named(node).find((child) => child.type === 'expression_list'));
    targets.forEach((target, index) => {
      const value = values[index];
      if (value === undefined) return;
      if (value.type === 'function_definition') {
        // `M.f = function(self, …)` is a method written out: `self` is its receiver.
        const first = named(value.childForFieldName('parameters'))[0]?.text;
        this.declareFunction(node, target, value.childForFieldName('body'), first === 'self');
      } else if (target.type === 'identifier') {
        this.remember(node, target.text, value);
        if (isTable(value) && atTopLevel(node) && !this.tableNodes.has(target.text))
          this.tableNodes.set(target.text, node);
      }
    });
  }

  /** `require "x"` anywhere is an import; assigned to a local, the local names the module. */
  private require(node: Node): void {
    if (node.childForFieldName('name')?.text !== 'require') return;
    const argument = named(node.childForFieldName('arguments'))[0];
    if (argument?.type !== 'string') return;
    const module = argument.childForFieldName('content')?.text ?? '';
    this.facts.addImport({ source: module, line: startLineOf(node) });
    const assigned = assignedName(node);
    if (assigned !== undefined && !this.modules.has(assigned)) this.modules.set(assigned, module);
  }

  private remember(node: Node, name: string, value: Node): void {
    const key = enclosingFunction(node)?.id ?? 0;
    const variables = this.locals.get(key) ?? new Map<string, { end: number; value: Node }[]>();
    this.locals.set(key, variables);
    variables.set(name, [...(variables.get(name) ?? []), { end: node.endIndex, value }]);
  }

  /** A function named `f`, `M.f`, `a.b.f` or `M:f`, declared at `node` with its body. */
  private declareFunction(node: Node, name: Node, body: Node | null, takesSelf = false): void {
    const method = name.type === 'method_index_expression';
    const field = name.childForFieldName(method ? 'method' : 'field');
    const table = name.childForFieldName('table');
    if (name.type !== 'identifier' && (field === null || table === null)) return;
    const simple = field?.text ?? name.text;
    const scope = table === null ? undefined : oneLine(table.text);
    const statement = withLocal(node);
    const signature = oneLine(this.source.slice(statement.startIndex, body?.startIndex ?? node.endIndex));
    const kind = method || (takesSelf && scope !== undefined) ? 'method' : 'function';
    const symbol = declarationAt(statement, kind, simple, scope, signature);
    const parent = scope === undefined ? undefined : this.tableSymbol(scope);
    const doc = commentDoc(node);
    this.facts.addSymbol({
      ...symbol,
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
    const signature = oneLine(this.source.slice(statement.startIndex, node.endIndex)).slice(0, 120);
    const doc = commentDoc(node);
    const id = this.facts.addSymbol({
      ...declarationAt(statement, kind, name, undefined, signature),
      ...(doc === undefined ? {} : { docstring: doc }),
    });
    this.tableIds.set(name, id);
    this.tables.add(name);
    return id;
  }
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

/** A statement of the chunk itself (possibly under `local`). */
function atTopLevel(node: Node): boolean {
  let parent = node.parent;
  if (parent?.type === 'variable_declaration') parent = parent.parent;
  return parent?.type === 'chunk';
}

function enclosingFunction(node: Node): Node | null {
  for (let current = node.parent; current !== null; current = current.parent)
    if (FUNCTIONS.has(current.type)) return current;
  return null;
}

/** The single local a call's result is assigned to: `local json = require "cjson"`. */
function assignedName(call: Node): string | undefined {
  const list = call.parent;
  const statement = list?.parent;
  if (list?.type !== 'expression_list' || statement?.type !== 'assignment_statement') return undefined;
  const targets = named(named(statement).find((child) => child.type === 'variable_list'));
  return targets.length === 1 && targets[0]?.type === 'identifier' ? targets[0].text : undefined;
}

/** Body lines between the signature line and `end`. */
function bodyLines(node: Node): { bodyStartLine?: number; bodyEndLine?: number } {
  const first = startLineOf(node) + 1;
  const last = endLineOf(node) - 1;
  return last >= first ? { bodyStartLine: first, bodyEndLine: last } : {};
}

/** An assignment with the `local` keyword in front of it, if written so. */
function withLocal(node: Node): Node {
  return node.parent?.type === 'variable_declaration' ? node.parent : node;
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
