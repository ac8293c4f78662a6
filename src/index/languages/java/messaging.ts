/**
 * Java call sites as the shared messaging recogniser reads them (`shared/jvm/messaging.ts`): receivers with
 * their declared types, arguments resolved through the file's constants, and the few value sources that
 * only messaging code needs: a field that is only ever given one value, a Spring `@Value("${key}")` field,
 * `System.getenv("NAME")`, and a variable holding a server-named queue.
 */
import type { Node } from 'web-tree-sitter';
import type { ContractSink } from '../shared/jvm/grpc-stub-use.js';
import { messagingContracts } from '../shared/jvm/messaging.js';
import type { CallArg, MessagingCall } from '../shared/jvm/messaging-model.js';
import { annotationArg, findAnnotation } from '../shared/jvm/annotations.js';
import { lastSegment, lineOf } from '../shared/jvm/common.js';
import { declaredBy, EXCHANGE_TYPES, exchangeBeanKey } from './amqp-beans.js';
import { foreignConstant, variableIn } from './cross-file-constants.js';
import { callArg, isServerNamedQueue } from '../shared/jvm/messaging-values.js';
import {
  argumentsOf,
  type JavaFile,
  JavaResolver,
  type JavaScope,
  type JavaVar,
  typeOfVar,
  varOf,
} from './model.js';

const LIST_FACTORIES: ReadonlySet<string> = new Set(['of', 'asList', 'singletonList', 'singleton', 'copyOf']);

export function javaMessaging(file: JavaFile, imports: readonly string[], facts: ContractSink): void {
  const calls: MessagingCall[] = [];
  const sites = file.sites.filter((site) => site.node.type === 'method_invocation' && site.nameNode !== null);
  const indexOf = new Map(sites.map((site, index) => [nodeKey(site.node), index]));
  for (const site of sites) {
    if (site.nameNode === null) continue;
    const object = site.object;
    const parent = object === null ? undefined : indexOf.get(nodeKey(object));
    const variable = object === null ? undefined : varOf(object, site.scope);
    calls.push({
      method: site.name,
      receiver:
        object === null
          ? undefined
          : {
              name:
                object.type === 'field_access'
                  ? (object.childForFieldName('field')?.text ?? '')
                  : object.text,
              type: variable === undefined ? undefined : typeOfVar(variable),
              chained: object.type === 'method_invocation',
            },
      args: argumentsOf(site.node).map((arg) => javaArg(file, site.scope, arg)),
      ...(parent === undefined ? {} : { parent }),
      line: lineOf(site.nameNode),
      symbol: site.scope.symbol,
    });
  }
  messagingContracts(calls, imports, facts);
}

const nodeKey = (node: Node): string => `${node.startIndex}:${node.endIndex}`;

function javaArg(file: JavaFile, scope: JavaScope, node: Node): CallArg {
  const value = javaValues(file, scope, node, 0);
  return callArg(node.text, value?.values, value?.inferred === true, serverNamed(node, scope));
}

interface Resolved {
  readonly values: readonly string[];
  readonly inferred: boolean;
}

function javaValues(file: JavaFile, scope: JavaScope, node: Node, depth: number): Resolved | undefined {
  const resolver = new JavaResolver(file, scope.cls);
  const direct = resolver.strings(node);
  if (direct !== undefined) return { values: direct, inferred: false };
  if (depth > 3) return undefined;
  if (node.type === 'method_invocation') {
    const name = node.childForFieldName('name')?.text ?? '';
    const object = node.childForFieldName('object')?.text.replace(/\s+/g, '');
    const args = argumentsOf(node);
    if (name === 'getenv' && object === 'System' && args[0] !== undefined) {
      const env = resolver.string(args[0]);
      return env === undefined ? undefined : { values: [`\${env.${env}}`], inferred: true };
    }
    if (name === 'getName' && args.length === 0) return exchangeBeanName(file, scope, node);
    if (LIST_FACTORIES.has(name)) {
      const values: string[] = [];
      for (const arg of args) {
        const one = javaValues(file, scope, arg, depth + 1);
        if (one === undefined) return undefined;
        values.push(...one.values);
      }
      return { values, inferred: false };
    }
    return undefined;
  }
  const variable = varOf(node, scope);
  if (variable !== undefined) return variableValues(file, scope, variable, depth);
  const foreign = foreignConstant(file, node, variableIn(scope));
  return foreign === undefined ? undefined : { values: [foreign], inferred: true };
}

