/**
 * Lua call sites: `f()`, `M.f()` and `obj:method()`. A call on `self` is on the enclosing table's own
 * instance; one on a local holding a `require` result (`local json = require "cjson"`) names that module;
 * one on a table the file declares, or on a local assigned `T.new(…)`/`T:new(…)` of such a table earlier in
 * the same function, has that table as its receiver's type. `require` itself is no call of a declaration:
 * it is read as the file's import, in the same pass (calls come in source order, so a module's local is
 * known before it is called on). A call of an expression (`handlers[name]()`, `f()()`) is left out.
 */
import type { Node } from 'web-tree-sitter';
import type { CallSite, CallSyntax } from '../shared/call-sites.js';
import type { FactBuilder } from '../shared/fact-builder.js';
import { startLineOf } from '../shared/tree-utils.js';

const FUNCTIONS = new Set(['function_declaration', 'function_definition']);

export function luaCallSyntax(tables: ReadonlySet<string>, facts: FactBuilder): CallSyntax {
  const reader = new LuaCallReader(tables, facts);
  return { function_call: (node) => reader.call(node) };
}

class LuaCallReader {
  /** Local name → the module `require`d into it: `json` → `cjson`. */
  private readonly modules = new Map<string, string>();
  /** Local → where it was assigned an instance of a table of the file (enclosing function id, end offset). */
  private readonly instances = new Map<string, { fn: number; end: number; table: string }[]>();

  constructor(
    private readonly tables: ReadonlySet<string>,
    private readonly facts: FactBuilder,
  ) {}

  call(node: Node): CallSite | undefined {
    const callee = node.childForFieldName('name');
    if (callee?.type === 'identifier') {
      if (callee.text !== 'require') return { name: callee.text };
      this.require(node);
      return undefined;
    }
    const method = callee?.type === 'method_index_expression';
    const name = callee?.childForFieldName(method ? 'method' : 'field');
    const table = callee?.childForFieldName('table');
    if (name?.type !== 'identifier' || table === null || table === undefined) return undefined;
    const receiver = table.text;
    if (table.type !== 'identifier') return { name: name.text, receiver, at: name };
    if (receiver === 'self') return { name: name.text, receiver, self: true, at: name };
    const module = this.modules.get(receiver);
    if (module !== undefined) return { name: name.text, receiver, module, at: name };
    if (name.text === 'new' && this.tables.has(receiver)) this.instance(node, receiver);
    const type = this.tables.has(receiver) ? receiver : this.instanceOf(receiver, table);
    return { name: name.text, receiver, ...(type === undefined ? {} : { receiverType: type }), at: name };
  }

  /** `require "x"` imports `x`; `local json = require "x"` makes `json` stand for it. */
  private require(node: Node): void {
    const argument = node.childForFieldName('arguments')?.firstNamedChild;
    if (argument?.type !== 'string') return;
    const module = argument.childForFieldName('content')?.text ?? '';
    this.facts.addImport({ source: module, line: startLineOf(node) });
    const local = assignedName(node);
    if (local !== undefined && !this.modules.has(local)) this.modules.set(local, module);
  }

  /** `local acc = Account.new(…)`: `acc` holds an `Account` from here on in this function. */
  private instance(call: Node, table: string): void {
    const local = assignedName(call);
    if (local === undefined) return;
    const list = this.instances.get(local) ?? [];
    list.push({ fn: enclosingFunction(call)?.id ?? 0, end: call.endIndex, table });
    this.instances.set(local, list);
  }

  private instanceOf(name: string, at: Node): string | undefined {
    const list = this.instances.get(name);
    if (list === undefined) return undefined;
    const fn = enclosingFunction(at)?.id ?? 0;
    let found: string | undefined;
    for (const entry of list) if (entry.fn === fn && entry.end < at.startIndex) found = entry.table;
    return found;
  }
}

/** The one local a call's result is assigned to (`local json = require "cjson"`), if so. */
function assignedName(call: Node): string | undefined {
  const values = call.parent;
  const statement = values?.parent;
  if (values?.type !== 'expression_list' || statement?.type !== 'assignment_statement') return undefined;
  const targets = statement.firstNamedChild;
  const target = targets?.namedChildCount === 1 ? targets.firstNamedChild : null;
  return target?.type === 'identifier' && values.namedChildCount === 1 ? target.text : undefined;
}

function enclosingFunction(node: Node): Node | null {
  for (let current = node.parent; current !== null; current = current.parent)
    if (FUNCTIONS.has(current.type)) return current;
  return null;
}
