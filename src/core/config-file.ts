import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * Which config file applies, without reading it: free of the schema and TOML parser, so that the thin
 * `serve` client can name its workspace daemon without loading either.
 */
export const CONFIG_FILE_NAME = 'meshlens.toml';

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** The config file that applies from `start`: the nearest `meshlens.toml` in it or a parent folder. */
export function discoverConfigFile(start: string): string | undefined {
  let dir = path.resolve(start);
  for (;;) {
    const candidate = path.join(dir, CONFIG_FILE_NAME);
    if (existsSync(candidate)) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

export interface ConfigFileOptions {
  /** Where discovery starts (the process's working directory). */
  readonly cwd: string;
  /** `--config FILE`: use this file, no discovery. */
  readonly configPath?: string;
  /** `--workspace DIR`: the workspace folder; its own meshlens.toml is used if present. */
  readonly workspaceDir?: string;
}

/**
 * `--config` when given (it must exist); else with `--workspace`, that folder's own meshlens.toml if any;
 * else the nearest one from the working folder upward. `workspaceDir` is the resolved workspace folder.
 */
export function configFileOf(options: ConfigFileOptions, workspaceDir: string): string | undefined {
  if (options.configPath) {
    const file = path.resolve(options.cwd, options.configPath);
    if (!existsSync(file)) throw new ConfigError(`Config file not found: ${file}`);
    return file;
  }
  if (options.workspaceDir) {
    const candidate = path.join(workspaceDir, CONFIG_FILE_NAME);
    return existsSync(candidate) ? candidate : undefined;
  }
  return discoverConfigFile(workspaceDir);
}
