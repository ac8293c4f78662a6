/**
 * Registered process names as symbols: `GenServer.start_link(__MODULE__, arg, name: Foo)`,
 * `Agent.start_link(fun, name: {:global, :cache})`, `Supervisor.start_link(children, opts)` with
 * `opts = [name: …]`, and child specs such as `{Phoenix.PubSub, name: MyApp.PubSub}` in an application or
 * supervisor module. Other processes reach a server by this name (`GenServer.call(Foo, …)`), so it is
 * what a reader searches for.
 *
 * The kind is `variable`: the name is bound at run time to whichever process registered it, and rebound
 * when a supervisor restarts that process, so it is neither a constant nor a type; it is also global (not
 * qualified by the module that starts it).
 */
import type { Node } from 'web-tree-sitter';
import { oneLine } from '../shared/tree-utils.js';
import type { FactBuilder } from '../shared/fact-builder.js';
import { declare, type Frame } from './model.js';
import {
  atomName,
  callArgs,
  callName,
  type CallName,
  literalString,
  moduleName,
  named,
  pipedArgs,
  readKeywords,
} from './syntax.js';

const PROCESS_MODULES = new Set([
  'GenServer',
  'Agent',
  'Supervisor',
  'DynamicSupervisor',
  'PartitionSupervisor',
  'Registry',
  'Task.Supervisor',
]);
const STARTERS = new Set(['start_link', 'start']);
/** Modules whose children lists hold `{Mod, name: …}` child specs. */
const SUPERVISORS = ['Application', 'Supervisor', 'DynamicSupervisor'];
const MAX_DEPTH = 4;

/** `GenServer.start_link(…, name: Foo)` and the like: the registered name as a symbol. */
export function readProcessStart(facts: FactBuilder, node: Node, name: CallName, frame: Frame): void {
  if (name.receiver === undefined || !PROCESS_MODULES.has(name.receiver) || !STARTERS.has(name.name)) return;
  const { positional, keywords } = pipedArgs(node);
  let value = keywords.get('name');
  const last = positional[positional.length - 1];
  if (value === undefined && last !== undefined) {
    const options = last.type === 'identifier' ? frame.locals?.get(last.text) : last;
    if (options?.type === 'list') value = readKeywords(options, new Map()).get('name');
  }
  const registered = value === undefined ? undefined : registeredName(value, frame, 0);
  if (value === undefined || registered === undefined) return;
  const summary = `${name.receiver}.${name.name}(…, name: ${shownName(value, registered.node)})`;
  addName(facts, node, registered.name, signatureOf(node, value, summary), frame);
}

/** `{Registry, keys: :unique, name: MyApp.Registry}` in a children list of an application or supervisor. */
export function readChildSpec(facts: FactBuilder, tuple: Node, frame: Frame): void {
  const uses = frame.module?.uses;
  if (uses === undefined || !SUPERVISORS.some((supervisor) => uses.has(supervisor))) return;
  if (tuple.parent?.type !== 'list') return;
  const [child, options] = named(tuple);
  if (child?.type !== 'alias' || options === undefined) return;
  const value = readKeywords(options, new Map()).get('name');
  const registered = value === undefined ? undefined : registeredName(value, frame, 0);
  if (value === undefined || registered === undefined) return;
  const summary = `{${child.text}, name: ${shownName(value, registered.node)}}`;
  addName(facts, tuple, registered.name, signatureOf(tuple, value, summary), frame);
}

/** The call as written when it fits on one line and names the process itself, else `summary`. */
function signatureOf(node: Node, value: Node, summary: string): string {
  const inside = value.startIndex >= node.startIndex && value.endIndex <= node.endIndex;
  return inside && !node.text.includes('\n') && value.type !== 'identifier' ? oneLine(node.text) : summary;
}

/** The `name:` value as written, or what a variable holding it was bound to. */
function shownName(value: Node, resolved: Node): string {
  return oneLine(value.type === 'identifier' ? resolved.text : value.text);
}

function addName(facts: FactBuilder, node: Node, name: string, signature: string, frame: Frame): void {
  declare(facts, node, 'variable', name, undefined, signature, frame.owner);
}

/**
 * The name a `name:` option registers: a module (`Foo`, `__MODULE__`), an atom (`:cache`), the name inside
 * `{:global, name}` or `{:via, Registry, {Reg, key}}` (a literal key), or what a variable holds, including the default of
 * `Keyword.get(opts, :name, Default)`. Undefined for anything computed.
 */
function registeredName(
  node: Node,
  frame: Frame,
  depth: number,
): { readonly name: string; readonly node: Node } | undefined {
  if (depth > MAX_DEPTH) return undefined;
  const module = moduleName(node, frame.module?.name);
  if (module !== undefined) return { name: module, node };
  const atom = atomName(node) ?? literalString(node);
  if (atom !== undefined) return { name: atom, node };
  if (node.type === 'tuple') {
    const items = named(node);
    const scheme = atomName(items[0]);
    if (scheme === 'global' && items[1] !== undefined) return registeredName(items[1], frame, depth + 1);
    const key = items[2]?.type === 'tuple' ? named(items[2])[1] : items[2];
    if (scheme === 'via' && key !== undefined) return registeredName(key, frame, depth + 1);
    return undefined;
  }
  if (node.type === 'identifier') {
    const value = frame.locals?.get(node.text);
    return value === undefined ? undefined : registeredName(value, frame, depth + 1);
  }
  if (node.type === 'call') {
    const name = callName(node);
    const fallback = callArgs(node).positional[2];
    if (name?.receiver === 'Keyword' && name.name === 'get' && fallback !== undefined)
      return registeredName(fallback, frame, depth + 1);
  }
  return undefined;
}
