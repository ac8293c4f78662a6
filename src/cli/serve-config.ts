import { loadConfig, type LoadedConfig } from '../core/config.js';
import type { ServeArgs } from './serve-args.js';

/** Loads the config a `serve` (or `daemon`) command line names, as at start; called again on a change. */
export function serveConfigLoader(args: ServeArgs): () => LoadedConfig {
  return () =>
    loadConfig({
      cwd: process.cwd(),
      ...(args.config ? { configPath: args.config } : {}),
      ...(args.workspace ? { workspaceDir: args.workspace } : {}),
      outsideWorkspace: args.allowOutsideWorkspace ? 'allow' : 'refuse',
    });
}
