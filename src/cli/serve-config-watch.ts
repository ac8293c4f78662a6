import type { LoadedConfig } from '../core/config.js';
import type { Logger } from '../core/logger.js';
import type { ServedRegistry } from '../server/served-registry.js';
import { configChange, watchConfigFile } from './config-reload.js';

export interface ServedConfigWatch {
  readonly loaded: LoadedConfig;
  readonly reload: () => LoadedConfig;
  readonly logger: Logger;
  readonly served: ServedRegistry;
  /** Tells the connected clients something they should know (a change that needs a restart). */
  readonly warnClients: (message: string) => void;
}

/**
 * Applies a changed config file to a running server: domains switched on or off and visibility tiers change
 * the served registry at once (each session's server then announces the lists that changed for its caller);
 * anything else is named as needing a restart. Returns what stops the watching; nothing is watched without a config file.
 */
export function watchServedConfig(options: ServedConfigWatch): () => void {
  const { loaded, logger, served } = options;
  if (!loaded.file) return () => undefined;
  const file = loaded.file;
  let config = loaded.config;
  return watchConfigFile({
    file,
    reload: options.reload,
    logger,
    onChange: (next) => {
      const change = configChange(config, next.config);
      config = next.config;
      // A visibility table naming an unknown domain or mode is not applied: what is served stays, and the log says why.
      void served
        .replace((registry) =>
          registry.withDisabledDomains(change.disabledDomains).withVisibility(change.visibility),
        )
        .catch((error: unknown) =>
          logger.warn({ config: file }, `config not applied: ${(error as Error).message}`),
        );
      if (change.needsRestart.length > 0) {
        const message = `${file} changed ${change.needsRestart.join(', ')}: restart the server to apply ${change.needsRestart.length > 1 ? 'them' : 'it'}.`;
        logger.warn({ config: file }, message);
        options.warnClients(message);
      }
    },
  });
}
