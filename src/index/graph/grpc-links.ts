import type { Confidence, ContractFact } from '../facts.js';
import type { IndexedFile } from '../snapshot.js';
import { codeNode, evidenceOf, weaker } from './code-nodes.js';
import type { GrpcCatalog } from './grpc-catalog.js';
import { methodKey } from './names.js';
import type { GraphBuilder } from './node-table.js';

export type GrpcFact = Extract<ContractFact, { kind: 'grpc_server' | 'grpc_client' }>;

/** A gRPC call that names only a method (custom `rpc` conventions): it is matched once every service is known. */
export interface WildcardRpc {
  readonly file: IndexedFile;
  readonly fact: Extract<ContractFact, { kind: 'grpc_client' }>;
}

/**
 * A server registering or a client calling a service (or one of its methods): one edge per candidate
 * service, fanned out as ambiguous when the name fits several.
 */
export function linkGrpcFact(
  builder: GraphBuilder,
  catalog: GrpcCatalog,
  file: IndexedFile,
  fact: GrpcFact,
): void {
  const edgeKind = fact.kind === 'grpc_server' ? 'implements' : 'calls_rpc';
  const from = codeNode(builder, file, fact.symbol);
  // A stub built (or held) whose methods this file never invokes: constructing is not calling.
  if (fact.kind === 'grpc_client' && fact.constructedOnly === true) return;
  const { entries, confidence } = catalog.resolveService(fact.service, file.root);
  const fanOut = entries.length > 1 ? 'ambiguous' : confidence;
  for (const service of entries) {
    if (fact.method === undefined) {
      // A service-level client only "may call" any method: never more than heuristic.
      const level =
        fact.kind === 'grpc_client'
          ? weaker(fact.confidence, weaker(fanOut, 'heuristic'))
          : weaker(fact.confidence, fanOut);
      builder.edge(from, service.id, edgeKind, level, evidenceOf(file, fact));
      continue;
    }
    const method = catalog.method(service, fact.method);
    if (method) builder.edge(from, method, edgeKind, weaker(fact.confidence, fanOut), evidenceOf(file, fact));
  }
}

/** Calls naming only a method match it across services, uniquely (heuristic) or ambiguously. */
export function linkWildcardRpcs(
  builder: GraphBuilder,
  catalog: GrpcCatalog,
  rpcs: readonly WildcardRpc[],
): void {
  if (rpcs.length === 0) return;
  const byMethod = catalog.methodsByKey();
  for (const { file, fact } of rpcs) {
    const targets = fact.method ? (byMethod.get(methodKey(fact.method)) ?? []) : [];
    const confidence: Confidence = targets.length > 1 ? 'ambiguous' : 'heuristic';
    for (const target of targets)
      builder.edge(
        codeNode(builder, file, fact.symbol),
        target,
        'calls_rpc',
        confidence,
        evidenceOf(file, fact),
      );
  }
}
