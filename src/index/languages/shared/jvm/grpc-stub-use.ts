/**
 * Constructing a gRPC stub is not a call: a service-level client (a stub built by `XGrpc.newBlockingStub`,
 * injected by `@GrpcClient`) is marked `constructedOnly` when the file never invokes a method of that
 * service, so that it is reported but never becomes an edge.
 */
import type { ContractFact } from '../../../facts.js';
import type { FactBuilder } from '../fact-builder.js';

type Place = Parameters<FactBuilder['addContract']>[1];

/** Passes contracts to a fact builder, holding service-level gRPC clients back until the file is read. */
export class StubUseTracker {
  private readonly held: { fact: ContractFact & { kind: 'grpc_client' }; place: Place }[] = [];
  private readonly invoked = new Set<string>();

  constructor(private readonly facts: FactBuilder) {}

  addContract(fact: ContractFact, place?: Place): void {
    if (fact.kind === 'grpc_client' && fact.method === undefined) {
      this.held.push({ fact, place });
      return;
    }
    if (fact.kind === 'grpc_client') this.invoked.add(fact.service);
    this.facts.addContract(fact, place);
  }

  /** Adds the held clients, marked when their service saw no method call. */
  flush(): void {
    for (const { fact, place } of this.held) {
      const used = this.invoked.has(fact.service);
      this.facts.addContract(used ? fact : { ...fact, constructedOnly: true }, place);
    }
    this.held.length = 0;
  }
}

/** Where contract detection writes: a fact builder or a tracker in front of one. */
export type ContractSink = Pick<FactBuilder, 'addContract'>;
