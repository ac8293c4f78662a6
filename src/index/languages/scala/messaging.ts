/**
 * Scala call sites as the shared messaging recogniser reads them (`shared/jvm/messaging.ts`). Scala has no
 * value model of its own: a `val` of the file is resolved when its name is declared once with a literal
 * (or a `+` of literals and such vals); a `val` holding `channel.queueDeclare().getQueue` names a
 * server-named queue.
 */
import type { Node } from 'web-tree-sitter';
import type { ContractSink } from '../shared/jvm/grpc-stub-use.js';
import { messagingContracts } from '../shared/jvm/messaging.js';
import type { CallArg, MessagingCall } from '../shared/jvm/messaging-model.js';
import { callArg, isServerNamedQueue } from '../shared/jvm/messaging-values.js';
import { lineOf, unescapeJvm } from '../shared/jvm/common.js';
import { collectSites, type FoundSites, type SiteQuery } from '../shared/site-walk.js';

/** A `val` of the file: its value and declared type. */
interface ScalaVal {
  readonly value: Node;
  readonly type: string | undefined;
}

/** Where a symbol's body runs, so a call is attributed to the innermost definition holding it. */
export interface ScalaBody {
  readonly start: number;
  readonly end: number;
  readonly symbol: number;
}

export function scalaMessaging(
  root: Node,
  bodies: readonly ScalaBody[],
  imports: readonly string[],
  facts: ContractSink,
): void {
  const vals = new Map<string, ScalaVal[]>();
  const callNodes: Node[] = [];
  collect(root, vals, callNodes);
  const calls: MessagingCall[] = [];
  for (const node of callNodes) {
    const fn = node.childForFieldName('function');
    if (fn?.type !== 'field_expression') continue;
    const receiver = fn.childForFieldName('value');
    const field = fn.childForFieldName('field');
    if (receiver === null || field === null) continue;
    const own = receiver.type === 'identifier' ? onlyVal(vals, receiver.text) : undefined;
    const args = (node.childForFieldName('arguments')?.namedChildren ?? []).filter(
      (arg): arg is Node => arg !== null && !arg.type.endsWith('comment'),
    );
    calls.push({
      method: field.text,
      receiver: {
        name:
          receiver.type === 'field_expression'
            ? (receiver.childForFieldName('field')?.text ?? '')
            : receiver.text,
        type: own?.type,
        chained: receiver.type === 'call_expression',
      },
      args: args.map((arg) => scalaArg(vals, arg)),
      line: lineOf(field),
      symbol: innermost(bodies, node.startIndex),
    });
  }
  messagingContracts(calls, imports, facts);
}

/** Every call and `val` below the root, with no subtree skipped. */
const CALLS_AND_VALS: SiteQuery = {
  sites: new Set(['call_expression', 'val_definition']),
  leaves: new Set(),
};

/**
 * The calls and vals of the file in source order, found by a cursor walk: a recursion over `namedChildren`
 * made a Node object of every named node of the file and asked each for its type.
 */
function collect(root: Node, vals: Map<string, ScalaVal[]>, calls: Node[]): void {
  const [found] = collectSites(root, [CALLS_AND_VALS]) as [FoundSites];
  found.nodes.forEach((node, index) => {
    if (found.types[index] === 'call_expression') {
      calls.push(node);
      return;
    }
    const pattern = node.childForFieldName('pattern');
    const value = node.childForFieldName('value');
    if (pattern?.type === 'identifier' && value !== null) {
      const list = vals.get(pattern.text) ?? vals.set(pattern.text, []).get(pattern.text);
      list?.push({ value, type: node.childForFieldName('type')?.text.replace(/\[[^]*\]$/, '') });
    }
  });
}

/** A name declared once in the file (a homonym elsewhere makes it ambiguous). */
function onlyVal(vals: ReadonlyMap<string, readonly ScalaVal[]>, name: string): ScalaVal | undefined {
  const list = vals.get(name);
  return list?.length === 1 ? list[0] : undefined;
}

function innermost(bodies: readonly ScalaBody[], at: number): number | undefined {
  let best: ScalaBody | undefined;
  for (const body of bodies) {
    if (at < body.start || at >= body.end) continue;
    if (best === undefined || body.end - body.start < best.end - best.start) best = body;
  }
  return best?.symbol;
}

function scalaArg(vals: ReadonlyMap<string, readonly ScalaVal[]>, node: Node): CallArg {
  const value = scalaString(vals, node, 0);
  const own = node.type === 'identifier' ? onlyVal(vals, node.text) : undefined;
  const serverNamed =
    isServerNamedQueue(node.text) || (own !== undefined && isServerNamedQueue(own.value.text));
  return callArg(node.text, value === undefined ? undefined : [value], false, serverNamed);
}

/** A literal, a once-declared `val` holding one, or a `+` of those. */
function scalaString(
  vals: ReadonlyMap<string, readonly ScalaVal[]>,
  node: Node,
  depth: number,
): string | undefined {
  if (depth > 8) return undefined;
  switch (node.type) {
    case 'string':
      return node.text.startsWith('"""') ? node.text.slice(3, -3) : unescapeJvm(node.text.slice(1, -1));
    case 'parenthesized_expression': {
      const inner = node.namedChildren[0];
      return inner === null || inner === undefined ? undefined : scalaString(vals, inner, depth + 1);
    }
    case 'infix_expression': {
      const left = node.childForFieldName('left');
      const right = node.childForFieldName('right');
      if (node.childForFieldName('operator')?.text !== '+' || left === null || right === null)
        return undefined;
      const a = scalaString(vals, left, depth + 1);
      const b = a === undefined ? undefined : scalaString(vals, right, depth + 1);
      return a === undefined || b === undefined ? undefined : a + b;
    }
    case 'identifier': {
      const own = onlyVal(vals, node.text);
      return own === undefined ? undefined : scalaString(vals, own.value, depth + 1);
    }
    default:
      return undefined;
  }
}
