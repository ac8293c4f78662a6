/**
 * Constructing a gRPC stub is not a call. An extractor records a service-level `grpc_client` fact where a
 * stub is built or declared (`pb.NewXClient(conn)`, `XStub(channel)`, a field of type `XClient`) and a
 * method-level one where a method is invoked on it. A file that builds a stub for a service and invokes
 * none of its methods only constructs it: the fact is kept, marked `constructedOnly`, so that the graph can
 * say so instead of drawing a `calls_rpc` edge. Shared by the languages whose extractors follow stubs.
 */
import type { ContractFact, FileFacts } from '../../facts.js';

/** The file's facts with each service-level stub of a service none of whose methods it calls marked. */
export function markUncalledStubs(facts: FileFacts): FileFacts {
  const called = new Set<string>();
  let uncalled = false;
  for (const fact of facts.contracts) {
    if (fact.kind !== 'grpc_client') continue;
    if (fact.method !== undefined) called.add(fact.service);
    else uncalled = true;
  }
  if (!uncalled) return facts;
  const contracts = facts.contracts.map((fact): ContractFact => {
    if (fact.kind !== 'grpc_client' || fact.method !== undefined || called.has(fact.service)) return fact;
    return { ...fact, constructedOnly: true };
  });
  return { ...facts, contracts };
}
