/**
 * What `contracts grpc` answers: built by the tracer, turned into text and JSON by the renderer, which
 * is why the shapes live apart from both.
 */
import type { Confidence } from '../../index/reader.js';
import type { WireCheck } from './wire-check.js';

/** One piece of code linked to a contract: a handler, a client, or a service-level client that may call it. */
export interface ContractRow {
  readonly role: 'handler' | 'client' | 'may_call';
  /** Whether the edge points at the method or at the whole service. */
  readonly level: 'method' | 'service';
  readonly root: string;
  /** As shown to agents (root-prefixed when the root is inside the workspace folder). */
  readonly path: string;
  /** Root-relative. */
  readonly file: string;
  readonly line: number;
  /** The enclosing declaration's qualified name, undefined for file-level code. */
  readonly symbol: string | undefined;
  readonly confidence: Confidence;
  readonly via: string;
}

export interface MethodTrace {
  /** `package.Service/Method`. */
  readonly name: string;
  readonly method: string;
  readonly path: string | undefined;
  readonly line: number | undefined;
  /** `rpc ProcessPayment(ProcessPaymentRequest) returns (stream Settlement)`. */
  readonly signature: string | undefined;
  readonly handlers: readonly ContractRow[];
  readonly clients: readonly ContractRow[];
}

export interface ServiceTrace {
  /** `package.Service`. */
  readonly name: string;
  readonly path: string | undefined;
  readonly line: number | undefined;
  /** Methods declared by the service. */
  readonly methodCount: number;
  /** The traced methods: all of them for a service target, the one asked for otherwise. */
  readonly methods: readonly MethodTrace[];
  /** Code registering the whole service (an `implements` edge into the service). */
  readonly serviceHandlers: readonly ContractRow[];
  /** Service-level clients: they hold a stub but which methods they call was not traced. */
  readonly mayCall: readonly ContractRow[];
  /** Files left out of `mayCall` because they call methods of this service by name. */
  readonly mayCallExcludedFiles: readonly string[];
}

export type MatchKind = 'qualified' | 'package' | 'name' | 'substring' | 'file';

export interface Candidate {
  readonly kind: 'service' | 'method';
  readonly name: string;
  readonly path: string | undefined;
  readonly line: number | undefined;
  readonly signature: string | undefined;
}

export type Resolution =
  | { readonly kind: 'none' }
  | { readonly kind: 'ambiguous'; readonly match: MatchKind; readonly candidates: readonly Candidate[] }
  | {
      readonly kind: 'traced';
      readonly match: MatchKind;
      /** `method` when one method was asked for; `service` otherwise. */
      readonly scope: 'method' | 'service';
      readonly services: readonly ServiceTrace[];
      /** Contracts whose names only contain the target, left out because a name matched exactly. */
      readonly notTraced: readonly string[];
    };

export interface GrpcAnswer {
  readonly target: string;
  readonly proto: string | undefined;
  readonly includeTests: boolean;
  readonly resolution: Resolution;
  readonly testsLeftOut: number;
  /** What was searched, for an authoritative zero. */
  readonly searched: { readonly services: number; readonly methods: number; readonly protoFiles: number };
  readonly wireChecks: readonly WireCheck[];
  /** Why the wire check did not run at all (ambiguous target, nothing resolved). */
  readonly wireNote: string | undefined;
  readonly notIndexed: { readonly markdown: string; readonly json: readonly unknown[] };
}
