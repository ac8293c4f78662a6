import type { CallPolicy, CallRefusal } from '../core/call-policy.js';
import type { AnyOperation } from '../core/operation.js';

/** A structured refusal: the call did not run, and the agent must hand the decision to its user. */
export interface Refusal extends CallRefusal {
  readonly status: 'GOVERNANCE_BLOCKED';
  readonly policy: string;
  readonly required_steps: readonly string[];
  readonly message_to_user: string;
  readonly agent_next_action: 'STOP_AND_REPORT_TO_USER';
}

export type GovernanceDecision =
  | { readonly kind: 'allow' }
  | { readonly kind: 'warn'; readonly message: string }
  | { readonly kind: 'refuse'; readonly refusal: Refusal };

/** The registry's call policy as the stop-rule engine answers it: refusals carry the full hand-off. */
export interface Governance extends CallPolicy {
  evaluate(op: AnyOperation, subject: string | undefined): GovernanceDecision;
}
