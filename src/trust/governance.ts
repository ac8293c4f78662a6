import type { CallPolicy, CallRefusal } from '../core/call-policy.js';
import type { LoadedConfig } from '../core/config.js';
import type { AnyOperation } from '../core/operation.js';
import { SkillHints } from './skill-hints.js';
import { StopRules, policyAnchors } from './stop-rules.js';

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

/** The governance `[policy]` asks for: stop rules in the configured read mode, plus skill hints. */
export function createPolicyGovernance(
  loaded: Pick<LoadedConfig, 'baseDir' | 'roots' | 'config'>,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Governance {
  const policy = loaded.config.policy;
  const anchors = policyAnchors(loaded);
  const skills =
    Object.keys(policy.skills).length > 0
      ? new SkillHints({
          skills: policy.skills,
          baseDir: loaded.baseDir,
          workspaceRoot: env.WORKSPACE_ROOT || undefined,
          anchors,
        })
      : undefined;
  return new StopRules({
    rules: policy.stop_rules,
    readGovernance: policy.read_governance,
    anchors,
    ...(skills ? { skills } : {}),
  });
}
