/**
 * Values other modules read through a function: a public zero-arity function whose body is a string
 * (`def topic, do: "flags"`, or `def topic, do: @topic` with `@topic "flags"`) is a property fact keyed
 * `ex.<Module>.<function>` (`ex.FlagdUi.Storage.topic`). A call `FlagdUi.Storage.topic()` in another file
 * names the placeholder `${ex.FlagdUi.Storage.topic}`, which the graph resolves from that fact like any
 * configuration key (same root first, then a value unique in the workspace).
 */
import type { Node } from 'web-tree-sitter';
import type { PropertyFact } from '../../facts.js';
import { startLineOf } from '../shared/tree-utils.js';
import { valueScope, type Frame } from './model.js';
import { callArgs, callName } from './syntax.js';
import { resolveParts } from './values.js';

/** The property key of a module's zero-arity function. */
export function functionValueKey(module: string, name: string): string {
  return `ex.${module}.${name}`;
}

/** The function name a zero-arity definition head declares: `topic` or `topic()`. */
function zeroArityName(head: Node | undefined): string | undefined {
  if (head?.type === 'identifier') return head.text;
  if (head?.type !== 'call') return undefined;
  const name = callName(head);
  return name?.receiver === undefined && callArgs(head).positional.length === 0 ? name?.name : undefined;
}

/** `def name, do: <string>` in a module body: the property fact of its value, when it is a constant string. */
export function readFunctionValue(
  properties: PropertyFact[],
  node: Node,
  keyword: string,
  frame: Frame,
): void {
  const module = frame.module;
  if (keyword !== 'def' || module === undefined || frame.locals !== undefined) return;
  const name = zeroArityName(callArgs(node).positional[0]);
  // Only a function of one clause is in `functions`: several clauses have no single value.
  const body = name === undefined ? undefined : module.functions.get(`${name}/0`)?.body;
  if (name === undefined || body === undefined) return;
  // Attributes are read as they stand at the definition, as the compiler inlines them.
  const parts = resolveParts(body, valueScope(frame));
  if (parts.length === 0 || !parts.every((part) => part.t === 'lit')) return;
  const value = parts.map((part) => (part.t === 'lit' ? part.v : '')).join('');
  properties.push({ key: functionValueKey(module.name, name), value, line: startLineOf(node) });
}
