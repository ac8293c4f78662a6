/**
 * Kotlin call sites as the shared messaging recogniser reads them (`shared/jvm/messaging.ts`): receivers
 * with their declared types, arguments resolved through the file's constants, a property given only one
 * value, `System.getenv("NAME")`, and a variable holding a server-named queue.
 */
import type { Node } from 'web-tree-sitter';
import type { ContractSink } from '../shared/jvm/grpc-stub-use.js';
import { messagingContracts } from '../shared/jvm/messaging.js';
import type { CallArg, MessagingCall } from '../shared/jvm/messaging-model.js';
import { callArg, isServerNamedQueue } from '../shared/jvm/messaging-values.js';
import { lastSegment } from '../shared/jvm/common.js';
import { callOf, type KtFile, type KtScope, type KtVar, varOf } from './model.js';
import { KtResolver } from './values.js';
import { foreignConstant, variableIn } from './cross-file-constants.js';

export function kotlinMessaging(file: KtFile, imports: readonly string[], facts: ContractSink): void {
  const calls: MessagingCall[] = [];
  const sites = file.sites.flatMap((site) => {
    const call = site.node.type === 'call_expression' ? callOf(site.node) : undefined;
    return call === undefined ? [] : [{ site, call }];
  });
  const indexOf = new Map(sites.map(({ site }, index) => [nodeKey(site.node), index]));
  for (const { site, call } of sites) {
    const receiver = call.receiver;
    const parent = receiver === undefined ? undefined : indexOf.get(nodeKey(receiver));
    const variable = receiver === undefined ? undefined : varOf(receiver, site.scope);
    calls.push({
      method: call.name,
      receiver:
        receiver === undefined
          ? undefined
          : {
              name: lastSegment(receiver.text.replace(/\s+/g, '')),
              type: variable?.type,
              chained: receiver.type === 'call_expression',
            },
      args: call.args.map((arg) => kotlinArg(file, site.scope, arg.value)),
      ...(parent === undefined ? {} : { parent }),
      line: call.nameNode.startPosition.row + 1,
      symbol: site.scope.symbol,
    });
  }
  messagingContracts(calls, imports, facts);
}

const nodeKey = (node: Node): string => `${node.startIndex}:${node.endIndex}`;

function kotlinArg(file: KtFile, scope: KtScope, node: Node): CallArg {
  const value = kotlinValues(file, scope, node, 0);
  return callArg(node.text, value?.values, value?.inferred === true, serverNamed(node, scope));
}

interface Resolved {
  readonly values: readonly string[];
  readonly inferred: boolean;
}

function kotlinValues(file: KtFile, scope: KtScope, node: Node, depth: number): Resolved | undefined {
  const resolver = new KtResolver(file, scope.cls);
  const direct = resolver.strings(node);
  if (direct !== undefined) return { values: direct, inferred: resolver.inferred };
  if (depth > 3) return undefined;
  if (node.type === 'call_expression') {
    const call = callOf(node);
    const env = call?.name === 'getenv' && call.receiver?.text === 'System' ? call.args[0] : undefined;
    const name = env === undefined ? undefined : resolver.string(env.value);
    return name === undefined ? undefined : { values: [`\${env.${name}}`], inferred: true };
  }
  const variable = varOf(node, scope);
  if (variable !== undefined) return variableValues(file, scope, variable, depth);
  const foreign = foreignConstant(file, node, variableIn(scope));
  return foreign === undefined ? undefined : { values: [foreign], inferred: true };
}

/** A `val`/`var` given exactly one value (its initializer, or one assignment). */
function variableValues(file: KtFile, scope: KtScope, variable: KtVar, depth: number): Resolved | undefined {
  if (variable.isParam) return undefined;
  const writes = [
    ...(variable.init === undefined ? [] : [{ node: variable.init, scope }]),
    ...variable.assigned,
  ];
  const only = writes.length === 1 ? writes[0] : undefined;
  return only === undefined ? undefined : kotlinValues(file, only.scope, only.node, depth + 1);
}

/**
 * Whether `node` holds a queue the broker named: the declaring call itself, a variable written from one,
 * or the name read off one (`val info = management.queue().exclusive(true).declare(); info.name()`).
 */
function serverNamed(node: Node, scope: KtScope, depth = 0): boolean {
  if (isServerNamedQueue(node.text)) return true;
  if (depth > 3) return false;
  if (node.type === 'call_expression') {
    const call = callOf(node);
    const named = call?.name === 'name' || call?.name === 'getName';
    return named && call?.receiver !== undefined && serverNamed(call.receiver, scope, depth + 1);
  }
  const variable = varOf(node, scope);
  if (variable === undefined) return false;
  const writes = [
    ...(variable.init === undefined ? [] : [variable.init]),
    ...variable.assigned.map((write) => write.node),
  ];
  return writes.some((write) => serverNamed(write, scope, depth + 1));
}
