import { watch, type FSWatcher } from 'node:fs';
import path from 'node:path';
import type { MeshConfig } from '../core/config-schema.js';
import { ConfigError, type LoadedConfig } from '../core/config.js';
import type { Logger } from '../core/logger.js';

/** What a changed config file means for a running server. */
export interface ConfigChange {
  /** `[tools] disabled_domains` as the file now says: applied at once. */
  readonly disabledDomains: readonly string[];
  /** `[server.visibility]` as the file now says: applied at once. */
  readonly visibility: MeshConfig['server']['visibility'];
  /** The other settings that differ (`[docs] paths`, `[workspace]`): they apply when the server restarts. */
  readonly needsRestart: readonly string[];
}

const sameJson = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * Compares two configs setting by setting (`section.key`). Only the set of served tools (disabled domains,
 * visibility tiers) changes while serving: the index, the roots and the policies were built from the config at start, and rebuilding them
 * behind a client's back would change answers it already relies on.
 */
export function configChange(before: MeshConfig, after: MeshConfig): ConfigChange {
  const needsRestart: string[] = [];
  for (const section of Object.keys({ ...before, ...after }) as (keyof MeshConfig)[]) {
    const was = (before[section] ?? {}) as Record<string, unknown>;
    const now = (after[section] ?? {}) as Record<string, unknown>;
    for (const key of Object.keys({ ...was, ...now })) {
      if (appliedAtOnce(section, key)) continue;
      if (!sameJson(was[key], now[key])) needsRestart.push(`${section}.${key}`);
    }
  }
  return {
    disabledDomains: after.tools.disabled_domains,
    visibility: after.server.visibility,
    needsRestart,
  };
}

/** The settings that only change which tools are served, and so apply while serving. */
const appliedAtOnce = (section: string, key: string): boolean =>
  (section === 'tools' && key === 'disabled_domains') || (section === 'server' && key === 'visibility');

/** Quiet time after the last write: editors save in several steps (truncate, write, rename). */
const SETTLE_MS = 100;

/**
 * Watches the config file while serving and hands each valid new version to `onChange`. The folder is
 * watched, not the file, because editors replace a file by renaming another over it. A version that does
 * not load (a half-typed edit) is logged and skipped: the server keeps what it serves. Returns the stop.
 */
export function watchConfigFile(options: {
  readonly file: string;
  readonly reload: () => LoadedConfig;
  readonly onChange: (loaded: LoadedConfig) => void;
  readonly logger: Logger;
}): () => void {
  const { file, logger } = options;
  let timer: NodeJS.Timeout | undefined;
  const settled = () => {
    timer = undefined;
    try {
      options.onChange(options.reload());
    } catch (error) {
      const why = error instanceof ConfigError ? error.message : String(error);
      logger.warn({ config: file }, `config not applied: ${why}`);
    }
  };
  let watcher: FSWatcher;
  try {
    watcher = watch(path.dirname(file), { persistent: false }, (_event, name) => {
      if (name !== path.basename(file)) return;
      clearTimeout(timer);
      timer = setTimeout(settled, SETTLE_MS);
    });
  } catch (error) {
    logger.warn({ err: error, config: file }, 'cannot watch the config file; changes apply on restart');
    return () => undefined;
  }
  watcher.on('error', (error) => logger.warn({ err: error, config: file }, 'config watcher failed'));
  return () => {
    clearTimeout(timer);
    watcher.close();
  };
}
