import type { LoadedConfig } from '../core/config.js';
import type { Governance } from './governance.js';
import { policyAnchors } from './policy-anchors.js';
import { SkillHints } from './skill-hints.js';
import { StopRules } from './stop-rules.js';

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
