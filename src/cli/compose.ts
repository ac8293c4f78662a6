import type { LoadedConfig } from '../core/config.js';
import type { Logger } from '../core/logger.js';
import { Registry } from '../core/registry.js';
import { OPERATIONS } from '../ops/catalog.js';
import type { MeshServices } from '../ops/services.js';
import type { LazyIndex } from './lazy-index.js';

export interface ComposeOptions {
  readonly loaded: LoadedConfig;
  readonly index: LazyIndex;
  readonly logger: Logger;
  readonly session?: string;
}

/** Wires the registry for one workspace: the operations, the index, and the policies from the config. */
export function composeRegistry(options: ComposeOptions): Registry<MeshServices> {
  const { loaded, index } = options;
  return new Registry<MeshServices>({
    operations: OPERATIONS,
    services: { index },
    disabledDomains: loaded.config.tools.disabled_domains,
    logger: options.logger,
    ...(options.session ? { session: options.session } : {}),
    readiness: () => index.readiness(),
    stateNotes: () => index.stateNotes(),
  });
}
