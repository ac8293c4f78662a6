/**
 * Contracts a change touches in one file: the routes, RPC servers and clients, producers and consumers the
 * base version declares and the working tree does not (removed), the reverse (added), and a removed and an
 * added one of the same kind in the same declaration (renamed).
 */
import type { ContractFact, SymbolFact } from '../../../index/reader.js';

/** What side of a contract a fact is: the one serving it or the one using it. */
export type ContractSide = 'provides' | 'uses';

export interface ContractRef {
  /** `route`, `rpc` or `topic`. */
  readonly family: 'route' | 'rpc' | 'topic';
  /** The contract's name as `contracts impact --target` reads it: `GET /orders`, `pkg.Svc/Method`, `orders.created`. */
  readonly name: string;
  readonly side: ContractSide;
  /** How the fact reads in an answer: `serves rpc X`, `calls route GET /x`, `produces topic t`. */
  readonly label: string;
  readonly line: number;
  /** The declaration holding it, when the extractor tells. */
  readonly holder: string | undefined;
}

export interface ContractChange {
  readonly change: 'removed' | 'added' | 'renamed';
  /** The base version's contract (removed, renamed) or the working tree's (added). */
  readonly contract: ContractRef;
  /** For a rename: the working tree's contract. */
  readonly renamedTo?: ContractRef;
}

function refOf(fact: ContractFact, symbols: readonly SymbolFact[]): ContractRef | undefined {
  const holder = fact.symbol === undefined ? undefined : symbols[fact.symbol]?.qualifiedName;
  const ref = (family: ContractRef['family'], name: string, side: ContractSide, verb: string) => ({
    family,
    name,
    side,
    label: `${verb} ${family} ${name}`,
    line: fact.line,
    holder,
  });
  switch (fact.kind) {
    case 'grpc_server':
    case 'grpc_client': {
      const name = fact.method ? `${fact.service}/${fact.method}` : fact.service;
      return fact.kind === 'grpc_server'
        ? ref('rpc', name, 'provides', 'serves')
        : ref('rpc', name, 'uses', 'calls');
    }
    case 'topic_producer':
    case 'topic_consumer':
      if (fact.unresolved !== undefined || fact.topic === '') return undefined;
      return fact.kind === 'topic_producer'
        ? ref('topic', fact.topic, 'provides', 'produces')
        : ref('topic', fact.topic, 'uses', 'consumes');
    case 'http_route':
      return ref('route', `${fact.method} ${fact.path}`, 'provides', 'serves');
    case 'http_call':
      if (fact.unresolved !== undefined) return undefined;
      return ref('route', `${fact.method} ${fact.path}`, 'uses', 'calls');
    default:
      return undefined;
  }
}

const refsOf = (contracts: readonly ContractFact[], symbols: readonly SymbolFact[]): ContractRef[] =>
  contracts.flatMap((c) => refOf(c, symbols) ?? []);

/** Removes one ref per label of `other` from `refs` (a multiset difference). */
function minus(refs: readonly ContractRef[], other: readonly ContractRef[]): ContractRef[] {
  const counts = new Map<string, number>();
  for (const r of other) counts.set(r.label, (counts.get(r.label) ?? 0) + 1);
  return refs.filter((r) => {
    const n = counts.get(r.label) ?? 0;
    if (n === 0) return true;
    counts.set(r.label, n - 1);
    return false;
  });
}

/** The contract changes of one file; either side may be absent (a new or deleted file). */
export function contractChanges(
  base: { contracts: readonly ContractFact[]; symbols: readonly SymbolFact[] } | undefined,
  current: { contracts: readonly ContractFact[]; symbols: readonly SymbolFact[] } | undefined,
): ContractChange[] {
  const before = base ? refsOf(base.contracts, base.symbols) : [];
  const now = current ? refsOf(current.contracts, current.symbols) : [];
  const removed = minus(before, now);
  const added = minus(now, before);
  const changes: ContractChange[] = [];
  for (const old of removed) {
    // One declaration that used to serve (or use) one contract of a family and now another: a rename.
    const index = added.findIndex(
      (a) =>
        a.family === old.family && a.side === old.side && a.holder !== undefined && a.holder === old.holder,
    );
    if (index >= 0) {
      const [renamedTo] = added.splice(index, 1) as [ContractRef];
      changes.push({ change: 'renamed', contract: old, renamedTo });
    } else changes.push({ change: 'removed', contract: old });
  }
  for (const contract of added) changes.push({ change: 'added', contract });
  return changes;
}
