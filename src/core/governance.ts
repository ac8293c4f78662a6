import type { LoadedConfig } from './config.js';
import type { AnyOperation } from './operation.js';
import { SkillHints } from './skill-hints.js';
import { StopRules, policyAnchors } from './stop-rules.js';

/** A structured refusal: the call did not run, and the agent must hand the decision to its user. */
export interface Refusal {
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

/** Consulted by the registry before `run`; the stop-rule engine implements it. */
export interface Governance {
  evaluate(op: AnyOperation, subject: string | undefined): GovernanceDecision;
  /** A one-line skill hint to put at the top of a matching answer. */
  skillHint?(op: AnyOperation, subject: string | undefined): string | undefined;
}

export const allowAll: Governance = { evaluate: () => ({ kind: 'allow' }) };

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
