import type { LoadedConfig } from '../core/config.js';
import { hasVisibilityRules, visibilityTableOf } from '../core/visibility.js';

/**
 * Checks `[server.visibility]` against the operations built in before a server starts, so that a rule
 * naming an unknown domain or mode stops it with a config error rather than failing its first request.
 * A config without rules loads no operation code here: the start of a plain stdio server stays as fast.
 */
export async function checkVisibilityTable(loaded: LoadedConfig): Promise<void> {
  const section = loaded.config.server.visibility;
  if (!hasVisibilityRules(section)) return;
  const { OPERATIONS } = await import('../ops/catalog.js');
  visibilityTableOf(section, OPERATIONS, loaded.file);
}
