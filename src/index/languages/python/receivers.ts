/**
 * Python calls on a receiver (`self.stub.ReserveStock(…)`, `producer.produce("t", …)`, `client.get(url)`):
 * what each call carries is captured during the walk, as plain data, and turned into facts once the walk
 * knows what every receiver holds.
 */
import type { Node } from 'web-tree-sitter';
import type { ContractFact } from '../../facts.js';
import { httpRequest, isProduceMethod, subscribedTopics, topicArgument, type Binding } from './contracts.js';
import {
  daprAppIdHeader,
  daprCallFact,
  daprInvocation,
  httpCallFact,
  urlText,
  withAppId,
  type DaprInvocation,
} from './http-calls.js';
import type { Frame } from './scope.js';
import { resolveParts, type ValueScope } from './values.js';
import { topicOf, type Parts } from '../shared/tree-utils.js';

import type { Mutable } from '../shared/tree-utils.js';

/** A call on a named receiver, kept (as plain data) until every binding of the file is known. */
export interface ReceiverCall {
  readonly frame: Frame;
  readonly receiver: string;
  readonly method: string;
  readonly line: number;
  readonly owner: number | undefined;
  readonly topic?: string;
  readonly topics?: readonly string[];
  /** `inferred`: the URL came through a config object's field (see `PyScope.valueScope`). */
  readonly http?: {
    readonly verb: string;
    readonly url: Parts;
    readonly inferred: boolean;
    readonly written: string;
    /** A `dapr-app-id` header: the call goes through the Dapr sidecar to this app. */
    readonly appId?: string;
  };
  readonly dapr?: DaprInvocation;
}

const TOPIC_METHODS = new Set(['produce', 'send', 'send_and_wait', 'send_task']);

export function receiverCall(
  values: ValueScope,
  frame: Frame,
  receiver: string,
  method: string,
  args: Node | null,
  line: number,
  owner: number | undefined,
  urlValues: ValueScope = values,
): ReceiverCall {
  const call: Mutable<ReceiverCall> = { frame, receiver, method, line, owner };
  if (TOPIC_METHODS.has(method)) {
    const topicNode = topicArgument(args);
    const topic = topicNode === undefined ? undefined : topicOf(resolveParts(topicNode, values));
    if (topic !== undefined) call.topic = topic;
  } else if (method === 'subscribe') {
    call.topics = subscribedTopics(args)
      .map((topicNode) => topicOf(resolveParts(topicNode, values)))
      .filter((topic): topic is string => topic !== undefined);
  } else {
    const request = httpRequest(method, args);
    if (request !== undefined) {
      const url = resolveParts(request.url, urlValues);
      const appId = daprAppIdHeader(args, values);
      call.http = {
        verb: request.verb,
        url,
        inferred: urlValues.used?.inferred === true,
        written: urlText(request.url),
        ...(appId === undefined ? {} : { appId }),
      };
    }
    const dapr = daprInvocation(method, args, values);
    if (dapr !== undefined) call.dapr = dapr;
  }
  return call;
}

/** The facts a call on a receiver yields once what the receiver holds is known. */
export function receiverCallFacts(
  call: ReceiverCall,
  binding: Binding | undefined,
  tasks: ReadonlyMap<string, string>,
): ContractFact[] {
  return binding === undefined ? unboundCallFacts(call, tasks) : boundCallFacts(call, binding);
}

/** A call on a receiver whose binding is proven: what it holds decides the fact. */
function boundCallFacts(call: ReceiverCall, binding: Binding): ContractFact[] {
  const { method, line } = call;
  const facts: ContractFact[] = [];
  switch (binding.kind) {
    case 'stub':
      facts.push({
        kind: 'grpc_client',
        service: binding.service,
        method,
        line,
        confidence: binding.confidence,
        via: 'stub call',
      });
      return facts;
    case 'producer':
      if (call.topic !== undefined && isProduceMethod(binding.lib, method)) {
        facts.push({
          kind: 'topic_producer',
          topic: call.topic,
          broker: 'kafka',
          line,
          confidence: 'exact',
          via: `${binding.lib} ${method}`,
        });
      }
      return facts;
    case 'consumer':
      for (const topic of method === 'subscribe' ? (call.topics ?? []) : []) {
        facts.push({
          kind: 'topic_consumer',
          topic,
          broker: 'kafka',
          line,
          confidence: 'exact',
          via: `${binding.lib} subscribe`,
        });
      }
      return facts;
    case 'http':
      if (call.http !== undefined) {
        const { verb, url, written, inferred, appId } = call.http;
        const fact = withAppId(
          httpCallFact(verb, url, binding.base, `${binding.lib} ${method}`, line, written),
          appId,
        );
        facts.push(inferred ? { ...fact, confidence: 'heuristic' } : fact);
      }
      return facts;
    case 'dapr':
      if (call.dapr !== undefined) facts.push(daprCallFact(call.dapr, line));
      return facts;
    case 'celery':
      if (method === 'send_task' && call.topic !== undefined) {
        facts.push({
          kind: 'topic_producer',
          topic: call.topic,
          broker: 'celery',
          line,
          confidence: 'exact',
          via: 'celery send_task',
        });
      }
      return facts;
    case 'router':
    case 'dapr_app':
      return facts;
  }
}

/** A call on a receiver of unknown type: Celery task names, and Kafka calls on objects named like a client. */
function unboundCallFacts(call: ReceiverCall, tasks: ReadonlyMap<string, string>): ContractFact[] {
  const { method, line } = call;
  const facts: ContractFact[] = [];
  const last = call.receiver.slice(call.receiver.lastIndexOf('.') + 1);
  const task = tasks.get(call.receiver);
  if (task !== undefined && (method === 'delay' || method === 'apply_async')) {
    facts.push({
      kind: 'topic_producer',
      topic: task,
      broker: 'celery',
      line,
      confidence: 'exact',
      via: `celery ${method}`,
    });
  } else if (method === 'produce' && /producer/i.test(last) && call.topic !== undefined) {
    // Unproven receiver: only confluent_kafka's distinctive `produce` on a producer-named object.
    facts.push({
      kind: 'topic_producer',
      topic: call.topic,
      broker: 'kafka',
      line,
      confidence: 'heuristic',
      via: 'confluent_kafka produce',
    });
  } else if (method === 'subscribe' && /consumer/i.test(last)) {
    for (const topic of call.topics ?? []) {
      facts.push({
        kind: 'topic_consumer',
        topic,
        broker: 'kafka',
        line,
        confidence: 'heuristic',
        via: 'kafka subscribe',
      });
    }
  }
  return facts;
}
