/**
 * Lua call sites: `f()`, `M.f()` and `obj:method()`. A call on `self` is on the enclosing table's own
 * instance; one on a local holding a `require` result (`local json = require "cjson"`) names that module;
 * one on a table the file declares, or on a local assigned `T.new(…)`/`T:new(…)` of such a table, has that
 * table as its receiver's type. `require` itself loads a module and is no call of a declaration, nor is a
 * call of an expression (`handlers[name]()`, `f()()`).
 */
import type { Node } from 'web-tree-sitter';
import type { CallSite, CallSyntax } from '../shared/call-sites.js';
import type { LuaDeclarations } from './declarations.js';

export function luaCallSyntax(declarations: LuaDeclarations): CallSyntax {
  return { function_call: (node) => readCall(node, declarations) };
}

function readCall(node: Node, declarations: LuaDeclarations): CallSite | undefined {
  const callee = node.childForFieldName('name');
  if (callee?.type === 'identifier') return callee.text === 'require' ? undefined : { name: callee.text };
  const method = callee?.type === 'method_index_expression';
  const name = callee?.childForFieldName(method ? 'method' : 'field');
  const table = callee?.childForFieldName('table');
  if (name?.type !== 'identifier' || table === null || table === undefined) return undefined;
  const receiver = table.text;
  if (table.type !== 'identifier') return { name: name.text, receiver, at: name };
  if (receiver === 'self') return { name: name.text, receiver, self: true, at: name };
  const module = declarations.modules.get(receiver);
  if (module !== undefined) return { name: name.text, receiver, module, at: name };
  const type = declarations.tables.has(receiver) ? receiver : constructedTable(table, declarations);
  return { name: name.text, receiver, ...(type === undefined ? {} : { receiverType: type }), at: name };
}

/** The table a local was built from: `local acc = Account.new(10)` → `Account`, for a table of this file. */
function constructedTable(variable: Node, declarations: LuaDeclarations): string | undefined {
  const value = declarations.valueOf(variable.text, variable);
  const callee = value?.type === 'function_call' ? value.childForFieldName('name') : null;
  if (callee?.type !== 'dot_index_expression' && callee?.type !== 'method_index_expression') return undefined;
  const method = callee.childForFieldName(callee.type === 'method_index_expression' ? 'method' : 'field');
  const table = callee.childForFieldName('table')?.text;
  return method?.text === 'new' && table !== undefined && declarations.tables.has(table) ? table : undefined;
}
