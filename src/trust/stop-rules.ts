import type { AnyOperation } from '../core/operation.js';
import type { Governance, GovernanceDecision, Refusal } from './governance.js';
import { anchoredSubject } from './policy-anchors.js';

/** `[policy] read_governance`: what a stop rule does to a call that only reads. */
export type ReadGovernance = 'allow' | 'warn' | 'enforce';

export interface StopRuleMatch {
  /** The rule as configured (`services/billing`). */
  readonly key: string;
  readonly message: string;
}

export interface StopRulesOptions {
  /** `[policy.stop_rules]`: path segment(s) → message for the user. No rules, no governance. */
  readonly rules: Readonly<Record<string, string>>;
  readonly readGovernance?: ReadGovernance;
  /**
   * Folders an absolute subject is made relative to before matching (the longest that contains it wins), so
   * that the folders above the workspace never match a rule: a workspace checked out under `~/deploy/` must
   * not have every call refused by a `deploy` rule.
   */
  readonly anchors?: readonly string[];
  /** `[policy.skills]`, answered through `skillHint`. */
  readonly skills?: { hint(op: AnyOperation, subject: string | undefined): string | undefined };
  /** Compare segments ignoring case; default where the file system usually does (macOS, Windows). */
  readonly caseInsensitive?: boolean;
}

const DEFAULT_CASE_INSENSITIVE = process.platform === 'darwin' || process.platform === 'win32';

/** The segments of a path or path-like string; `.` and empty segments (`a//b`, a leading `/`) carry nothing. */
export function segmentsOf(value: string): string[] {
  return value.split(/[\\/]+/).filter((segment) => segment !== '' && segment !== '.');
}

interface CompiledRule extends StopRuleMatch {
  readonly segments: readonly string[];
}

/** Stop rules: a call whose subject lies in a guarded area is refused (writes) or, by mode, refused or noted (reads). */
export class StopRules implements Governance {
  private readonly rules: readonly CompiledRule[];
  private readonly mode: ReadGovernance;
  private readonly anchors: readonly string[];
  private readonly skills: StopRulesOptions['skills'];
  private readonly fold: (segment: string) => string;

  constructor(options: StopRulesOptions) {
    const caseInsensitive = options.caseInsensitive ?? DEFAULT_CASE_INSENSITIVE;
    this.fold = caseInsensitive ? (s) => s.toLowerCase() : (s) => s;
    this.mode = options.readGovernance ?? 'allow';
    this.anchors = options.anchors ?? [];
    this.skills = options.skills;
    this.rules = Object.entries(options.rules)
      .map(([key, message]) => ({ key, message, segments: segmentsOf(key).map(this.fold) }))
      // A rule of no segments (`/`, `.`) would guard nothing meaningful; doctor reports it as matching nothing.
      .filter((rule) => rule.segments.length > 0)
      // Most specific first (more segments, then the longer key), then by key, so the winner is deterministic.
      .sort(
        (a, b) =>
          b.segments.length - a.segments.length ||
          b.key.length - a.key.length ||
          (a.key < b.key ? -1 : a.key > b.key ? 1 : 0),
      );
  }

  /** The most specific rule whose segments appear, consecutive and whole, in the subject. */
  match(subject: string | undefined): StopRuleMatch | undefined {
    if (subject === undefined || this.rules.length === 0) return undefined;
    const segments = segmentsOf(anchoredSubject(subject, this.anchors)).map(this.fold);
    const rule = this.rules.find((r) => containsRun(segments, r.segments));
    return rule ? { key: rule.key, message: rule.message } : undefined;
  }

  evaluate(op: AnyOperation, subject: string | undefined): GovernanceDecision {
    const match = this.match(subject);
    if (!match) return { kind: 'allow' };
    const writes = op.capabilities.writes === true;
    if (writes || this.mode === 'enforce') return { kind: 'refuse', refusal: refusalFor(match, writes) };
    if (this.mode === 'warn') return { kind: 'warn', message: `STOP_RULE:${match.key}: ${match.message}` };
    return { kind: 'allow' };
  }

  skillHint(op: AnyOperation, subject: string | undefined): string | undefined {
    return this.skills?.hint(op, subject);
  }
}

/** The structured hand-off an agent gets instead of an answer. */
export function refusalFor(match: StopRuleMatch, writes: boolean): Refusal {
  const what = writes ? 'the change to' : 'access to';
  return {
    status: 'GOVERNANCE_BLOCKED',
    policy: `STOP_RULE:${match.key}`,
    required_steps: [
      `Ask the user to confirm ${what} \`${match.key}\` with its owners`,
      'Follow the message below',
    ],
    message_to_user: match.message,
    agent_next_action: 'STOP_AND_REPORT_TO_USER',
  };
}

function containsRun(haystack: readonly string[], needle: readonly string[]): boolean {
  for (let start = 0; start + needle.length <= haystack.length; start++) {
    let all = true;
    for (let i = 0; i < needle.length; i++) {
      if (haystack[start + i] !== needle[i]) {
        all = false;
        break;
      }
    }
    if (all) return true;
  }
  return false;
}
