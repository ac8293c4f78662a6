/**
 * Contracts declared by decorators: NestJS `@GrpcMethod`/`@GrpcStreamMethod` handlers,
 * `@EventPattern`/`@MessagePattern` consumers, `@Controller` + `@Get`… routes, BullMQ `@Processor`, and
 * `@RabbitSubscribe` handlers (see amqp-decorators.ts).
 * Decorators are read from the AST, in any order, so a string that merely contains `@Get('/x')` is never one.
 */
import type { ContractFact } from '../../facts.js';
import { isHealthService } from '../shared/grpc-health.js';
import type { ClassState, DecoratorInfo, FileState } from './model.js';
import { joinHttpPath } from '../shared/tree-utils.js';
import { rabbitHandler } from './amqp-decorators.js';
import { type Val } from './values.js';
import { resolveIdentifierLike, resolveName, resolveString, type Resolved } from './resolve-values.js';

/** Decorators whose arguments extraction reads; the others are kept as text only. */
export const READ_DECORATORS = new Set([
  'GrpcMethod',
  'GrpcStreamMethod',
  'EventPattern',
  'MessagePattern',
  'Controller',
  'JsonController',
  'Processor',
  'InjectQueue',
  'RabbitSubscribe',
  'RabbitRPC',
  'Get',
  'Post',
  'Put',
  'Delete',
  'Patch',
  'Options',
  'Head',
  'All',
  'Sse',
]);
const ROUTE_DECORATORS: Readonly<Record<string, string>> = {
  Get: 'GET',
  Post: 'POST',
  Put: 'PUT',
  Delete: 'DELETE',
  Patch: 'PATCH',
  Options: 'OPTIONS',
  Head: 'HEAD',
  All: 'ANY',
  Sse: 'GET',
};

interface Target {
  readonly symbol: number;
  /** The line of the declaration's name (not of its first decorator). */
  readonly line: number;
}

/** A path argument: resolved, else `{last identifier}` so that the rest of the route stays usable. */
function pathText(val: Val, state: FileState): string | undefined {
  const resolved = resolveString(val, state.tables);
  if (resolved !== undefined) return resolved.value;
  if (val.k === 'ref' || val.k === 'opaque')
    return `{${(val.k === 'ref' ? val.path[val.path.length - 1] : val.last) ?? 'param'}}`;
  return undefined;
}

function pathList(arg: Val | undefined, state: FileState, objectKey?: string): string[] {
  if (arg === undefined) return [''];
  const value = arg.k === 'obj' && objectKey !== undefined ? arg.props.get(objectKey) : arg;
  if (value === undefined) return [''];
  const items = value.k === 'arr' ? value.items : [value];
  return items.map((item) => pathText(item, state)).filter((p): p is string => p !== undefined);
}

/** `@MessagePattern({ cmd: 'sum' })`: the object written as sorted JSON, so producer and consumer meet. */
function patternOf(val: Val, state: FileState): Resolved | undefined {
  if (val.k !== 'obj') return resolveName(val, state.tables);
  const entries: [string, string][] = [];
  let exact = true;
  for (const [key, value] of val.props) {
    const resolved = resolveString(value, state.tables);
    if (resolved === undefined) return undefined;
    exact &&= resolved.exact;
    entries.push([key, resolved.value]);
  }
  entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return entries.length === 0 ? undefined : { value: JSON.stringify(Object.fromEntries(entries)), exact };
}

/** Class decorators: records a controller's prefixes, and a BullMQ `@Processor` consumer. */
export function onClassDecorators(
  state: FileState,
  cls: ClassState,
  decorators: readonly DecoratorInfo[],
  target: Target,
): void {
  for (const d of decorators) {
    if (d.name === 'Controller' || d.name === 'JsonController') {
      const arg = d.args[0];
      cls.controllerPrefixes =
        arg === undefined
          ? []
          : arg.k === 'arr'
            ? arg.items
            : arg.k === 'obj'
              ? [arg.props.get('path') ?? { k: 'str', v: '' }]
              : [arg];
    } else if (d.name === 'Processor' && d.args[0] !== undefined) {
      const arg = d.args[0];
      const name = arg.k === 'obj' ? arg.props.get('name') : arg;
      if (name === undefined) continue;
      state.pending.push((out) => {
        const topic = resolveName(name, state.tables);
        if (topic !== undefined && topic.value !== '') {
          out.addContract({
            kind: 'topic_consumer',
            topic: topic.value,
            broker: 'bullmq',
            symbol: target.symbol,
            line: target.line,
            confidence: topic.exact ? 'exact' : 'heuristic',
            via: '@Processor',
          });
        }
      });
    }
  }
}

/** `@EventPattern('x')` / `@MessagePattern({ cmd })`: a NestJS microservice handler consumes the pattern. */
function patternConsumer(state: FileState, d: DecoratorInfo, target: Target): void {
  const arg = d.args[0];
  if (arg === undefined) return;
  state.pending.push((out) => {
    const topic = patternOf(arg, state);
    if (topic === undefined || topic.value === '') return;
    out.addContract({
      kind: 'topic_consumer',
      topic: topic.value,
      broker: 'nestjs',
      symbol: target.symbol,
      line: target.line,
      confidence: topic.exact ? 'exact' : 'heuristic',
      via: `@${d.name}`,
    });
  });
}

/** Method decorators: gRPC handlers, message/event consumers and controller routes. */
export function onMethodDecorators(
  state: FileState,
  cls: ClassState | undefined,
  methodName: string,
  decorators: readonly DecoratorInfo[],
  target: Target,
): void {
  for (const d of decorators) {
    const via = `@${d.name}`;
    if (d.name === 'GrpcMethod' || d.name === 'GrpcStreamMethod') {
      const [serviceArg, methodArg] = d.args;
      state.pending.push((out) => {
        // NestJS defaults: the class name as service, the handler's own name (PascalCased at runtime) as method.
        const service =
          serviceArg === undefined
            ? cls === undefined
              ? undefined
              : { value: cls.name, exact: false }
            : resolveIdentifierLike(serviceArg, state.tables);
        const method =
          methodArg === undefined
            ? { value: methodName, exact: false }
            : resolveIdentifierLike(methodArg, state.tables);
        if (
          service === undefined ||
          method === undefined ||
          service.value === '' ||
          isHealthService(service.value)
        )
          return;
        out.addContract({
          kind: 'grpc_server',
          service: service.value,
          method: method.value,
          symbol: target.symbol,
          line: target.line,
          confidence: service.exact && method.exact ? 'exact' : 'heuristic',
          via,
        });
      });
    } else if (d.name === 'RabbitSubscribe' || d.name === 'RabbitRPC') {
      rabbitHandler(state, d, target);
    } else if (d.name === 'EventPattern' || d.name === 'MessagePattern') {
      patternConsumer(state, d, target);
    } else {
      const method = ROUTE_DECORATORS[d.name];
      const prefixes = cls?.controllerPrefixes;
      if (method === undefined || prefixes === undefined) continue;
      const arg = d.args[0];
      state.pending.push((out) => {
        const heads = prefixes.length === 0 ? [''] : prefixes.flatMap((p) => pathList(p, state));
        for (const head of heads) {
          for (const tail of pathList(arg, state)) {
            out.addContract({
              kind: 'http_route',
              method,
              path: joinHttpPath(head, tail),
              symbol: target.symbol,
              line: target.line,
              via,
            } satisfies ContractFact);
          }
        }
      });
    }
  }
}
