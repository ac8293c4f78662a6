import type { ComparisonContext } from './comparison-context.js';
import type { RpcModel, ServiceModel } from './schema-model.js';
import { compareTypes, typeText } from './type-compatibility.js';

/** Services and rpcs matched by name: the gRPC method path is what a client calls. */
export function compareService(
  context: ComparisonContext,
  before: ServiceModel,
  after: ServiceModel | undefined,
): void {
  const qualified = context.qualify(before.name);
  if (!after) {
    context.add(
      'breaking',
      'rpc_removed',
      qualified,
      `service \`${before.name}\` removed: its clients get UNIMPLEMENTED`,
      before.name,
      'base',
    );
    return;
  }
  const afterRpcs = new Map(after.rpcs.map((r) => [r.name, r]));
  for (const rpc of before.rpcs) {
    const element = `${qualified}/${rpc.name}`;
    const key = `${after.name}/${rpc.name}`;
    const now = afterRpcs.get(rpc.name);
    if (!now) {
      context.add(
        'breaking',
        'rpc_removed',
        element,
        `rpc \`${rpc.name}\` removed: its clients get UNIMPLEMENTED`,
        `${before.name}/${rpc.name}`,
        'base',
      );
      continue;
    }
    if (rpc.clientStreaming !== now.clientStreaming || rpc.serverStreaming !== now.serverStreaming) {
      context.add(
        'breaking',
        'rpc_changed',
        element,
        `rpc \`${rpc.name}\` changed from ${streamingText(rpc)} to ${streamingText(now)}`,
        key,
        'head',
      );
    }
    for (const [side, beforeType, afterType] of [
      ['request', rpc.request, now.request],
      ['response', rpc.response, now.response],
    ] as const) {
      const verdict = compareTypes(beforeType, afterType, context.pair);
      if (verdict.kind === 'same') continue;
      const text = `rpc \`${rpc.name}\` ${side} type changed \`${typeText(beforeType)}\` → \`${typeText(afterType)}\``;
      if (verdict.kind === 'external')
        context.add(
          'warning',
          'external_type_changed',
          element,
          `${text}, involving a type not declared in this file; check it by hand`,
          key,
          'head',
        );
      else if (verdict.kind === 'renamed')
        context.add(
          'warning',
          'compatible_type_change',
          element,
          `${text}: the message was renamed, the same on the wire`,
          key,
          'head',
        );
      else context.add('breaking', 'rpc_changed', element, text, key, 'head');
    }
  }
}

function streamingText(rpc: RpcModel): string {
  if (rpc.clientStreaming && rpc.serverStreaming) return 'bidirectional streaming';
  if (rpc.clientStreaming) return 'client streaming';
  if (rpc.serverStreaming) return 'server streaming';
  return 'unary';
}
