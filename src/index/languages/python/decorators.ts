/**
 * Python decorators and route tables that declare contracts: Flask/FastAPI route decorators, Celery
 * `@app.task`/`@shared_task` (a task is the consumer of the queue named after it), Dapr `@app.method(…)`
 * handlers, and Django `path(…)`.
 */
import type { Node } from 'web-tree-sitter';
import type { Confidence, ContractFact } from '../../facts.js';
import { routeFromDecorator } from './contracts.js';
import { daprMethodRoute } from './dapr-app.js';
import { daprSubscribeFact } from './dapr-pubsub.js';
import { normalizeDjango } from './decl.js';
import { lookupBinding, type Frame, type PyScope } from './scope.js';
import { callArguments, dotted, literalString } from './values.js';

/** The facts one decorator declares, and the queue name when it makes the function a Celery task. */
export function decoratorFacts(
  decorator: Node,
  frame: Frame,
  scope: PyScope,
  line: number,
  qualifiedName: string,
): { readonly facts: ContractFact[]; readonly task?: string } {
  const expression = decorator.namedChildren[0];
  if (expression === null || expression === undefined) return { facts: [] };
  const call = expression.type === 'call' ? expression : undefined;
  const head = dotted(call === undefined ? expression : call.childForFieldName('function'));
  if (head === undefined) return { facts: [] };
  const dot = head.lastIndexOf('.');
  const objectName = dot < 0 ? undefined : head.slice(0, dot);
  const receiver = objectName === undefined ? undefined : lookupBinding(frame, objectName);
  if (call !== undefined && receiver?.kind === 'dapr_app') {
    const decorator = head.slice(dot + 1);
    const fact =
      daprMethodRoute(decorator, call, line) ??
      daprSubscribeFact(decorator, call, scope.valueScope(frame), line);
    return { facts: fact === undefined ? [] : [fact] };
  }
  if (call !== undefined) {
    const route = routeFromDecorator(call, receiver, scope.valueScope(frame));
    if (route !== undefined) {
      return {
        facts: route.methods.map((method) => ({
          kind: 'http_route',
          method,
          path: route.path,
          line,
          via: route.via,
        })),
      };
    }
  }
  const last = head.slice(dot + 1);
  let confidence: Confidence | undefined;
  if (last === 'shared_task' && scope.originOf(head).module?.startsWith('celery')) confidence = 'exact';
  else if (last === 'task' && objectName !== undefined) {
    if (receiver?.kind === 'celery') confidence = 'exact';
    // `from .celery import app` then `@app.task`: the app is not built here, so only its shape speaks.
    else if (receiver === undefined && scope.isImported(objectName)) confidence = 'heuristic';
  }
  if (confidence === undefined) return { facts: [] };
  const explicit =
    call === undefined ? undefined : callArguments(call.childForFieldName('arguments')).keywords.get('name');
  const topic = explicit === undefined ? qualifiedName : literalString(explicit);
  if (topic === undefined) return { facts: [] };
  return {
    facts: [{ kind: 'topic_consumer', topic, broker: 'celery', line, confidence, via: 'celery task' }],
    task: topic,
  };
}

/** A Django `path("orders/<int:pk>/", view)` entry; `path("api/", include(…))` mounts others and is none. */
export function djangoRoute(args: Node | null, line: number): ContractFact | undefined {
  const { positional } = callArguments(args);
  const route = literalString(positional[0]);
  const view = positional[1];
  if (route === undefined || view === undefined) return undefined;
  if (view.type === 'call' && dotted(view.childForFieldName('function')) === 'include') return undefined;
  return { kind: 'http_route', method: 'ANY', path: normalizeDjango(route), line, via: 'django path' };
}
