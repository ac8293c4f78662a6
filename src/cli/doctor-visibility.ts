import type { LoadedConfig } from '../core/config.js';
import { hasVisibilityRules, visibilityProblems } from '../core/visibility.js';
import { OPERATIONS } from '../ops/catalog.js';
import { check, type DoctorCheck } from './doctor-checks.js';

/**
 * `[server.visibility]` as `serve` will judge it: each rule naming an unknown domain or mode is an error
 * (serve would refuse to start), and a sound table is summed up with what keys of other roles see.
 */
export function visibilityChecks(loaded: LoadedConfig): DoctorCheck[] {
  const section = loaded.config.server.visibility;
  if (!hasVisibilityRules(section)) return [];
  const problems = visibilityProblems(section, OPERATIONS);
  if (problems.length > 0) return problems.map((problem) => check('visibility', 'error', problem));
  const roles = Object.keys(section.roles);
  const tenants = Object.keys(section.tenants);
  const overrides = tenants.length > 0 ? `; overrides for tenant(s) ${tenants.join(', ')}` : '';
  return [
    check(
      'visibility',
      'ok',
      `tiers for role(s) ${roles.join(', ') || '(none)'}${overrides}; keys of any other role see no tools`,
    ),
  ];
}
