import { createAdmitter, type Admitter, type UsageCounter } from '../core/admission.js';
import type { MeshConfig } from '../core/config-schema.js';
import { ToolError } from '../core/errors.js';
import { limitsConfigOf, limitsLocalCalls } from '../core/limits-config.js';
import type { SqliteKeyStore } from '../store/keys-db.js';

type Env = Readonly<Record<string, string | undefined>>;

export interface LocalAdmission {
  readonly admission: Admitter;
  readonly close: () => void;
}

/**
 * Admission for a server without keys (stdio): only when `[server.limits.local]` sets a limit, with its calls
 * counted in the key store, opened on the first call, or in `usage` (a team store's counter) when given.
 * Without local limits, nothing is opened or counted.
 */
export function localAdmission(
  config: MeshConfig,
  env: Env = process.env,
  usage?: UsageCounter,
): LocalAdmission | undefined {
  if (!limitsLocalCalls(config.server.limits)) return undefined;
  const limits = limitsConfigOf(config.server.limits);
  if (usage) return { admission: createAdmitter({ limits, usage }), close: () => undefined };
  let store: SqliteKeyStore | undefined;
  let admitter: ReturnType<typeof createAdmitter> | undefined;
  const open = async () => {
    if (admitter) return admitter;
    const [{ SqliteKeyStore }, { keysDbPath }] = await Promise.all([
      import('../store/keys-db.js'),
      import('../store/keys-paths.js'),
    ]);
    const file = keysDbPath(env);
    try {
      store ??= SqliteKeyStore.open({ path: file, env });
    } catch (error) {
      // Limits were asked for and cannot be counted: refuse rather than serve without them.
      throw new ToolError(
        'unavailable',
        `Cannot open the key store ${file} to count calls against [server.limits.local]: ${error instanceof Error ? error.message : String(error)}. ` +
          'Set MESHLENS_KEYS_DB (or MESHLENS_DATA_DIR) to a place meshlens may write, then retry.',
      );
    }
    admitter = createAdmitter({ limits, usage: store });
    return admitter;
  };
  return {
    admission: { admit: async (principal, nowMs) => (await open()).admit(principal, nowMs) },
    close: () => store?.close(),
  };
}
