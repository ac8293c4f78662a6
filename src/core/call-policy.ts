import type { AnyOperation } from './operation.js';

/**
 * Why a call did not run. The registry reads the policy name and the message; the rest is the policy's own
 * structured hand-off for the agent, sent whole.
 */
export interface CallRefusal {
  readonly policy: string;
  readonly message_to_user: string;
  readonly [field: string]: unknown;
}

export type CallDecision =
  | { readonly kind: 'allow' }
  | { readonly kind: 'warn'; readonly message: string }
  | { readonly kind: 'refuse'; readonly refusal: CallRefusal };

/**
 * Consulted by the registry before `run`. Core only defines the question; the composition root wires in the
 * answer (the configured governance).
 */
export interface CallPolicy {
  evaluate(op: AnyOperation, subject: string | undefined): CallDecision;
  /** A one-line hint to put at the top of a matching answer. */
  skillHint?(op: AnyOperation, subject: string | undefined): string | undefined;
}

export const allowAll: CallPolicy = { evaluate: () => ({ kind: 'allow' }) };