/**
 * `exchange.getName()` on a Spring AMQP exchange: the name it was created with when the variable is given
 * one here (`new TopicExchange("e")`), else an injected bean, named after the variable as Spring matches
 * beans by name (when
 * several share a type): `${amqp.exchange.<variable>}`, resolved against the property the declaring file publishes
 * (`amqp-beans.ts`).
 */
function exchangeBeanName(file: JavaFile, scope: JavaScope, call: Node): Resolved | undefined {
  const object = call.childForFieldName('object');
  const variable = object === null ? undefined : varOf(object, scope);
  const type = variable === undefined ? undefined : typeOfVar(variable);
  // A method parameter is whatever the caller passes, not a bean.
  if (variable === undefined || variable.isParam || type === undefined) return undefined;
  if (!EXCHANGE_TYPES.has(lastSegment(type))) return undefined;
  // A constructor parameter stored in the field (`this.exchange = exchange`) is injected like the field.
  const writes = [
    ...(variable.init === undefined ? [] : [variable.init]),
    ...variable.assigned.filter((a) => varOf(a.node, a.scope)?.isParam !== true).map((a) => a.node),
  ];
  if (writes.length === 0) return { values: [`\${${exchangeBeanKey(variable.name)}}`], inferred: true };
  const only =
    writes.length === 1 && writes[0] !== undefined ? declaredBy(writes[0], file, scope.cls) : undefined;
  return only?.kind === 'exchange' && only.name !== undefined
    ? { values: [only.name], inferred: false }
    : undefined;
}

/** A `@Value("${key}")` field, or a variable given exactly one value (its initializer, or one assignment). */
function variableValues(
  file: JavaFile,
  scope: JavaScope,
  variable: JavaVar,
  depth: number,
): Resolved | undefined {
  const injected = findAnnotation(variable.annotations, 'Value');
  const key = injected === undefined ? undefined : annotationArg(injected, [undefined, 'value']);
  if (key !== undefined) {
    const text = new JavaResolver(file, scope.cls).string(key);
    return text === undefined || text.startsWith('#{') ? undefined : { values: [text], inferred: true };
  }
  if (variable.isParam) return undefined;
  const writes = [
    ...(variable.init === undefined ? [] : [{ node: variable.init, scope }]),
    ...variable.assigned,
  ];
  const only = writes.length === 1 ? writes[0] : undefined;
  return only === undefined ? undefined : javaValues(file, only.scope, only.node, depth + 1);
}

/**
 * Whether `node` holds a queue the broker named: the declaring call itself, a variable written from one,
 * or the name read off one (`QueueInfo q = management.queue().exclusive(true).declare(); q.name()`).
 */
function serverNamed(node: Node, scope: JavaScope, depth = 0): boolean {
  if (isServerNamedQueue(node.text)) return true;
  if (depth > 3) return false;
  if (node.type === 'method_invocation') {
    const object = node.childForFieldName('object');
    const name = node.childForFieldName('name')?.text;
    return (
      object !== null && (name === 'name' || name === 'getName') && serverNamed(object, scope, depth + 1)
    );
  }
  const variable = varOf(node, scope);
  if (variable === undefined) return false;
  const writes = [
    ...(variable.init === undefined ? [] : [variable.init]),
    ...variable.assigned.map((a) => a.node),
  ];
  return writes.some((write) => serverNamed(write, scope, depth + 1));
}
