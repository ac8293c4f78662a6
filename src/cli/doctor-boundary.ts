import type { LoadedConfig } from '../core/config.js';
import { ALLOW_OUTSIDE_FLAG } from '../core/workspace-boundary.js';
import { check, type DoctorCheck } from './doctor-checks.js';

/**
 * Roots and skill files that lead outside the workspace. Without the flag they were left out of the load
 * (so the other checks still run) and each is an error, since every other command refuses the config;
 * with the flag they are in use and each is a warning, so that nobody forgets they were allowed.
 */
export function boundaryChecks(loaded: LoadedConfig): DoctorCheck[] {
  if (loaded.outside.length === 0) {
    return [
      check('workspace boundary', 'ok', `every root and skill file is inside ${loaded.boundary.describe()}`),
    ];
  }
  const allowed = loaded.outsidePolicy === 'allow';
  return loaded.outside.map((o) =>
    check(
      'workspace boundary',
      allowed ? 'warn' : 'error',
      `${o.setting} \`${o.value}\` leads to ${o.resolved}, outside ${loaded.boundary.describe()}; ` +
        (allowed
          ? `in use because ${ALLOW_OUTSIDE_FLAG} was given`
          : `refused (left out of these checks): move it inside the workspace, or pass ${ALLOW_OUTSIDE_FLAG} if you trust this config`),
    ),
  );
}
