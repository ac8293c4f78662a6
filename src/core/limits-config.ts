import type { LimitsConfig } from './admission.js';
import type { MeshConfig } from './config-schema.js';
import type { CallLimits } from './principal.js';
import { parseRateSpec } from './rate-spec.js';

type LimitsSection = MeshConfig['server']['limits'];

/** One `[server.limits]` entry as admission uses it; the schema has checked the rate's spelling already. */
function callLimitsOf(entry: {
  readonly rate?: string | undefined;
  readonly daily?: number | undefined;
}): CallLimits {
  const rate = entry.rate === undefined ? undefined : parseRateSpec(entry.rate);
  if (rate && 'error' in rate) throw new Error(rate.error);
  return { ...(rate ? { rate } : {}), ...(entry.daily !== undefined ? { daily: entry.daily } : {}) };
}

export function limitsConfigOf(section: LimitsSection): LimitsConfig {
  return {
    ...(section.local ? { local: callLimitsOf(section.local) } : {}),
    roles: Object.fromEntries(
      Object.entries(section.roles).map(([role, entry]) => [role, callLimitsOf(entry)]),
    ),
  };
}

/** Whether calls without a key are limited at all: only then does a local server open the key store. */
export const limitsLocalCalls = (section: LimitsSection): boolean =>
  section.local?.rate !== undefined || section.local?.daily !== undefined;
